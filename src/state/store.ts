import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { SessionStateSchema, type SessionState } from "./schema.js";
import { sessionStatePath } from "./paths.js";

/** The state could not be read: corrupt, of the wrong shape, or not a file. Gated scopes fail closed on it. */
export class StateUnreadableError extends Error {
  override readonly name = "StateUnreadableError";
}

export interface Transaction<T> {
  state: SessionState;
  result: T;
}

/** Read-modify-write of one session's state, atomic with respect to other hooks of the same session. */
export interface StateStore {
  read(sessionId: string): SessionState | undefined;
  transact<T>(sessionId: string, change: (state: SessionState | undefined) => Transaction<T> | Promise<Transaction<T>>): Promise<T>;
}

/** For unit tests of the hook logic; the file store is tested on its own. */
export class MemoryStateStore implements StateStore {
  readonly states = new Map<string, SessionState>();
  read(sessionId: string): SessionState | undefined {
    const s = this.states.get(sessionId);
    return s && structuredClone(s);
  }
  async transact<T>(sessionId: string, change: (state: SessionState | undefined) => Transaction<T> | Promise<Transaction<T>>): Promise<T> {
    const { state, result } = await change(this.read(sessionId));
    this.states.set(sessionId, structuredClone(state));
    return result;
  }
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

const DEFAULT_LOCK: LockOptions = { timeoutMs: 4000, staleMs: 15000 };

/** A lock file created with O_EXCL holding the owner's pid; a dead owner's lock is taken over. */
function acquire(lock: string, options: LockOptions): void {
  const deadline = Date.now() + options.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, `${process.pid} ${Date.now()}`);
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (isStale(lock, options.staleMs)) {
      try {
        unlinkSync(lock);
      } catch {
        // another hook took it over first
      }
      continue;
    }
    if (Date.now() > deadline) throw new StateUnreadableError(`the state lock ${lock} is held by a live process for more than ${options.timeoutMs} ms`);
    sleep(Math.min(20, 1 + attempt) + Math.random() * 2);
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

/** Session state in one JSON file per session, replaced by rename so no reader ever sees a torn file. */
export class FileStateStore implements StateStore {
  constructor(
    private readonly dir: string,
    private readonly lockOptions: LockOptions = DEFAULT_LOCK,
  ) {}

  path(sessionId: string): string {
    return sessionStatePath(this.dir, sessionId);
  }

  read(sessionId: string): SessionState | undefined {
    const file = this.path(sessionId);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return undefined;
      throw new StateUnreadableError(`cannot read the state file ${file}: ${code ?? String(error)}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new StateUnreadableError(`the state file ${file} is not valid JSON`);
    }
    const parsed = SessionStateSchema.safeParse(data);
    if (!parsed.success) throw new StateUnreadableError(`the state file ${file} has the wrong shape at ${parsed.error.issues[0]?.path.join(".") || "its root"}`);
    return parsed.data;
  }

  async transact<T>(sessionId: string, change: (state: SessionState | undefined) => Transaction<T> | Promise<Transaction<T>>): Promise<T> {
    const file = this.path(sessionId);
    mkdirSync(dirname(file), { recursive: true });
    const lock = `${file}.lock`;
    acquire(lock, this.lockOptions);
    try {
      const { state, result } = await change(this.read(sessionId));
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(state));
      renameSync(temp, file);
      return result;
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // taken over as stale: nothing to release
      }
    }
  }

  /** Moves an unreadable state file aside so the session can start over; returns where it went. */
  quarantine(sessionId: string): string | undefined {
    const file = this.path(sessionId);
    const aside = `${file}.unreadable-${Date.now()}`;
    try {
      renameSync(file, aside);
      return aside;
    } catch {
      return undefined;
    }
  }
}
