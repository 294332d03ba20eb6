/**
 * The retention rule applied to a real data folder: each session's log, state
 * file and leftovers go together; the error log is weighed too; links are
 * removed by name, never followed out of the data folder (SPEC §10).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DAY_MS } from "../../src/engine/retention.js";
import { ERROR_LOG_ITEM, pruneDataDir, storedIn, switchedOn, transcriptHeld } from "../../src/state/prune.js";

const root = mkdtempSync(join(tmpdir(), "utility-prune-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const NOW = Date.now();
let n = 0;

/** A file of `bytes` bytes last written `daysAgo` days ago. */
function put(file: string, bytes: number, daysAgo: number): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, "x".repeat(bytes));
  const at = (NOW - daysAgo * DAY_MS) / 1000;
  utimesSync(file, at, at);
}

function dataFolder(): string {
  const dir = join(root, `data-${++n}`);
  put(join(dir, "sessions", "old.jsonl"), 1000, 45);
  put(join(dir, "state", "old.json"), 200, 44);
  put(join(dir, "state", "old.json.lock"), 10, 44);
  put(join(dir, "state", "old.json.1234.tmp"), 5, 44);
  put(join(dir, "sessions", "mid.jsonl"), 3000, 10);
  put(join(dir, "state", "mid.json"), 500, 10);
  put(join(dir, "sessions", "new.jsonl"), 2000, 2);
  put(join(dir, "sessions", "now.jsonl"), 4000, 0.01);
  put(join(dir, "errors.jsonl"), 100, 60);
  put(join(dir, "servers", "123.json"), 10, 90);
  return dir;
}

const ctx = (protect: string[] = []) => ({ now: NOW, protect: new Set(protect), graceMs: DAY_MS });
const names = (dir: string, folder: string) => (existsSync(join(dir, folder)) ? readdirSync(join(dir, folder)).sort() : []);

describe("pruning a data folder", () => {
  it("weighs each session's files together, and the error log", () => {
    const stored = storedIn(dataFolder());
    const byId = Object.fromEntries(stored.items.map((i) => [i.id, i.bytes]));
    expect(byId).toEqual({ old: 1215, mid: 3500, new: 2000, now: 4000, [ERROR_LOG_ITEM]: 100 });
  });

  it("deletes by age: every file of the old session, and the old error log; nothing else", () => {
    const dir = dataFolder();
    const result = pruneDataDir(dir, { maxAgeMs: 30 * DAY_MS, maxBytes: 1e9 }, ctx());
    expect(result.plan.remove.map((r) => [r.id, r.why])).toEqual([
      [ERROR_LOG_ITEM, "age"],
      ["old", "age"],
    ]);
    expect(names(dir, "sessions")).toEqual(["mid.jsonl", "new.jsonl", "now.jsonl"]);
    expect(names(dir, "state")).toEqual(["mid.json"]);
    expect(existsSync(join(dir, "errors.jsonl"))).toBe(false);
    expect(names(dir, "servers")).toEqual(["123.json"]);
    expect(result.deleted).toHaveLength(5);
    expect(result.trouble).toEqual([]);
  });

  it("the status line a session's server kept (statusline/<session>.txt) goes with that session, and only that", () => {
    const dir = dataFolder();
    put(join(dir, "statusline", "old.txt"), 100, 44);
    put(join(dir, "statusline", "old.txt.99.tmp"), 100, 44);
    put(join(dir, "statusline", "mid.txt"), 100, 10);
    put(join(dir, "statusline", "notes.md"), 100, 90);
    expect(storedIn(dir).items.find((i) => i.id === "old")?.bytes).toBe(1415);
    pruneDataDir(dir, { maxAgeMs: 30 * DAY_MS, maxBytes: 1e9 }, ctx());
    expect(names(dir, "statusline")).toEqual(["mid.txt", "notes.md"]);
  });

  it("the live ClickHouse export's progress (clickhouse/<session>.json) goes with that session, and only that", () => {
    const dir = dataFolder();
    put(join(dir, "clickhouse", "old.json"), 100, 44);
    put(join(dir, "clickhouse", "mid.json"), 100, 10);
    expect(storedIn(dir).items.find((i) => i.id === "old")?.bytes).toBe(1315);
    pruneDataDir(dir, { maxAgeMs: 30 * DAY_MS, maxBytes: 1e9 }, ctx());
    expect(names(dir, "clickhouse")).toEqual(["mid.json"]);
  });

  it("deletes by size, oldest first, never what was written in the last day", () => {
    const dir = dataFolder();
    const result = pruneDataDir(dir, { maxAgeMs: 365 * DAY_MS, maxBytes: 5000 }, ctx());
    expect(result.plan.remove.map((r) => r.id)).toEqual([ERROR_LOG_ITEM, "old", "mid", "new"]);
    expect(names(dir, "sessions")).toEqual(["now.jsonl"]);
  });

  it("never deletes the session it is told to protect", () => {
    const dir = dataFolder();
    pruneDataDir(dir, { maxAgeMs: 30 * DAY_MS, maxBytes: 1 }, ctx(["old"]));
    expect(names(dir, "sessions")).toEqual(["now.jsonl", "old.jsonl"]);
    expect(names(dir, "state")).toEqual(["old.json", "old.json.1234.tmp", "old.json.lock"]);
  });

  it("a dry run deletes nothing and plans the same", () => {
    const dir = dataFolder();
    const before = [names(dir, "sessions"), names(dir, "state")];
    const dry = pruneDataDir(dir, { maxAgeMs: 30 * DAY_MS, maxBytes: 1e9 }, ctx(), { dryRun: true });
    expect(dry.deleted).toEqual([]);
    expect([names(dir, "sessions"), names(dir, "state")]).toEqual(before);
    expect(pruneDataDir(dir, { maxAgeMs: 30 * DAY_MS, maxBytes: 1e9 }, ctx()).plan).toEqual(dry.plan);
  });

  it("a link in sessions/ is removed by name; its target, outside, is kept", () => {
    const dir = dataFolder();
    const victim = join(root, `victim-${n}.jsonl`);
    writeFileSync(victim, "keep me");
    symlinkSync(victim, join(dir, "sessions", "planted.jsonl"));
    const at = (NOW - 90 * DAY_MS) / 1000;
    utimesSync(victim, at, at);
    pruneDataDir(dir, { maxAgeMs: 30 * DAY_MS, maxBytes: 1e9 }, ctx());
    expect(readFileSync(victim, "utf8")).toBe("keep me");
  });

  it("a sessions/ folder that is a link out of the data folder is left alone, and said", () => {
    const dir = join(root, `data-${++n}`);
    const outside = join(root, `outside-${n}`);
    put(join(outside, "victim.jsonl"), 10, 90);
    mkdirSync(dir);
    symlinkSync(outside, join(dir, "sessions"));
    const result = pruneDataDir(dir, { maxAgeMs: DAY_MS, maxBytes: 1 }, ctx());
    expect(existsSync(join(outside, "victim.jsonl"))).toBe(true);
    expect(result.trouble).toEqual([`${join(dir, "sessions")} is a symbolic link; left alone`]);
  });

  it("files whose names are no session id are not touched", () => {
    const dir = join(root, `data-${++n}`);
    put(join(dir, "sessions", "..jsonl"), 10, 90);
    put(join(dir, "sessions", "notes.txt"), 10, 90);
    pruneDataDir(dir, { maxAgeMs: DAY_MS, maxBytes: 1 }, ctx());
    expect(names(dir, "sessions")).toEqual(["..jsonl", "notes.txt"]);
  });

  it("an empty or missing data folder plans nothing", () => {
    expect(pruneDataDir(join(root, "missing"), { maxAgeMs: DAY_MS, maxBytes: 1 }, ctx()).plan).toEqual({
      remove: [],
      keep: [],
      keptBytes: 0,
    });
  });
});

describe("a session whose gate is on (/utility on) is kept while Claude Code can continue it", () => {
  /** A data folder with sessions on (state says so), logged (no state, its log says on), off, and a plain old one; `held` have transcripts. */
  function gatedFolder(held: string[]) {
    const dir = join(root, `data-${++n}`);
    const projects = join(root, `projects-${n}`);
    put(join(dir, "state", "on.json"), 0, 40);
    writeFileSync(join(dir, "state", "on.json"), JSON.stringify({ version: 1, sessionId: "on", manualGate: true }));
    put(join(dir, "sessions", "logged.jsonl"), 0, 40);
    writeFileSync(join(dir, "sessions", "logged.jsonl"), `${JSON.stringify({ event: "UserPromptSubmit", switched: "on" })}\n`);
    put(join(dir, "state", "off.json"), 0, 40);
    writeFileSync(join(dir, "state", "off.json"), JSON.stringify({ version: 1, sessionId: "off", manualGate: false }));
    put(join(dir, "sessions", "off.jsonl"), 0, 40);
    writeFileSync(join(dir, "sessions", "off.jsonl"), `${JSON.stringify({ event: "UserPromptSubmit", switched: "on" })}\n`);
    put(join(dir, "sessions", "plain.jsonl"), 300, 50);
    for (const file of ["state/on.json", "sessions/logged.jsonl", "state/off.json", "sessions/off.jsonl"]) {
      const at = (NOW - 40 * DAY_MS) / 1000;
      utimesSync(join(dir, file), at, at);
    }
    for (const id of held) put(join(projects, "-work-proj", `${id}.jsonl`), 10, 40);
    return { dir, projects };
  }

  it("reads the switch from the state, else from the log (as the hooks restore it); the state wins when it says off", () => {
    const { dir } = gatedFolder([]);
    expect([switchedOn(dir, "on"), switchedOn(dir, "logged"), switchedOn(dir, "off"), switchedOn(dir, "plain")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("finds a transcript in any project folder of Claude Code's", () => {
    const { projects } = gatedFolder(["on"]);
    expect([transcriptHeld(projects, "on"), transcriptHeld(projects, "off"), transcriptHeld(join(root, "none"), "on")]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("keeps the gated sessions whose transcripts exist, by age and by size; deletes the rest", () => {
    const { dir, projects } = gatedFolder(["on", "logged", "off", "plain"]);
    const result = pruneDataDir(dir, { maxAgeMs: 30 * DAY_MS, maxBytes: 1 }, ctx(), { projectsDir: projects });
    expect(result.gatedKept.sort()).toEqual(["logged", "on"]);
    expect(result.plan.remove.map((r) => r.id).sort()).toEqual(["off", "plain"]);
    expect(names(dir, "state")).toEqual(["on.json"]);
    expect(names(dir, "sessions")).toEqual(["logged.jsonl"]);
  });

  it("a gated session whose transcript Claude Code has deleted can never run again: it goes", () => {
    const { dir, projects } = gatedFolder([]);
    const result = pruneDataDir(dir, { maxAgeMs: 30 * DAY_MS, maxBytes: 1e9 }, ctx(), { projectsDir: projects });
    expect(result.gatedKept).toEqual([]);
    expect([names(dir, "state"), names(dir, "sessions")]).toEqual([[], []]);
  });

  it("under the size limit, the others pay for a kept gated session", () => {
    const dir = join(root, `data-${++n}`);
    const projects = join(root, `projects-${n}`);
    mkdirSync(join(dir, "state"), { recursive: true });
    writeFileSync(join(dir, "state", "g.json"), JSON.stringify({ manualGate: true, pad: "x".repeat(970) }));
    const at = (NOW - 9 * DAY_MS) / 1000;
    utimesSync(join(dir, "state", "g.json"), at, at);
    put(join(dir, "sessions", "a.jsonl"), 1000, 5);
    put(join(dir, "sessions", "b.jsonl"), 1000, 3);
    put(join(projects, "p", "g.jsonl"), 1, 9);
    const result = pruneDataDir(dir, { maxAgeMs: 30 * DAY_MS, maxBytes: 2100 }, ctx(), { projectsDir: projects });
    expect(result.gatedKept).toEqual(["g"]);
    expect(result.plan.remove.map((r) => r.id)).toEqual(["a"]);
  });
});
