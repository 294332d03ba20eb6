// One contract for every StateStore: the file store the product uses and the
// in-memory one the hook unit tests use (test/support/memory-store.ts), so
// that what the unit tests see of the store is what the hooks get.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reduce } from "../../src/engine/session/reduce.js";
import { newSession, type SessionState } from "../../src/engine/session/state.js";
import { FileStateStore, type StateStore } from "../../src/state/store.js";
import { MemoryStateStore } from "../support/memory-store.js";

const S = "contract-session-1";
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const STORES: Array<{ name: string; make: () => StateStore }> = [
  {
    name: "FileStateStore",
    make: () => {
      const dir = mkdtempSync(join(tmpdir(), "utility-store-contract-"));
      dirs.push(dir);
      return new FileStateStore(dir);
    },
  },
  { name: "MemoryStateStore", make: () => new MemoryStateStore() },
];

/** A state unlike a new one: /utility on was vouched. */
const switchedOn = (state: SessionState) =>
  reduce(state, { kind: "prompt_vouched", key: "k1", own: true, slash: true, switch: "on" }).session;

describe.each(STORES)("$name", ({ make }) => {
  it("reads nothing for a session it never wrote", () => {
    expect(make().read(S)).toBeUndefined();
    expect(make().read("other-session")).toBeUndefined();
  });

  it("a transaction on a new session sees none, and creates the state it returns", async () => {
    const store = make();
    let seen: SessionState | undefined | "not called" = "not called";
    await store.transact(S, (state) => {
      seen = state;
      return { state: newSession(S), result: undefined };
    });
    expect(seen).toBeUndefined();
    expect(store.read(S)).toEqual(newSession(S));
    expect(store.read("other-session")).toBeUndefined();
  });

  it("a transaction sees the previous one's write, and its own write is read back", async () => {
    const store = make();
    await store.transact(S, () => ({ state: switchedOn(newSession(S)), result: undefined }));
    let seen: SessionState | undefined;
    await store.transact(S, (state) => {
      seen = state;
      return { state: reduce(state!, { kind: "scope", scope: "main", event: { kind: "compact" } }).session, result: undefined };
    });
    expect(seen).toEqual(switchedOn(newSession(S)));
    expect(store.read(S)).toMatchObject({ manualGate: true, promptSeq: 1 });
  });

  it("a change that throws writes nothing, and the error passes through", async () => {
    const store = make();
    await store.transact(S, () => ({ state: newSession(S), result: undefined }));
    const boom = new Error("the change failed");
    await expect(
      store.transact(S, async (state) => {
        await Promise.resolve();
        void switchedOn(state!);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(store.read(S)).toEqual(newSession(S));
    // and the store still works: nothing is left locked
    expect(await store.transact(S, (state) => ({ state: state!, result: "again" }))).toBe("again");
  });

  it("a throwing change on a new session leaves it absent", async () => {
    const store = make();
    await expect(
      store.transact(S, () => {
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(store.read(S)).toBeUndefined();
  });

  it("the change's result passes through, sync or async, whatever it is", async () => {
    const store = make();
    const value = { a: [1, 2], b: "x" };
    expect(await store.transact(S, () => ({ state: newSession(S), result: value }))).toBe(value);
    expect(await store.transact(S, async (state) => ({ state: state!, result: 42 }))).toBe(42);
    expect(await store.transact(S, (state) => ({ state: state!, result: undefined }))).toBeUndefined();
  });
});

describe("FileStateStore's files", () => {
  it("leaves only the state file behind: no lock, no temporary file, even after a change that threw", async () => {
    const dir = mkdtempSync(join(tmpdir(), "utility-store-contract-"));
    dirs.push(dir);
    const store = new FileStateStore(dir);
    await store.transact(S, () => ({ state: newSession(S), result: undefined }));
    await store
      .transact(S, () => {
        throw new Error("no");
      })
      .catch(() => undefined);
    expect(readdirSync(join(dir, "state"))).toEqual([`${S}.json`]);
    expect(existsSync(`${store.path(S)}.lock`)).toBe(false);
  });
});
