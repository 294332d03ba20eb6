import { lstatSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Ids that may become part of a file name: letters, digits, dot, dash, underscore; no `..`; not `__proto__` (ids are keys of the state's maps too). */
const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

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

/** The plugin's data folder: UTILITY_DATA_DIR, else Claude Code's CLAUDE_PLUGIN_DATA, else a folder under ~/.claude. */
export function dataDir(env: Record<string, string | undefined>): string {
  return env.UTILITY_DATA_DIR || env.CLAUDE_PLUGIN_DATA || join(homedir(), ".claude", "plugins", "data", "utility");
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
 * Makes the folder (and its parents) if missing, and refuses it when it is a
 * symbolic link: a link planted for `state/` or `sessions/` would send the
 * plugin's writes out of the data folder (SPEC §10).
 */
export function ensureRealFolder(folder: string): void {
  mkdirSync(folder, { recursive: true });
  if (lstatSync(folder).isSymbolicLink())
    throw new PlantedLinkError(`${folder} is a symbolic link; the plugin writes only inside its data folder, never through a link`);
}
