// The gate's own records and Claude Code's configuration are not the model's
// to change under the gate (SPEC §6). Pure: paths in, a reason out.
import type { NamedPath } from "./named-paths.js";
import { normalizePath } from "./redundancy.js";

export interface GuardedPlaces {
  /** The plugin's data folder (state, step logs). */
  dataDir: string;
  /** The folder of the session's transcripts (its subagents' files are under it). */
  transcriptDir: string;
  /** The session's own folder in it (its subagents' transcripts, its tool results). */
  sessionDir?: string;
  /**
   * Claude Code's configuration besides any `.claude` folder, `.mcp.json` and
   * `.claude.json` (which are guarded by name wherever they are): the
   * project's and the user's configuration folders and files, the
   * CLAUDE_CONFIG_DIR, the plugin's own folder. A path above one of them
   * (the project's folder, the home folder) holds it: moving or deleting it
   * takes the configuration with it.
   */
  config?: readonly string[];
  /** Files a command Claude Code runs by itself names (a hook, a status line, a helper, an MCP server): ./command-files.ts. */
  runs?: readonly string[];
  /** The same, named relative to the folder a hook starts in (wherever the session's shell went): any path ending so. */
  runsAnywhere?: readonly string[];
  /** A settings file too large to read: the commands it holds cannot be checked, so where gated no call naming a path goes on. */
  unread?: string;
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

/**
 * Why naming `path` (absolute, already resolved) is refused, or undefined:
 * it lies inside the plugin's data folder, it is a transcript (a `.jsonl`
 * file in the session's transcript folder or below), it is in the session's
 * own folder, or it holds one of them (moving or deleting it would take them).
 */
export function protectedReason(path: string, places: GuardedPlaces): string | undefined {
  const target = normalizePath(path);
  if (target === null) return undefined;
  return dataReason(path, target, places) ?? transcriptReason(path, target, places);
}

/** In the data folder, or above it (moving or deleting that takes the folder with it). */
function dataReason(path: string, target: string, places: GuardedPlaces): string | undefined {
  const data = normalizePath(places.dataDir);
  if (data === null) return undefined;
  if (within(target, data))
    return `${path} is inside the plugin's data folder (${places.dataDir}), where the gate keeps its state and step log`;
  return within(data, target) ? `${path} holds the plugin's data folder (${places.dataDir})` : undefined;
}

/** A transcript, the session's own folder, or above the transcripts' folder. */
function transcriptReason(path: string, target: string, places: GuardedPlaces): string | undefined {
  const transcripts = normalizePath(places.transcriptDir);
  const session = places.sessionDir === undefined ? null : normalizePath(places.sessionDir);
  if (transcripts !== null && within(target, transcripts) && target.endsWith(".jsonl"))
    return `${path} is a transcript file, which the gate reads as the record of what was said`;
  if (transcripts !== null && within(transcripts, target)) return `${path} holds the session's transcripts (${places.transcriptDir})`;
  if (session !== null && (within(target, session) || within(session, target)))
    return `${path} holds the session's subagent transcripts (${places.sessionDir})`;
  return undefined;
}

/** Folders of a `.claude` folder that hold no configuration: transcripts and memory (guarded as transcripts), plans, worktrees, agents' memory. */
const NOT_CONFIG = new Set(["projects", "plans", "worktrees", "agent-memory", "agent-memory-local"]);

/** The first `.claude` folder on a path (in any case: a case-insensitive file system, macOS's, finds it so) whose part below it is configuration. */
function claudeFolderOn(segments: readonly string[]): number | undefined {
  for (let i = 0; i < segments.length; i += 1) {
    if (segments[i]!.toLowerCase() === ".claude" && (i === segments.length - 1 || !NOT_CONFIG.has(segments[i + 1]!))) return i;
  }
  return undefined;
}

const CONFIG_WHAT =
  "Claude Code's configuration, which decides what it runs (settings such as disableAllHooks, hooks, skills, agents, commands, plugins, MCP servers)";

/**
 * Why `path` (absolute) is Claude Code's configuration, or undefined: it is
 * in a `.claude` folder (not its transcripts, plans, worktrees or memory), it
 * is a `.mcp.json` or a `.claude.json`, it is in or above one of the places
 * `config` names.
 */
export function configReason(path: string, config: readonly string[] = []): string | undefined {
  const target = normalizePath(path);
  if (target === null) return undefined;
  if (isConfigByName(target)) return `${path} is ${CONFIG_WHAT}`;
  if (isInGit(target)) return `${path} is git's configuration (a .git folder): a hook's git command runs what its config and hooks name`;
  for (const place of config) {
    const guarded = normalizePath(place);
    if (guarded === null) continue;
    if (within(target, guarded) && !NOT_CONFIG.has(target.slice(guarded.length).split("/").filter(Boolean)[0] ?? ""))
      return `${path} is in ${place}, ${CONFIG_WHAT}`;
    if (within(guarded, target)) return `${path} holds ${place}, ${CONFIG_WHAT}`;
  }
  return undefined;
}

/** In a `.claude` folder that holds configuration, or a `.mcp.json` or `.claude.json` wherever it is. */
function isConfigByName(target: string): boolean {
  const segments = target.split("/").filter(Boolean);
  const name = segments.at(-1)?.toLowerCase();
  return claudeFolderOn(segments) !== undefined || name === ".mcp.json" || name === ".claude.json";
}

/** A `.git` folder or what is in it, anywhere: git runs what its config, hooks and `commondir` name, in any repository a hook's `git` starts in. */
const isInGit = (target: string) => target.split("/").some((segment) => segment.toLowerCase() === ".git");

/** Why `path` (absolute) may not be named by a call that is not known to only read, where gated: the gate's records first, then the configuration. */
export function guardedReason(path: string, places: GuardedPlaces): string | undefined {
  return protectedReason(path, places) ?? configReason(path, places.config) ?? runReason(path, places.runs, places.runsAnywhere);
}

const RUN_WHAT =
  "a command Claude Code runs by itself (a hook, a status line, a helper or an MCP server in its settings) runs it: writing it changes what Claude Code runs, outside the gate";

/** Why `path` (absolute) is, is in or holds a file Claude Code's own commands run, or ends as one named relative to a hook's folder does; or undefined. */
export function runReason(path: string, runs: readonly string[] = [], anywhere: readonly string[] = []): string | undefined {
  const target = normalizePath(path);
  if (target === null) return undefined;
  for (const file of runs) {
    if (within(target, file)) return target === file ? `${path}: ${RUN_WHAT}` : `${path} is in ${file}: ${RUN_WHAT}`;
    // `node -r ./tools/hook` loads tools/hook.js: a name without an extension is that file with any.
    if (withExtension(target, file)) return `${path} is ${file} with an extension: ${RUN_WHAT}`;
    if (within(file, target)) return `${path} holds ${file}: ${RUN_WHAT}`;
  }
  const relative = anywhere.find((rel) => target.endsWith(`/${rel}`) || target.includes(`/${rel}/`));
  if (relative !== undefined)
    return `${path} ends in ${relative}, which a hook started in another folder (after a \`cd\`) would run: ${RUN_WHAT}`;
  return undefined;
}

function withExtension(target: string, file: string): boolean {
  const rest = target.startsWith(`${file}.`) ? target.slice(file.length + 1) : undefined;
  return rest !== undefined && rest !== "" && !rest.includes("/") && !file.slice(file.lastIndexOf("/") + 1).includes(".");
}

/** The refusal's words for one field of the input: the field, what it says when that is not the path itself, and why. */
export function namedTargetReason(named: NamedPath, absolute: string, reason: string): string {
  const shown = named.value.length > 200 ? `${named.value.slice(0, 200)}…` : named.value;
  return `its field \`${named.field}\`${absolute === named.value ? "" : ` (${JSON.stringify(shown)})`}: ${reason}`;
}
