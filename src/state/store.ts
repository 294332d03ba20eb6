import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  statSync,
} from "node:fs";
import { dirname } from "node:path";
import { SessionStateSchema, type SessionState } from "../engine/session/state.js";
import { ensureRealFolder, sessionStatePath } from "./paths.js";

/** The state could not be read: corrupt, of the wrong shape, or not a file. Gated scopes fail closed on it. */
export class StateUnreadableError extends Error {
  override readonly name = "StateUnreadableError";
}

export interface Transaction<T> {
  state: SessionState;
  result: T;
  /**
   * Where the state may be written after the hook has answered (the warm
   * server's queue, run once the answer is sent): the lock stays held until
   * it is written, so no other hook reads the state before it. Absent: the
   * state is written before `transact` returns.
   */
  later?: Later;
}

/** Takes work that may wait until the hook's answer is sent, and runs it before the next call is answered. */
export type Later = (work: () => void) => void;

/** Read-modify-write of one session's state, atomic with respect to other hooks of the same session. */
export interface StateStore {
  read(sessionId: string): SessionState | undefined;
  transact<T>(sessionId: string, change: (state: SessionState | undefined) => Transaction<T> | Promise<Transaction<T>>): Promise<T>;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface LockOptions {
  timeoutMs: number;
  /** A lock older than this is stale even if its pid looks alive (pid reuse). */
  staleMs: number;
}

export const DEFAULT_LOCK: LockOptions = { timeoutMs: 4000, staleMs: 15000 };

/**
 * Points where a test can step in (none in the product): after seeing a stale
 * lock and before taking it over, which is the race takeOver() closes; and
 * while holding the lock, the state read and changed but not yet written,
 * where a test can kill a hook between its writes.
 */
export interface StoreSeams {
  staleSeen?(): void;
  held?(): void;
}

/**
 * A lock file created with O_EXCL holding the owner's pid, the time and a
 * token; a dead owner's lock is taken over. Returns the token, for release.
 */
function acquire(lock: string, options: LockOptions, seams: StoreSeams): string {
  const deadline = Date.now() + options.timeoutMs;
  const token = `${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, "wx");
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
    closeSync(openSync(guard, "wx"));
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
function release(lock: string, token: string): void {
  try {
    if (readFileSync(lock, "utf8") === token) unlinkSync(lock);
  } catch {
    // taken over and released already
  }
}

/** The store's own I/O failed (the data folder cannot be written, the lock cannot be made): the state cannot be kept. */
function storeIo<T>(file: string, io: () => T): T {
  try {
    return io();
  } catch (error) {
    if (error instanceof StateUnreadableError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new StateUnreadableError(
      `cannot keep the state file ${file}: ${code ?? (error instanceof Error ? error.message : String(error))}`,
    );
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

/** A regular file's text. Opened non-blocking: a FIFO in its place would otherwise block the read forever. */
function readRegularFile(file: string): string {
  // O_NOFOLLOW: a link in the state file's place is not followed (ELOOP: unreadable, so a gated scope fails closed).
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    if (!fstatSync(fd).isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: "ENOTREG" });
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Session state in one JSON file per session, replaced by rename so no reader ever sees a torn file. */
export class FileStateStore implements StateStore {
  constructor(
    private readonly dir: string,
    private readonly lockOptions: LockOptions = DEFAULT_LOCK,
    private readonly seams: StoreSeams = {},
  ) {}

  /** The last state file this store validated: its bytes, and the schema's output (read-only to every caller: the machine changes copies). */
  private validated: { file: string; text: string; state: SessionState } | undefined;

  /** A state handed to `Transaction.later` and not written yet: written before this store reads or changes anything. */
  private unwritten: (() => void) | undefined;

  path(sessionId: string): string {
    return sessionStatePath(this.dir, sessionId);
  }

  read(sessionId: string): SessionState | undefined {
    this.unwritten?.();
    const file = this.path(sessionId);
    let text: string;
    try {
      text = readRegularFile(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return undefined;
      throw new StateUnreadableError(`cannot read the state file ${file}: ${code ?? String(error)}`);
    }
    // A hook reads its state twice (before the lock, to know whether to wait for the transcript, then under it):
    // the same bytes need not be validated again (SPEC §11).
    if (this.validated?.file === file && this.validated.text === text) return this.validated.state;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new StateUnreadableError(`the state file ${file} is not valid JSON`);
    }
    const parsed = SessionStateSchema.safeParse(data);
    if (!parsed.success)
      throw new StateUnreadableError(
        `the state file ${file} has the wrong shape at ${parsed.error.issues[0]?.path.join(".") || "its root"}`,
      );
    this.validated = { file, text, state: parsed.data };
    return parsed.data;
  }

  async transact<T>(sessionId: string, change: (state: SessionState | undefined) => Transaction<T> | Promise<Transaction<T>>): Promise<T> {
    this.unwritten?.();
    const file = this.path(sessionId);
    const lock = `${file}.lock`;
    const token = storeIo(file, () => {
      ensureRealFolder(dirname(file));
      return acquire(lock, this.lockOptions, this.seams);
    });
    let handedOn = false;
    try {
      const { state, result, later } = await change(this.read(sessionId));
      this.seams.held?.();
      const write = () => {
        try {
          this.write(file, state);
        } finally {
          release(lock, token);
        }
      };
      if (!later) {
        this.write(file, state);
        return result;
      }
      const once = () => {
        if (this.unwritten !== once) return;
        this.unwritten = undefined;
        write();
      };
      this.unwritten = once;
      try {
        later(once);
      } catch (error) {
        this.unwritten = undefined;
        throw error;
      }
      handedOn = true;
      return result;
    } finally {
      if (!handedOn) release(lock, token);
    }
  }

  /**
   * Replaces the state file by rename, under the lock. What this store just
   * wrote needs no second validation while the file still holds those bytes:
   * a long-lived store (the warm server's) re-validates only when another
   * writer changed the file under it.
   */
  private write(file: string, state: SessionState): void {
    const temp = `${file}.${process.pid}.tmp`;
    const text = JSON.stringify(state);
    storeIo(file, () => {
      try {
        // A link planted in the temporary file's place is removed, never written through ("wx": created new, or fails).
        rmSync(temp, { force: true });
        writeFileSync(temp, text, { flag: "wx" });
        renameSync(temp, file);
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
    });
    this.validated = { file, text, state };
  }
}
