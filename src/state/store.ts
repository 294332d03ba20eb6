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
  lstatSync,
  type BigIntStats,
} from "node:fs";
import { dirname } from "node:path";
import { SessionStateSchema, type SessionState } from "../engine/session/state.js";
import { ensureRealFolder, PRIVATE_FILE, sessionStatePath } from "./paths.js";
import { processAlive } from "./process-alive.js";

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
  /** The state file's bytes were read (not only its identity looked at). */
  fileRead?(): void;
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

/** A state file's text, and which file held it (`identityOf`). */
interface FileRead {
  text: string;
  identity: string;
}

/** A regular file's text, and which file it was. Opened non-blocking: a FIFO in its place would otherwise block the read forever. */
function readRegularFile(file: string): FileRead {
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

function currentIdentity(file: string): string | undefined {
  const stats = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  return stats?.isFile() ? identityOf(stats) : undefined;
}

/** The state a file's text holds, checked against its schema; StateUnreadableError names what is wrong. */
function parseState(file: string, text: string): SessionState {
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

/** Session state in one JSON file per session, replaced by rename so no reader ever sees a torn file. */
export class FileStateStore implements StateStore {
  constructor(
    private readonly dir: string,
    private readonly lockOptions: LockOptions = DEFAULT_LOCK,
    private readonly seams: StoreSeams = {},
  ) {}

  /**
   * The last state file this store validated: its bytes, which file held them
   * (`identityOf`), and the schema's output (read-only to every caller: the
   * machine changes copies).
   */
  private validated: { file: string; text: string; identity: string | undefined; state: SessionState } | undefined;

  /** A state handed to `Transaction.later` and not written yet: written before this store reads or changes anything. */
  private unwritten: (() => void) | undefined;

  /**
   * A transaction is between taking the lock and handing its state on. A
   * second one started meanwhile in the same process would wait out a lock
   * its own process holds (blocking the first, which cannot go on, until the
   * lock's timeout): it is refused at once instead. The warm server answers
   * calls one by one, so this never happens there.
   */
  private busy = false;

  path(sessionId: string): string {
    return sessionStatePath(this.dir, sessionId);
  }

  read(sessionId: string): SessionState | undefined {
    this.unwritten?.();
    const file = this.path(sessionId);
    // The warm server reads its state twice a call (before the lock, to know whether to wait for the transcript,
    // then under it): the file it wrote or read last, unchanged, is neither read nor validated again (SPEC §11).
    if (this.validated?.file === file && this.validated.identity !== undefined && currentIdentity(file) === this.validated.identity)
      return this.validated.state;
    const read = this.readFile(file);
    if (!read) return undefined;
    const { text, identity } = read;
    if (this.validated?.file === file && this.validated.text === text) {
      this.validated = { ...this.validated, identity };
      return this.validated.state;
    }
    const state = parseState(file, text);
    this.validated = { file, text, identity, state };
    return state;
  }

  /** The state file's text and identity; undefined when there is none. */
  private readFile(file: string): FileRead | undefined {
    try {
      const read = readRegularFile(file);
      this.seams.fileRead?.();
      return read;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return undefined;
      throw new StateUnreadableError(`cannot read the state file ${file}: ${code ?? String(error)}`);
    }
  }

  async transact<T>(sessionId: string, change: (state: SessionState | undefined) => Transaction<T> | Promise<Transaction<T>>): Promise<T> {
    if (this.busy) throw new StateUnreadableError("this store is in a transaction already: one at a time per process");
    this.unwritten?.();
    const file = this.path(sessionId);
    const lock = `${file}.lock`;
    const token = storeIo(file, () => {
      ensureRealFolder(dirname(file));
      return acquire(lock, this.lockOptions, this.seams);
    });
    let handedOn = false;
    this.busy = true;
    try {
      const { state, result, later } = await change(this.read(sessionId));
      this.seams.held?.();
      const writeAndRelease = () => {
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
        writeAndRelease();
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
      this.busy = false;
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
        writeFileSync(temp, text, { flag: "wx", mode: PRIVATE_FILE });
        renameSync(temp, file);
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
    });
    this.validated = { file, text, identity: currentIdentity(file), state };
  }
}
