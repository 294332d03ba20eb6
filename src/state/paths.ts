import { chmodSync, lstatSync, mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Ids that may become part of a file name: letters, digits, dot, dash, underscore; no `..`; not `__proto__` (ids are keys of the state's maps too). */
const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * The modes of what the plugin writes: its records hold the model's
 * rationale, as private as Claude Code's own transcripts (0600). A folder it
 * made, or one it writes in that others could read, is made the user's alone.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_FOLDER = 0o700;

export class UnsafeIdError extends Error {
  override readonly name = "UnsafeIdError";
}

/** Whether an id may name a file (see safeId), without throwing. */
export function isSafeId(value: string): boolean {
  return SAFE_ID.test(value) && !value.includes("..") && value !== "__proto__";
}

/** Checks an id before it names a file: nothing may be written outside the data folder (SPEC §10). */
export function safeId(kind: string, value: string): string {
  if (!isSafeId(value)) {
    const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}…` : value);
    throw new UnsafeIdError(`${kind} ${shown} is not a safe id (expected 1-128 letters, digits, '.', '-' or '_', no '..')`);
  }
  return value;
}

/**
 * The plugin's data folder: Claude Code's CLAUDE_PLUGIN_DATA whenever it is
 * set, else UTILITY_DATA_DIR (the CLI, tests and tools that run the hooks
 * without Claude Code), else a folder under ~/.claude. A repository's
 * `.claude/settings.json` `env` reaches the hooks and the hook server, so it
 * can set UTILITY_DATA_DIR, but never CLAUDE_PLUGIN_DATA: Claude Code sets
 * that itself for its plugins (docs/claude-code-facts.md, "A project's env
 * and the plugin"). The data folder is not the repository's to move.
 */
export function dataDir(env: Record<string, string | undefined>): string {
  const claude = env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude");
  return env.CLAUDE_PLUGIN_DATA || env.UTILITY_DATA_DIR || join(claude, "plugins", "data", "utility");
}

export function sessionLogPath(dir: string, sessionId: string): string {
  return join(dir, "sessions", `${safeId("session id", sessionId)}.jsonl`);
}

export function sessionStatePath(dir: string, sessionId: string): string {
  return join(dir, "state", `${safeId("session id", sessionId)}.json`);
}

/** The log of hook input that could not be tied to a session. */
export function errorLogPath(dir: string): string {
  return join(dir, "errors.jsonl");
}

export class PlantedLinkError extends Error {
  override readonly name = "PlantedLinkError";
}

/**
 * Makes the folder (and its parents) if missing, 0700, and refuses it when
 * it is a symbolic link: a link planted for `state/` or `sessions/` would
 * send the plugin's writes out of the data folder (SPEC §10). One others
 * could read is made 0700 (SPEC §8).
 */
export function ensureRealFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER });
  const stats = lstatSync(folder);
  if (stats.isSymbolicLink())
    throw new PlantedLinkError(`${folder} is a symbolic link; the plugin writes only inside its data folder, never through a link`);
  if ((stats.mode & 0o077) !== 0) chmodSync(folder, PRIVATE_FOLDER);
}

/**
 * Makes the data folder the user's alone (Claude Code makes it with the
 * umask's mode, often 0755), once per process, where the session starts.
 * Never fails: a folder that cannot be changed is written in all the same,
 * each file still 0600.
 */
export function tightenDataFolder(dir: string): void {
  try {
    const stats = statSync(dir);
    if (stats.isDirectory() && (stats.mode & 0o077) !== 0) chmodSync(dir, PRIVATE_FOLDER);
  } catch {
    // not there yet: whatever makes it makes it 0700
  }
}
