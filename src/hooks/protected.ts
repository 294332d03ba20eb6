import { readlinkSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { absolutePath, namedPaths } from "../engine/named-paths.js";
import { hookCommands, mcpServerCommands } from "../engine/hook-commands.js";
import { commandFiles, type CommandFiles } from "../engine/command-files.js";
import { isOversized, MAX_FILE_BYTES, readSmallText } from "../claude/files.js";
import { DELEGATE_TOOLS } from "../engine/tools.js";
import { pluginDirsOf } from "../claude/places.js";
import { guardedReason, namedTargetReason, type GuardedPlaces } from "../engine/protected.js";
import type { PreToolUseInput } from "./input.js";
import type { ScopeRef } from "./scope.js";

/** Longer than this, a path cannot be opened (Linux's PATH_MAX): it is checked as written only, not through links. */
const PATH_MAX = 4096;

/** Links followed at most, as the kernel does (Linux's MAXSYMLINKS). */
const MAX_LINKS = 40;

/**
 * Where writing `path` lands, through symbolic links: the path resolved if it
 * exists; else, when it is a link to nothing (a write creates its target),
 * where the link points; else its folder resolved so, with its name. A link
 * that leads into a guarded place is found.
 */
function realTarget(path: string, links = 0): string {
  try {
    return realpathSync.native(path);
  } catch {
    // not there (yet), or a link to nothing
  }
  const link = linkOf(path);
  if (link !== undefined && links < MAX_LINKS) return realTarget(resolve(dirname(path), link), links + 1);
  const up = dirname(path);
  return up === path ? path : join(realTarget(up, links), basename(path));
}

function linkOf(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** The folders a relative path may be taken from: the call's working folder and the project's (an MCP server starts in the latter). */
function basesOf(input: PreToolUseInput, env: Record<string, string | undefined>): string[] {
  const cwd = resolve(input.cwd ?? process.cwd());
  return [...new Set([cwd, ...(env.CLAUDE_PROJECT_DIR ? [resolve(env.CLAUDE_PROJECT_DIR)] : [])])];
}

/** What of a plugin's folder Claude Code reads as configuration (not the whole folder: a plugin developed in the project is given as `--plugin-dir .`). */
const PLUGIN_PARTS = [
  ".claude-plugin",
  "hooks",
  "agents",
  "skills",
  "commands",
  "output-styles",
  ".mcp.json",
  ".lsp.json",
  "settings.json",
];

/** Where the gate's records and Claude Code's configuration are, for this call, as written (SPEC §6). */
function placesOf(input: PreToolUseInput, ref: ScopeRef, dataDir: string, env: Record<string, string | undefined>): GuardedPlaces {
  const home = env.HOME || homedir();
  const userConfig = env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : join(home, ".claude");
  const transcriptDir = dirname(resolve(input.transcript_path || ref.transcript));
  const found = { input, env, home, userConfig, bases: basesOf(input, env), plugins: pluginDirsOf(env.CLAUDE_PID) };
  return {
    dataDir: resolve(dataDir),
    transcriptDir,
    sessionDir: join(transcriptDir, input.session_id),
    config: [
      // Git runs what its config names (core.fsmonitor, core.hooksPath, filters) and its hooks, from any hook's `git status`.
      ...found.bases.flatMap((base) => [".claude", ".mcp.json", ".git/config", ".git/hooks"].map((part) => join(base, part))),
      userConfig,
      join(home, ".claude.json"),
      "/etc/claude-code",
      ...(env.CLAUDE_PLUGIN_ROOT ? [resolve(env.CLAUDE_PLUGIN_ROOT)] : []),
      join(home, ".gitconfig"),
      join(home, ".config", "git"),
      ...gitHooksPaths(found.bases, home),
      // A plugin given with --plugin-dir is configuration too: its manifest, hooks, agents, skills, commands, MCP servers.
      ...found.plugins.flatMap((dir) => PLUGIN_PARTS.map((part) => join(dir, part))),
    ],
    ...runsOf(scriptsHooksRun(found)),
  };
}

/**
 * The folders git's `core.hooksPath` names in the repository's config and the user's (red team 8: a hook's `git
 * commit` ran `.githooks/pre-commit`): relative ones from each base, where git runs hooks.
 */
function gitHooksPaths(bases: readonly string[], home: string): string[] {
  const configs = [...bases.map((base) => join(base, ".git", "config")), join(home, ".gitconfig"), join(home, ".config", "git", "config")];
  const values = configs.flatMap((file) =>
    [...(readSmallText(file) ?? "").matchAll(/^\s*hookspath\s*=\s*"?([^"\n]*?)"?\s*$/gim)].map((m) => m[1]!),
  );
  return values.flatMap((value) => {
    if (value === "") return [];
    if (value.startsWith("~/")) return [join(home, value.slice(2))];
    return value.startsWith("/") ? [value] : bases.map((base) => resolve(base, value));
  });
}

/** What one call's guarded places are computed from: its input, the home, the configuration folder, its bases, the --plugin-dir plugins. */
interface PlacesFound {
  input: PreToolUseInput;
  env: Record<string, string | undefined>;
  home: string;
  userConfig: string;
  bases: string[];
  plugins: string[];
}

/**
 * The files that the commands Claude Code runs by itself name: the command
 * hooks and status line of the settings in effect (the project's, its local
 * ones, the user's, the managed ones), the MCP servers it starts (the
 * project's `.mcp.json`, the user's `~/.claude.json`), and the hooks and MCP
 * servers of --plugin-dir plugins. A script kept outside `.claude/` that one
 * of them runs is configuration too (src/engine/hook-commands.ts,
 * src/engine/command-files.ts).
 */
function scriptsHooksRun({ input, env, home, userConfig, bases, plugins }: PlacesFound): Found[] {
  const projectDir = resolve(env.CLAUDE_PROJECT_DIR || input.cwd || process.cwd());
  const settings = [
    ...bases.flatMap((base) => [join(base, ".claude", "settings.json"), join(base, ".claude", "settings.local.json")]),
    join(userConfig, "settings.json"),
    "/etc/claude-code/managed-settings.json",
  ];
  const servers = [...bases.map((base) => join(base, ".mcp.json")), join(home, ".claude.json")];
  const places = { projectDir, home, ...(env.CLAUDE_PLUGIN_ROOT ? { pluginRoot: env.CLAUDE_PLUGIN_ROOT } : {}) };
  const pluginCommands = (root: string) => [
    ...hookCommands(settingsAt(join(root, "hooks", "hooks.json"))),
    ...mcpServerCommands(settingsAt(join(root, ".mcp.json"))),
  ];
  const read = (file: string, commands: (settings: unknown) => string[][], dir = projectDir) =>
    filesRun(file, JSON.stringify([file, dir, places]), () => commandFiles(commands(settingsAt(file)), places));
  // ~/.claude.json grows with use and may pass the bound (docs/limits.md); a settings file that does is refused where gated.
  const unread = settings.find(isOversized);
  return [
    ...(unread === undefined ? [] : [{ files: [], relative: [], unread }]),
    ...plugins.map((root) => commandFiles(pluginCommands(root), { ...places, pluginRoot: root })),
    ...settings.map((file) => read(file, hookCommands)),
    // ~/.claude.json keeps a project's own servers under its folder (what `claude mcp add` writes by default).
    ...servers.flatMap((file) => [projectDir, ...bases].map((dir) => read(file, (config) => mcpServerCommands(config, dir), dir))),
  ];
}

/** The files found, as GuardedPlaces takes them. */
function runsOf(found: readonly Found[]): { runs: string[]; runsAnywhere: string[]; unread?: string } {
  const unread = found.find((f) => f.unread !== undefined)?.unread;
  return {
    runs: found.flatMap((f) => f.files),
    runsAnywhere: [...new Set(found.flatMap((f) => f.relative))],
    ...(unread === undefined ? {} : { unread }),
  };
}

/** What one settings or MCP file's commands run; or the file too large to read. */
type Found = CommandFiles & { unread?: string };

/**
 * Settings files read, by path, kept while the file is the same (its inode,
 * size, and change time, which no one can set back): the warm server parses
 * `~/.claude.json` (up to 1 MiB) once, not at every gated call that names a path.
 */
const readSettings = new Map<string, { stamp: string; value: unknown }>();

/** What a file's commands run, kept while the file and the places it is read from are the same: 1 MiB of hooks takes about 0.3 s to read. */
const filesRunOf = new Map<string, { stamp: string | undefined; found: CommandFiles }>();

function filesRun(file: string, key: string, read: () => CommandFiles): CommandFiles {
  settingsAt(file);
  const stamp = readSettings.get(file)?.stamp;
  const known = filesRunOf.get(key);
  if (known !== undefined && known.stamp === stamp) return known.found;
  const found = read();
  filesRunOf.set(key, { stamp, found });
  return found;
}

/** A settings file's object, or undefined when it is missing, too large or no JSON. */
function settingsAt(file: string): unknown {
  let stamp: string;
  try {
    const stat = statSync(file);
    stamp = `${stat.ino}:${stat.size}:${stat.ctimeMs}:${stat.mtimeMs}`;
  } catch {
    readSettings.delete(file);
    return undefined;
  }
  const known = readSettings.get(file);
  if (known?.stamp === stamp) return known.value;
  const value = parsedSettings(file);
  readSettings.set(file, { stamp, value });
  return value;
}

function parsedSettings(file: string): unknown {
  const text = readSmallText(file);
  if (text === undefined) return undefined;
  try {
    // Claude Code reads a settings file that starts with a byte-order mark.
    return JSON.parse(text.replace(/^\ufeff/, "")) as unknown;
  } catch {
    return undefined;
  }
}

/** The same places through their links. */
function realPlaces(places: GuardedPlaces): GuardedPlaces {
  return {
    dataDir: realTarget(places.dataDir),
    transcriptDir: realTarget(places.transcriptDir),
    ...(places.sessionDir ? { sessionDir: realTarget(places.sessionDir) } : {}),
    config: (places.config ?? []).map((place) => realTarget(place)),
    runs: (places.runs ?? []).map((file) => realTarget(file)),
    ...(places.runsAnywhere ? { runsAnywhere: places.runsAnywhere } : {}),
  };
}

/**
 * Why this call may not go on where gated (SPEC §6), or undefined: a path its
 * input names (any string of it, for a tool not known to only read: MCP
 * tools and unknown tools included), taken from the working folder and from
 * the project's, as written and through any links, lies in or above the data
 * folder, the session's transcripts, or Claude Code's configuration; or its
 * input is too large to check. Called only in a gated scope: it reads the
 * file system.
 */
export function protectedTargetOf(
  input: PreToolUseInput,
  ref: ScopeRef,
  dataDir: string,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  const named = namedPaths(input.tool_name, input.tool_input);
  if (!named.ok) return named.problem;
  if (named.paths.length === 0) return undefined;
  const lexical = placesOf(input, ref, dataDir, env);
  const real = realPlaces(lexical);
  const home = env.HOME || homedir();
  const bases = basesOf(input, env);
  const unread = lexical.unread;
  if (unread !== undefined)
    return `a settings file is too large to read (${unread}, over ${MAX_FILE_BYTES} bytes): the commands it makes Claude Code run cannot be checked, so no call naming a path goes on where gated`;
  const prompt = (DELEGATE_TOOLS as readonly string[]).includes(input.tool_name);
  for (const path of named.paths) {
    for (const base of bases) {
      const absolute = absolutePath(path.value, base, home);
      if (absolute === undefined || (prompt && holdsBase(absolute, bases))) continue;
      const reason = reasonFor(absolute, lexical, real);
      if (reason) return namedTargetReason(path, absolute, reason);
    }
  }
  return undefined;
}

/** A subagent's prompt names the project to work in ("summarise <project>"): in a prompt, that folder and the ones above it are words, not targets. */
function holdsBase(absolute: string, bases: readonly string[]): boolean {
  const folder = absolute.replace(/\/+$/, "");
  return bases.some((base) => base === folder || base.startsWith(`${folder}/`));
}

/** As written, then through links (a path longer than PATH_MAX cannot be opened: as written only). */
function reasonFor(absolute: string, lexical: GuardedPlaces, real: GuardedPlaces): string | undefined {
  return guardedReason(absolute, lexical) ?? (absolute.length <= PATH_MAX ? guardedReason(realTarget(absolute), real) : undefined);
}
