// The files the commands Claude Code runs by itself name: its command hooks,
// its status line, and the MCP servers it starts (issue 31's red-team
// passes). Pure.
//
// A hook in `.claude/settings.json` may run a script kept anywhere
// (`sh "$CLAUDE_PROJECT_DIR/tools/pre-bash.sh"`, `cd tools && sh pre.sh`,
// `npm run lint`), and `.mcp.json` may start `node tools/server.mjs`: writing
// such a file changes what Claude Code runs, outside the gate and outside its
// sandbox, as writing a settings file would. So the files a command names are
// guarded as Claude Code's configuration is (./protected.ts).

/** Commands read from one settings object, at most: a larger `hooks` block is read this far. */
export const MAX_HOOK_COMMANDS = 256;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The command strings (and their `args`) of every `type: command` hook in a settings object's `hooks`, and its status line's. */
export function hookCommands(settings: unknown): string[][] {
  if (!isRecord(settings)) return [];
  const groups = isRecord(settings.hooks) ? Object.values(settings.hooks).flatMap((g) => (Array.isArray(g) ? g : [])) : [];
  const hooks = groups.flatMap((group) => (isRecord(group) && Array.isArray(group.hooks) ? (group.hooks as unknown[]) : []));
  return [...hooks.slice(0, MAX_HOOK_COMMANDS).flatMap(commandOf), ...commandOf(settings.statusLine)];
}

/** The command (and `args`) of every server in an `mcpServers` object (`.mcp.json`, `~/.claude.json`) that Claude Code starts. */
export function mcpServerCommands(config: unknown): string[][] {
  if (!isRecord(config) || !isRecord(config.mcpServers)) return [];
  return Object.values(config.mcpServers).slice(0, MAX_HOOK_COMMANDS).flatMap(commandOf);
}

/** One hook's or server's command and its `args`, when it runs one. */
function commandOf(hook: unknown): string[][] {
  if (!isRecord(hook) || typeof hook.command !== "string") return [];
  const args = Array.isArray(hook.args) ? hook.args.filter((a): a is string => typeof a === "string") : [];
  return [[hook.command, ...args]];
}

/** Where a command's words are read from: the project (its working folder), and the values Claude Code sets for it. */
export interface HookPlaces {
  projectDir: string;
  home: string;
  pluginRoot?: string;
}

/** A shell word (quoted and bare parts run together, quotes taken off), or an operator that ends a simple command. */
type Token = { word: string } | { op: string };

/** The tokens of a shell command: no expansion here but the variables `filled` knows. */
function tokens(command: string): Token[] {
  const out: Token[] = [];
  for (const m of command.matchAll(/((?:"[^"]*"|'[^']*'|[^\s"';|&<>()])+)|(&&|\|\||[;|&()])|[<>]+/g)) {
    if (m[2] !== undefined) out.push({ op: m[2] });
    else if (m[1] !== undefined) out.push({ word: m[1].replace(/"([^"]*)"|'([^']*)'/g, (_all, d?: string, s?: string) => d ?? s ?? "") });
  }
  return out;
}

/** A word with `$CLAUDE_PROJECT_DIR`, `$CLAUDE_PLUGIN_ROOT`, `$HOME` and a leading `~` filled in; undefined when it holds another variable. */
function filled(word: string, places: HookPlaces): string | undefined {
  const known: Record<string, string | undefined> = {
    CLAUDE_PROJECT_DIR: places.projectDir,
    CLAUDE_PLUGIN_ROOT: places.pluginRoot,
    HOME: places.home,
  };
  let unknown = false;
  const expanded = word.replace(/\$\{(\w+)\}|\$(\w+)/g, (_all, a?: string, b?: string) => {
    const value = known[a ?? b ?? ""];
    if (value === undefined) unknown = true;
    return value ?? "";
  });
  return unknown ? undefined : expanded.replace(/^~(?=\/|$)/, places.home);
}

/** Looks like a file a command runs or reads: it has a folder part or a script's extension. */
const FILE_LIKE = /\/|\.(sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|ps1)$/i;

/** Commands that run what a file in their working folder declares: the file that decides what they run. */
const RUNNERS: Record<string, string> = {
  npm: "package.json",
  pnpm: "package.json",
  yarn: "package.json",
  bun: "package.json",
  make: "Makefile",
  just: "justfile",
};

const trimmed = (dir: string) => dir.replace(/\/+$/, "") || "/";
const joined = (dir: string, path: string) => (path.startsWith("/") ? path : `${trimmed(dir)}/${path.replace(/^\.\//, "")}`);

/** A folder that holds the project (or is it): guarding it would guard every file the gate lets the model write. */
function holdsProject(path: string, projectDir: string): boolean {
  const p = trimmed(path);
  const project = trimmed(projectDir);
  return project === p || project.startsWith(p === "/" ? "/" : `${p}/`);
}

/** A word that names a file to guard: filled in, file-like, no address, and not a folder that holds the project or the home. */
function fileOf(word: string, dir: string, places: HookPlaces): string | undefined {
  const path = filled(word, places);
  if (path === undefined || path === "" || !FILE_LIKE.test(path) || /^[a-z]+:\/\//i.test(path)) return undefined;
  const absolute = joined(dir, path);
  return holdsProject(absolute, places.projectDir) || holdsProject(absolute, places.home) ? undefined : absolute;
}

/** The files one command names, reading `cd DIR` for the words after it, and the file a runner (npm, make) reads. */
function filesOfCommand(command: readonly string[], places: HookPlaces, files: Set<string>): void {
  let dir = places.projectDir;
  let first = true;
  let cdNext = false;
  for (const token of command.flatMap((part) => tokens(part))) {
    if ("op" in token) {
      first = true;
      continue;
    }
    const isCommand = first;
    first = false;
    if (cdNext) {
      cdNext = false;
      const to = filled(token.word, places);
      if (to !== undefined) dir = joined(dir, to);
      continue;
    }
    cdNext = isCommand && token.word === "cd";
    if (isCommand && Object.hasOwn(RUNNERS, token.word)) files.add(joined(dir, RUNNERS[token.word]!));
    const file = fileOf(token.word, dir, places);
    if (file !== undefined) files.add(file);
  }
}

/** Absolute paths of the files the commands name, each as written (relative ones from the project folder, or where a `cd` went). */
export function hookFiles(commands: readonly string[][], places: HookPlaces): string[] {
  const files = new Set<string>();
  for (const command of commands) filesOfCommand(command, places, files);
  return [...files];
}
