/**
 * The state store in memory, for unit tests of the hook handlers (the file
 * store is what the product uses; test/state/store-contract.test.ts holds
 * both to one contract). A copy on every read and write, as a file would.
 */
import type { SessionState } from "../../src/engine/session/state.js";
import type { StateStore, Transaction } from "../../src/state/store.js";

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
