/**
 * Reading the files Claude Code would load, without ever blocking or running
 * away: only regular files (a FIFO in a skill's place would hang the hook),
 * only up to the size Claude Code itself loads, folders walked to a bounded
 * depth and count, each folder once (a link loop ends).
 */
import { opendirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Claude Code skips skill, command and agent files larger than this (1 MiB). */
export const MAX_FILE_BYTES = 1_048_576;
const MAX_DEPTH = 16;
/** Entries a walk of one folder tree looks at, at most. */
export const MAX_ENTRIES = 4096;

/** The text of a regular file of at most MAX_FILE_BYTES; undefined for anything else. */
export function readSmallText(path: string): string | undefined {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Whether a path is a regular file too large to read: Claude Code may load what this reader cannot. */
export function isOversized(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && stat.size > MAX_FILE_BYTES;
  } catch {
    return false;
  }
}

export interface FoundFile {
  path: string;
  /** The folders between the root and the file. */
  folders: string[];
}

interface Walk {
  seen: Set<string>;
  count: number;
  /** Set when the walk stopped short (too many entries, too deep). */
  truncated: boolean;
  /** List each folder in the file system's own order (as Claude Code lists agents), not sorted. */
  osOrder?: boolean;
}

/** A folder's entries: sorted, or in the order the file system gives them (readdirSync sorts them). */
function entriesOf(dir: string, osOrder: boolean): string[] {
  if (!osOrder) return readdirSync(dir).sort();
  const names: string[] = [];
  const open = opendirSync(dir);
  try {
    for (let entry = open.readSync(); entry !== null; entry = open.readSync()) names.push(entry.name);
  } finally {
    open.closeSync();
  }
  return names;
}

function folderKey(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function walk(dir: string, folders: string[], state: Walk, visit: (entry: string, folders: string[]) => void): void {
  const key = folderKey(dir);
  if (key === undefined || state.seen.has(key)) return;
  if (folders.length > MAX_DEPTH) {
    state.truncated = true;
    return;
  }
  state.seen.add(key);
  let entries: string[];
  try {
    entries = entriesOf(dir, state.osOrder === true);
  } catch {
    return;
  }
  for (const name of entries) {
    if (++state.count > MAX_ENTRIES) {
      state.truncated = true;
      return;
    }
    const path = join(dir, name);
    visit(path, folders);
    if (folderKey(path) !== undefined) walk(path, [...folders, name], state, visit);
  }
}

/**
 * Every `.md` file below `root` (links followed, each folder once), with the
 * folders on its way. `onTruncated` is called when the walk stopped short of
 * the whole tree: a caller that must see every file then knows it did not.
 * `osOrder` lists them as the file system orders each folder, depth first,
 * a folder's files where the folder comes (Claude Code's own walk of
 * `agents/`), rather than sorted.
 */
export function markdownFilesUnder(root: string, onTruncated?: () => void, osOrder = false): FoundFile[] {
  const found: FoundFile[] = [];
  const state: Walk = { seen: new Set(), count: 0, truncated: false, osOrder };
  walk(root, [], state, (path, folders) => {
    if (path.endsWith(".md") && folderKey(path) === undefined) found.push({ path, folders });
  });
  if (state.truncated) onTruncated?.();
  return found;
}
