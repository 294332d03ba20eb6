import { renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { SessionState } from "../engine/session/state.js";
import { acquire, DEFAULT_LOCK, release, type LockOptions, type LockSeams } from "./lock-file.js";
import { ensureRealFolder, PRIVATE_FILE, sessionStatePath } from "./paths.js";
import { currentIdentity, parseState, readRegularFile, StateUnreadableError, type FileRead } from "./state-file.js";

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

/**
 * Points where a test can step in (none in the product): after seeing a stale
 * lock and before taking it over, which is the race takeOver() closes; and
 * while holding the lock, the state read and changed but not yet written,
 * where a test can kill a hook between its writes.
 */
export interface StoreSeams extends LockSeams {
  held?(): void;
  /** The state file's bytes were read (not only its identity looked at). */
  fileRead?(): void;
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
