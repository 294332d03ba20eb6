// Where Claude Code keeps the sessions a user already has:
// `<config>/projects/<project folder>/<session id>.jsonl`, each session's
// subagents under `<session id>/subagents/` (./files.ts). The file layer of
// `utility replay` with no transcript.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { configDir, type Env } from "../claude/places.js";
import { subagentFilesOf } from "./files.js";

/** `<config>/projects`: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function projectsDir(env: Env): string {
  return join(configDir(env), "projects");
}

/** Claude Code 2.1.328's folder name limit; a longer name is cut and given a hash of the whole path. */
const MAX_FOLDER_NAME = 200;

/** Java's String.hashCode, as Claude Code computes it for a long folder name. */
function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * The folder Claude Code keeps a working folder's sessions in, as 2.1.328
 * names it (read from the binary: every character but a letter or digit
 * becomes `-`; a name over 200 characters is cut to 200 and given `-` and
 * the base-36 hash of the whole path). `/home/me/my_app` → `-home-me-my-app`.
 */
export function projectFolderName(cwd: string): string {
  const name = cwd.replace(/[^a-zA-Z0-9]/g, "-");
  if (name.length <= MAX_FOLDER_NAME) return name;
  return `${name.slice(0, MAX_FOLDER_NAME)}-${Math.abs(stringHash(cwd)).toString(36)}`;
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The project folder holding a working folder's sessions, if it exists (a long name also by its cut prefix, as Claude Code looks it up). */
export function projectFolderOf(projects: string, cwd: string): string | undefined {
  const name = projectFolderName(cwd);
  if (isFolder(join(projects, name))) return join(projects, name);
  if (name.length <= MAX_FOLDER_NAME) return undefined;
  const prefix = `${name.slice(0, MAX_FOLDER_NAME)}-`;
  const found = listNames(projects).find((entry) => entry.startsWith(prefix) && isFolder(join(projects, entry)));
  return found === undefined ? undefined : join(projects, found);
}

/** Every project folder under `projects`, sorted by name. */
export function projectFolders(projects: string): string[] {
  return listNames(projects)
    .map((name) => join(projects, name))
    .filter(isFolder);
}

/** One session's files, ready to replay. */
export interface SessionFiles {
  sessionId: string;
  /** The project folder's name (under projects/). */
  project: string;
  /** The session file. */
  path: string;
  /** Its subagents' files (./files.ts subagentFilesOf). */
  subagents: string[];
  /** The files' bytes together. */
  bytes: number;
  /** The newest file's modification time (epoch ms). */
  modifiedMs: number;
}

function statOf(path: string): { size: number; mtimeMs: number } | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The sessions of one project folder (its `*.jsonl` files, each with its
 * subagents' files), oldest first. With `sinceMs`, a session none of whose
 * files was written since is left out unread (it cannot hold a later task).
 */
export function sessionsIn(folder: string, sinceMs?: number): SessionFiles[] {
  const sessions: SessionFiles[] = [];
  for (const name of listNames(folder)) {
    if (!name.endsWith(".jsonl")) continue;
    const path = join(folder, name);
    const own = statOf(path);
    if (!own) continue;
    const subagents = subagentFilesOf(path);
    let bytes = own.size;
    let modifiedMs = own.mtimeMs;
    for (const sub of subagents) {
      const stat = statOf(sub);
      if (!stat) continue;
      bytes += stat.size;
      modifiedMs = Math.max(modifiedMs, stat.mtimeMs);
    }
    if (sinceMs !== undefined && modifiedMs < sinceMs) continue;
    sessions.push({ sessionId: name.slice(0, -".jsonl".length), project: basename(folder), path, subagents, bytes, modifiedMs });
  }
  return sessions.sort((a, b) => a.modifiedMs - b.modifiedMs || (a.path < b.path ? -1 : 1));
}

/** Does the folder hold session files itself (a project folder), rather than project folders (a projects folder)? */
export function holdsSessions(folder: string): boolean {
  return listNames(folder).some((name) => name.endsWith(".jsonl"));
}

/**
 * The id under which the user installed the plugin (`utility@<marketplace>`),
 * from Claude Code's `plugins/installed_plugins.json`; the repository's own
 * marketplace name when none is found.
 */
export function installedPluginId(env: Env): string {
  try {
    const file = join(configDir(env), "plugins", "installed_plugins.json");
    const data = JSON.parse(readFileSync(file, "utf8")) as { plugins?: Record<string, unknown> };
    const found = Object.keys(data.plugins ?? {}).find((id) => id.startsWith("utility@"));
    if (found) return found;
  } catch {
    // not installed from a marketplace here, or unreadable
  }
  return DEFAULT_PLUGIN_ID;
}

/** The id the README's install gives (`/plugin install utility@utility-marketplace`). */
export const DEFAULT_PLUGIN_ID = "utility@utility-marketplace";
