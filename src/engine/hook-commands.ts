// The commands Claude Code runs by itself, as its settings and MCP
// configuration hold them: its command hooks, its status lines, file
// suggestion and credential helpers, and the MCP servers it starts (issue 31's
// red-team passes). Pure. The files those commands name are found by
// ./command-files.ts.
import { LOADS_FROM } from "./command-tables.js";

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The settings Claude Code 2.1.328 runs as a command (its own list, beside
 * `hooks`): a string, or `{ type: "command", command }`. `processWrapper` is
 * an argv prefix read as a command line; policy helpers are below.
 */
const COMMAND_SETTINGS = [
  "apiKeyHelper",
  "awsAuthRefresh",
  "awsCredentialExport",
  "fileSuggestion",
  "gcpAuthRefresh",
  "otelHeadersHelper",
  "processWrapper",
  "proxyAuthHelper",
  "statusLine",
  "subagentStatusLine",
];

/** The commands of a settings object: every `type: command` hook, the command settings (through its `env`'s PATH), policy helpers, and what its `env` makes every command run. */
export function hookCommands(settings: unknown): string[][] {
  if (!isRecord(settings)) return [];
  const groups = isRecord(settings.hooks) ? Object.values(settings.hooks).flatMap((g) => (Array.isArray(g) ? g : [])) : [];
  const hooks = groups.flatMap((group) => (isRecord(group) && Array.isArray(group.hooks) ? (group.hooks as unknown[]) : []));
  const commands = [...hooks.flatMap(commandOf), ...COMMAND_SETTINGS.flatMap((key) => settingCommand(settings[key]))];
  return [...withPath(commands, settings.env), ...policyHelpers(settings), ...envCommands(settings.env)];
}

function settingCommand(value: unknown): string[][] {
  return typeof value === "string" ? [[value]] : commandOf(value);
}

/** `policyHelper`, and each entry of `policyHelpers` (one per OS): the helper's `path`, or the `interpreter` its inline script is fed to. */
function policyHelpers(settings: Record<string, unknown>): string[][] {
  const perOs = isRecord(settings.policyHelpers) ? Object.values(settings.policyHelpers) : [];
  return [settings.policyHelper, ...perOs].flatMap((helper) =>
    isRecord(helper) ? [helper.path, helper.interpreter].flatMap((c) => (typeof c === "string" ? [[quoted(c)]] : [])) : [],
  );
}

/**
 * The command (and `args`, and what their `env` makes Node load) of every
 * server Claude Code starts from an `mcpServers` object: at the top of
 * `.mcp.json` or `~/.claude.json`, and, in `~/.claude.json`, under the
 * project's own entry (`projects[<folder>].mcpServers`, what `claude mcp add`
 * writes by default).
 */
export function mcpServerCommands(config: unknown, projectDir?: string): string[][] {
  if (!isRecord(config)) return [];
  const project = projectDir !== undefined && isRecord(config.projects) ? config.projects[projectDir] : undefined;
  const servers = [config.mcpServers, isRecord(project) ? project.mcpServers : undefined].flatMap((s) =>
    isRecord(s) ? Object.values(s) : [],
  );
  return servers.flatMap((server) => [
    ...commandOf(server),
    // An http or sse server's headersHelper is a command Claude Code runs for its headers.
    ...(isRecord(server) ? [...settingCommand(server.headersHelper), ...envCommands(server.env)] : []),
  ]);
}

/** One hook's or server's command and its `args`, when it runs one; the args quoted, since they reach no shell. */
function commandOf(hook: unknown): string[][] {
  if (!isRecord(hook) || typeof hook.command !== "string") return [];
  const args = Array.isArray(hook.args) ? hook.args.filter((a): a is string => typeof a === "string") : [];
  return [[[hook.command, ...args.map(quoted)].join(" ")]];
}

const quoted = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * What an `env` object makes every command run: NODE_OPTIONS as the options
 * of a `node` command (its `--require` loads a file into every Node process),
 * BASH_ENV and ENV (files bash and sh read first), the folders and files
 * programs load code from first (PYTHONPATH, NODE_PATH, LD_PRELOAD, …:
 * LOADS_FROM), the shell Claude Code runs
 * hooks with (CLAUDE_CODE_SHELL) and the prefix it runs commands through
 * (CLAUDE_CODE_SHELL_PREFIX).
 */
function envCommands(env: unknown): string[][] {
  if (!isRecord(env)) return [];
  return Object.entries(ENV_COMMANDS).flatMap(([key, command]) => (typeof env[key] === "string" ? [[command(env[key] as string)]] : []));
}

/** Each variable of an `env` object that makes commands run something, and the command it amounts to. */
const ENV_COMMANDS: Record<string, (value: string) => string> = {
  NODE_OPTIONS: (value) => `node ${value}`,
  ...Object.fromEntries([...LOADS_FROM].map((name) => [name, (value: string) => `${name}=${quoted(value)}`])),
  CLAUDE_CODE_SHELL: (value) => quoted(value),
  CLAUDE_CODE_SHELL_PREFIX: (value) => value,
};

/** A PATH in the settings' `env`: every command of those settings looks its programs up there first. */
function withPath(commands: string[][], env: unknown): string[][] {
  const path = isRecord(env) && typeof env.PATH === "string" ? env.PATH : undefined;
  return path === undefined ? commands : commands.map((c) => [`export PATH=${quoted(path)};`, ...c]);
}
