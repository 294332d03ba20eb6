// The file store's lock, in one process, with the seams the store offers for
// tests: every step of a race happens at a point the test chooses, not after a sleep.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newSession } from "../../src/engine/session/state.js";
import { FileStateStore } from "../../src/state/store.js";
import { deadPid } from "../support/dead-pid.js";

const S = "store-session-1";
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "utility-store-"));
  mkdirSync(join(dir, "state"), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockFile = () => `${new FileStateStore(dir).path(S)}.lock`;

describe("FileStateStore's lock", () => {
  it("two stores that both saw a dead pid's lock: the slower does not remove the lock the faster has just taken", async () => {
    writeFileSync(lockFile(), `${deadPid()} ${Date.now()}`);
    const a = new FileStateStore(dir);
    let aHolds: string | undefined;
    let aDone: Promise<void> | undefined;
    // B sees the stale lock; at that moment A takes it over (synchronously: acquiring is), and holds it.
    const b = new FileStateStore(
      dir,
      { timeoutMs: 300, staleMs: 15_000 },
      {
        staleSeen: () => {
          aDone ??= a.transact(S, async (state) => ({ state: state ?? newSession(S), result: undefined }));
          aHolds ??= readFileSync(lockFile(), "utf8");
        },
      },
    );
    // B goes on to take over "the stale lock", finds A's under the guard, leaves it, and times out waiting
    // (acquiring is synchronous: B has given up when transact returns, and A has not gone on yet).
    const bRun = b.transact(S, (state) => ({ state: state ?? newSession(S), result: "b wrote" }));
    expect(aHolds).toMatch(new RegExp(`^${process.pid} `));
    expect(readFileSync(lockFile(), "utf8")).toBe(aHolds); // still A's
    await expect(bRun).rejects.toThrow(/held by a live process for more than 300 ms/);
    await aDone;
    expect(existsSync(lockFile())).toBe(false); // A released its own lock
    expect(new FileStateStore(dir).read(S)).toEqual(newSession(S));
  });

  it("a store that sees its lock taken over as stale while it held it does not release the new owner's", async () => {
    let replaced: string | undefined;
    const store = new FileStateStore(dir, undefined, {
      held: () => {
        replaced = `${process.pid} ${Date.now()} someone-else`;
        writeFileSync(lockFile(), replaced); // what a takeover by another hook leaves
      },
    });
    await store.transact(S, (state) => ({ state: state ?? newSession(S), result: undefined }));
    expect(readFileSync(lockFile(), "utf8")).toBe(replaced);
  });
});

describe("FileStateStore: a state written after the answer (Transaction.later)", () => {
  const stepped = (state: ReturnType<typeof newSession> | undefined, n: number) => ({
    ...(state ?? newSession(S)),
    settingsWarned: `step ${n}`,
  });
  const onDisk = () => JSON.parse(readFileSync(new FileStateStore(dir).path(S), "utf8")).settingsWarned as string | undefined;

  it("keeps the lock and leaves the file as it was until the work handed on runs; then writes it and frees the lock", async () => {
    const store = new FileStateStore(dir);
    await store.transact(S, (state) => ({ state: stepped(state, 1), result: undefined }));
    const queued: Array<() => void> = [];
    const result = await store.transact(S, (state) => ({
      state: stepped(state, 2),
      result: "answered",
      later: (w) => void queued.push(w),
    }));
    expect(result).toBe("answered");
    expect(queued).toHaveLength(1);
    expect(onDisk()).toBe("step 1");
    expect(existsSync(lockFile())).toBe(true);
    queued[0]!();
    expect(onDisk()).toBe("step 2");
    expect(existsSync(lockFile())).toBe(false);
    queued[0]!(); // run twice (the store ran it already): nothing more
    expect(onDisk()).toBe("step 2");
  });

  it("writes it before its next read or transaction, so no step is lost and the lock it holds is no wait", async () => {
    const store = new FileStateStore(dir, { staleMs: 60_000, timeoutMs: 200 });
    const queued: Array<() => void> = [];
    await store.transact(S, (state) => ({ state: stepped(state, 1), result: undefined, later: (w) => void queued.push(w) }));
    expect(store.read(S)?.settingsWarned).toBe("step 1");
    await store.transact(S, (state) => ({ state: stepped(state, 2), result: undefined, later: (w) => void queued.push(w) }));
    await store.transact(S, (state) => ({ state: stepped(state, Number(state!.settingsWarned!.slice(5)) + 1), result: undefined }));
    expect(onDisk()).toBe("step 3");
    for (const work of queued) work(); // the queue runs late: it writes nothing over the newer state
    expect(onDisk()).toBe("step 3");
    expect(existsSync(lockFile())).toBe(false);
  });

  it("frees the lock when the late write fails, and says why", async () => {
    const store = new FileStateStore(dir);
    const queued: Array<() => void> = [];
    await store.transact(S, (state) => ({ state: stepped(state, 1), result: undefined, later: (w) => void queued.push(w) }));
    // A folder (not empty) where the temporary file goes: it can be neither removed nor written.
    mkdirSync(join(`${store.path(S)}.${process.pid}.tmp`, "x"), { recursive: true });
    expect(() => queued[0]!()).toThrow(/cannot keep the state file/);
    expect(existsSync(lockFile())).toBe(false);
  });

  it("frees the lock at once when the work cannot be handed on", async () => {
    const store = new FileStateStore(dir);
    const refused = store.transact(S, (state) => ({
      state: stepped(state, 1),
      result: undefined,
      later: () => {
        throw new Error("no queue");
      },
    }));
    await expect(refused).rejects.toThrow("no queue");
    expect(existsSync(lockFile())).toBe(false);
    expect(store.read(S)).toBeUndefined();
  });
});

describe("FileStateStore: the file it wrote or read last is not read again while unchanged", () => {
  const stepped = (state: ReturnType<typeof newSession> | undefined, n: number) => ({
    ...(state ?? newSession(S)),
    settingsWarned: `step ${n}`,
  });

  function counting() {
    const reads = { n: 0 };
    const store = new FileStateStore(dir, undefined, { fileRead: () => void reads.n++ });
    return { store, reads };
  }

  it("reads nothing after its own write, and reads again after another writer's, a touch, or a rewrite in place", async () => {
    const { store, reads } = counting();
    await store.transact(S, (state) => ({ state: stepped(state, 1), result: undefined }));
    expect(reads.n).toBe(0);
    expect(store.read(S)?.settingsWarned).toBe("step 1");
    await store.transact(S, (state) => ({ state: stepped(state, 2), result: undefined }));
    expect(reads.n).toBe(0);

    // Another store (another process) replaces the file: this one sees the new state.
    await new FileStateStore(dir).transact(S, (state) => ({ state: stepped(state, 3), result: undefined }));
    expect(store.read(S)?.settingsWarned).toBe("step 3");
    expect(reads.n).toBe(1);
    expect(store.read(S)?.settingsWarned).toBe("step 3");
    expect(reads.n).toBe(1);

    // The same bytes, touched: read again (the ctime moved), and the same state.
    const file = store.path(S);
    const text = readFileSync(file, "utf8");
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(file, text);
    expect(store.read(S)?.settingsWarned).toBe("step 3");
    expect(reads.n).toBe(2);

    // Rewritten in place, the same size, other bytes: seen.
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(file, text.replace('"step 3"', '"step 4"'));
    expect(store.read(S)?.settingsWarned).toBe("step 4");
    expect(reads.n).toBe(3);
  });

  it("a link, a folder or garbage in the file's place is still trouble, not the state it remembers", async () => {
    const { store } = counting();
    await store.transact(S, (state) => ({ state: stepped(state, 1), result: undefined }));
    const file = store.path(S);
    rmSync(file);
    symlinkSync(join(dir, "elsewhere.json"), file);
    expect(() => store.read(S)).toThrow(/cannot read the state file/);
    rmSync(file);
    mkdirSync(file);
    expect(() => store.read(S)).toThrow(/cannot read the state file/);
    rmSync(file, { recursive: true });
    writeFileSync(file, "{");
    expect(() => store.read(S)).toThrow(/not valid JSON/);
    rmSync(file);
    expect(store.read(S)).toBeUndefined();
  });
});

describe("FileStateStore: one transaction at a time", () => {
  it("refuses a second transaction started while the first is between its lock and its state, at once; the first goes on", async () => {
    const store = new FileStateStore(dir);
    let go!: () => void;
    const first = store.transact(S, async (state) => {
      await new Promise<void>((resolve) => (go = resolve));
      return { state: { ...(state ?? newSession(S)), settingsWarned: "first" }, result: "first" };
    });
    const started = Date.now();
    await expect(store.transact(S, (state) => ({ state: state ?? newSession(S), result: "second" }))).rejects.toThrow(
      /in a transaction already/,
    );
    expect(Date.now() - started).toBeLessThan(1000); // not a wait for its own process's lock
    go();
    await expect(first).resolves.toBe("first");
    expect(existsSync(lockFile())).toBe(false);
    expect(store.read(S)?.settingsWarned).toBe("first");
    await expect(store.transact(S, (state) => ({ state: state!, result: "third" }))).resolves.toBe("third");
  });
});
