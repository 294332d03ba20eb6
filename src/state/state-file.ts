// The state file as the store reads it: a regular file's text, which file it
// was, and the state it holds, checked; StateUnreadableError when it cannot be.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type BigIntStats } from "node:fs";
import { SessionStateSchema, type SessionState } from "../engine/session/state.js";

/** The state could not be read: corrupt, of the wrong shape, or not a file. Gated scopes fail closed on it. */
export class StateUnreadableError extends Error {
  override readonly name = "StateUnreadableError";
}

/** A state file's text, and which file held it (`identityOf`). */
export interface FileRead {
  text: string;
  identity: string;
}

/** A regular file's text, and which file it was. Opened non-blocking: a FIFO in its place would otherwise block the read forever. */
export function readRegularFile(file: string): FileRead {
  // O_NOFOLLOW: a link in the state file's place is not followed (ELOOP: unreadable, so a gated scope fails closed).
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (!stats.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: "ENOTREG" });
    return { text: readFileSync(fd, "utf8"), identity: identityOf(stats) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Which file a path names, and when it last changed: device, inode, size,
 * and the change and modification times to the nanosecond. Every write (the
 * store's, another hook's, a shell's) replaces the file or changes its ctime,
 * which no process can set back; so one `lstat` tells whether the file is
 * still the one this store read or wrote last. A change it could miss would
 * need a rewrite in place within the clock tick of the store's own write, or
 * a freed inode reused at the same size within that tick; the store would
 * then keep the state it last read or wrote, checked, never an unchecked one.
 */
function identityOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.ctimeNs}:${stats.mtimeNs}`;
}

export function currentIdentity(file: string): string | undefined {
  const stats = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  return stats?.isFile() ? identityOf(stats) : undefined;
}

/** The state a file's text holds, checked against its schema; StateUnreadableError names what is wrong. */
export function parseState(file: string, text: string): SessionState {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new StateUnreadableError(`the state file ${file} is not valid JSON`);
  }
  const parsed = SessionStateSchema.safeParse(data);
  if (!parsed.success)
    throw new StateUnreadableError(`the state file ${file} has the wrong shape at ${parsed.error.issues[0]?.path.join(".") || "its root"}`);
  return parsed.data;
}
