/**
 * Every file the plugin writes in its data folder is the user's alone (0600),
 * every folder it makes 0700, and those it finds open to others (written by
 * an older version, or the data folder Claude Code makes 0755) are tightened
 * as it writes there: step logs, state and ledger hold the model's rationale,
 * and Claude Code keeps its own transcripts 0600 (issue 31, hole 15). The
 * umask is 0 here, so a mode left to the default would show as 0666.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSession } from "../../src/engine/session/state.js";
import { autoPrune, PRUNE_STAMP } from "../../src/hooks/retention.js";
import { recordError } from "../../src/hooks/run.js";
import { writeMarker } from "../../src/state/server-marker.js";
import { appendLedgerLine } from "../../src/state/ledger.js";
import { appendJsonLine } from "../../src/state/log-file.js";
import { errorLogPath, sessionLogPath, sessionStatePath, tightenDataFolder } from "../../src/state/paths.js";
import { FileStateStore } from "../../src/state/store.js";
import { fakeContext } from "../hooks/fake-context.js";

const root = mkdtempSync(join(tmpdir(), "utility-private-"));
let saved = 0;
beforeAll(() => {
  saved = process.umask(0);
});
afterAll(() => {
  process.umask(saved);
  rmSync(root, { recursive: true, force: true });
});
let n = 0;
const fresh = () => join(root, `data-${++n}`);
const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every file and folder under `dir` with its mode, for a readable failure. */
function modesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    out[name] = `${statSync(path).isDirectory() ? "d" : "f"}${modeOf(path).toString(8)}`;
  }
  return out;
}
const allPrivate = (dir: string) =>
  Object.fromEntries(Object.entries(modesUnder(dir)).map(([name, mode]) => [name, mode.startsWith("d") ? "d700" : "f600"]));

describe("what the plugin writes in its data folder", () => {
  it("a step log and the error log: created 0600 in folders made 0700", () => {
    const data = fresh();
    appendJsonLine(sessionLogPath(data, "s1"), { v: 1 });
    recordError(data, "PreToolUse", "trouble");
    expect(modeOf(data)).toBe(0o700);
    expect(modeOf(sessionLogPath(data, "s1"))).toBe(0o600);
    expect(modeOf(errorLogPath(data))).toBe(0o600);
    expect(modesUnder(data)).toEqual(allPrivate(data));
  });

  it("a log and its folder left open to others (0644, 0755) are made private at the next line, the lines kept", () => {
    const data = fresh();
    const log = sessionLogPath(data, "s1");
    appendJsonLine(log, { line: 1 });
    chmodSync(log, 0o644);
    chmodSync(join(data, "sessions"), 0o755);
    appendJsonLine(log, { line: 2 });
    expect(modeOf(log)).toBe(0o600);
    expect(modeOf(join(data, "sessions"))).toBe(0o700);
    expect(statSync(log).size).toBe(2 * `{"line":1}\n`.length);
  });

  it("state: the file 0600 after each write, its lock 0600 while held", async () => {
    const data = fresh();
    let lockMode = -1;
    const lock = `${sessionStatePath(data, "s1")}.lock`;
    const store = new FileStateStore(data, undefined, { held: () => (lockMode = modeOf(lock)) });
    await store.transact("s1", () => ({ state: newSession("s1"), result: undefined }));
    expect(lockMode).toBe(0o600);
    expect(modeOf(sessionStatePath(data, "s1"))).toBe(0o600);
    chmodSync(sessionStatePath(data, "s1"), 0o644);
    await store.transact("s1", (state) => ({ state: state!, result: undefined }));
    expect(modeOf(sessionStatePath(data, "s1"))).toBe(0o600);
    expect(modesUnder(data)).toEqual(allPrivate(data));
  });

  it("the ledger, the server's marker and the prune stamp: 0600 in 0700 folders", () => {
    const data = fresh();
    appendLedgerLine(data, "s1", { v: 1, t: Date.parse("2026-12-01T10:00:00Z"), from: {}, to: {} });
    writeMarker(data, { pid: 1, claudePid: 42, startedAt: "t" });
    const ctx = fakeContext();
    ctx.dataDir = data;
    ctx.clock = () => new Date();
    expect(autoPrune(ctx, "s1")).toBeUndefined();
    expect(modeOf(join(data, PRUNE_STAMP))).toBe(0o600);
    expect(modesUnder(data)).toEqual(allPrivate(data));
  });

  it("the data folder Claude Code made 0755 is made 0700 where the session starts (the server's marker)", () => {
    const data = fresh();
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    writeMarker(data, { pid: 1, claudePid: 43, startedAt: "t" });
    expect(modeOf(data)).toBe(0o700);
  });

  it("tightening a data folder never fails: one missing, or a file in its place, is left as it is", () => {
    expect(() => tightenDataFolder(join(root, "missing"))).not.toThrow();
    const file = join(root, `file-${++n}`);
    writeFileSync(file, "x", { mode: 0o644 });
    tightenDataFolder(file);
    expect(modeOf(file)).toBe(0o644);
  });
});
