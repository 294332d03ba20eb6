// The state file's lock: a file created with O_EXCL beside it, taken over
// when its owner is dead or holds it too long (./store.ts takes it around
// every read-modify-write).
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { PRIVATE_FILE } from "./paths.js";
import { processAlive } from "./process-alive.js";
import { StateUnreadableError } from "./state-file.js";

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

export interface LockOptions {
  timeoutMs: number;
  /** A lock older than this is stale even if its pid looks alive (pid reuse). */
  staleMs: number;
}

export const DEFAULT_LOCK: LockOptions = { timeoutMs: 4000, staleMs: 15000 };

/** Where a test can step in on the lock (see StoreSeams in ./store.ts). */
export interface LockSeams {
  staleSeen?(): void;
}

/**
 * A lock file created with O_EXCL holding the owner's pid, the time and a
 * token; a dead owner's lock is taken over. Returns the token, for release.
 */
export function acquire(lock: string, options: LockOptions, seams: LockSeams): string {
  const deadline = Date.now() + options.timeoutMs;
  const token = `${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, "wx", PRIVATE_FILE);
      try {
        writeSync(fd, token);
      } finally {
        closeSync(fd);
      }
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (isStale(lock, options.staleMs)) {
      seams.staleSeen?.();
      takeOver(lock, options.staleMs);
      continue;
    }
    if (Date.now() > deadline)
      throw new StateUnreadableError(`the state lock ${lock} is held by a live process for more than ${options.timeoutMs} ms`);
    sleep(Math.min(20, 1 + attempt) + Math.random() * 2);
  }
}

/**
 * Removes a stale lock under a second, short-lived lock. Two hooks that both
 * saw the same stale lock must not both remove "it": the slower one would
 * remove the lock the faster one has just created, and both would go on
 * (a lost step). Under the guard the lock is checked again before removal.
 */
function takeOver(lock: string, staleMs: number): void {
  const guard = `${lock}.takeover`;
  try {
    closeSync(openSync(guard, "wx", PRIVATE_FILE));
  } catch {
    // Another hook is taking it over. A guard left by a hook killed in these few microseconds expires after a second.
    try {
      if (Date.now() - statSync(guard).mtimeMs > 1000) unlinkSync(guard);
    } catch {
      // gone already
    }
    sleep(1);
    return;
  }
  try {
    if (isStale(lock, staleMs)) unlinkSync(lock);
  } catch {
    // gone already
  } finally {
    try {
      unlinkSync(guard);
    } catch {
      // cannot happen but by hand
    }
  }
}

/** Removes the lock only if it is still ours: one taken over as stale (held too long) now belongs to another hook. */
export function release(lock: string, token: string): void {
  try {
    if (readFileSync(lock, "utf8") === token) unlinkSync(lock);
  } catch {
    // taken over and released already
  }
}

function isStale(lock: string, staleMs: number): boolean {
  try {
    const [pid, since] = readFileSync(lock, "utf8").split(" ").map(Number);
    if (!pid || !since) return Date.now() - statSync(lock).mtimeMs > 1000; // being written, or torn by a kill
    return !processAlive(pid) || Date.now() - since > staleMs;
  } catch {
    return false; // gone already: the next open will tell
  }
}
