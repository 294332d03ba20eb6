// The live ClickHouse export against a sender of the test's own that keeps
// rows as ClickHouse would (read back, insert only the others; a task by
// version): nothing is sent before the answer's writes run, what the log
// gained goes out once, a failed send keeps its lines in the log for the next
// one, a server started later sends what an ended one left, and a sender that
// never answers holds neither a hook nor the server's end past its bound.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clickHouseLive } from "../../src/clickhouse/live.js";
import { readClickHouseProgress } from "../../src/clickhouse/progress.js";
import type { ClickHouseSender, SessionRows } from "../../src/clickhouse/types.js";
import { clickHouseShim } from "../../src/clickhouse/shim.js";
import { stepRows, taskRows } from "../../src/export/rows.js";
import { readSessionLog } from "../../src/export/sources.js";
import { nodeSha256Hex } from "../../src/hash/node-sha256.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { sessionLog } from "../export/support/team-logs.js";

const SESSION = "c2c2c2c2-0000-4000-8000-000000000002";
const root = mkdtempSync(join(tmpdir(), "utility-ch-live-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Mode = "ok" | "fail" | "silent";

function fakeClickHouse() {
  const steps = new Map<string, SessionRows["steps"][number]>();
  const tasks = new Map<string, number>();
  const state = { mode: "ok" as Mode, sends: 0, inserted: 0 };
  const sender: ClickHouseSender = {
    ready: () =>
      state.mode === "ok" ? Promise.resolve() : state.mode === "fail" ? Promise.reject(new Error("down")) : new Promise(() => {}),
    async send(rows) {
      state.sends += 1;
      if (state.mode === "silent") await new Promise(() => {});
      if (state.mode === "fail") throw new Error("cannot reach ClickHouse at http://127.0.0.1:1: ECONNREFUSED");
      const fresh = rows.steps.filter((r) => !steps.has(r.id));
      for (const r of fresh) steps.set(r.id, r);
      const newer = rows.tasks.filter((t) => t.version > (tasks.get(t.id) ?? 0));
      for (const t of newer) tasks.set(t.id, t.version);
      state.inserted += fresh.length;
      return { steps: fresh.length, tasks: newer.length };
    },
  };
  return { steps, tasks, state, start: () => Promise.resolve(() => sender) };
}

function setup(name: string) {
  const dir = join(root, name);
  mkdirSync(join(dir, "sessions"), { recursive: true });
  const lines = sessionLog({ session: SESSION, day: "2026-12-01", tokensPerStep: 1000 })
    .split("\n")
    .filter((l) => l !== "");
  const log = join(dir, "sessions", `${SESSION}.jsonl`);
  const work: Array<() => void> = [];
  return {
    dir,
    log,
    lines,
    env: { CLAUDE_PLUGIN_DATA: dir },
    later: (w: () => void) => void work.push(w),
    settle: () => work.splice(0).forEach((w) => w()),
    write: (from: number, to: number) =>
      appendFileSync(
        log,
        lines
          .slice(from, to)
          .map((l) => `${l}\n`)
          .join(""),
      ),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await sleep(10);
}

function options(t: ReturnType<typeof setup>, ch: ReturnType<typeof fakeClickHouse>) {
  return {
    later: t.later,
    prices: () => DEFAULT_PRICES,
    developer: "dev@box",
    trouble: () => undefined,
    loadSender: ch.start,
    delayMs: 20,
    maxLines: 4,
  };
}

const hook = (event: string) => ({ session_id: SESSION, cwd: "/work/shop", hook_event_name: event });

describe("the live ClickHouse export", () => {
  it("sends nothing until the answer's writes run, then each line's row once, the same rows utility export makes", async () => {
    const t = setup("once");
    const ch = fakeClickHouse();
    const live = clickHouseLive(t.env, "http://u:p@ch.example:8123/", options(t, ch));
    t.write(0, 10);
    live.after("PreToolUse", hook("PreToolUse"));
    await sleep(60);
    expect(ch.state.sends).toBe(0);
    t.settle();
    await until(() => ch.steps.size === 10);
    t.write(10, t.lines.length);
    live.after("Stop", hook("Stop"));
    t.settle();
    await until(() => ch.steps.size === t.lines.length && ch.tasks.size > 0);
    await live.close(1000);
    const expected = stepRows(readSessionLog(t.log).lines, { developer: "dev@box", project: "shop", promptIds: new Map() }, nodeSha256Hex);
    expect([...ch.steps.values()].sort((a, b) => a.time_ms - b.time_ms || a.id.localeCompare(b.id))).toEqual(
      [...expected].sort((a, b) => a.time_ms - b.time_ms || a.id.localeCompare(b.id)),
    );
    expect(ch.state.inserted).toBe(t.lines.length);
    const tasks = taskRows(
      readSessionLog(t.log).lines.map((l) => l.record),
      { developer: "dev@box", project: "shop", promptIds: new Map() },
      DEFAULT_PRICES,
    );
    expect(Object.fromEntries(ch.tasks)).toEqual(Object.fromEntries(tasks.map((r) => [r.id, r.version])));
    const progress = readClickHouseProgress(t.dir, SESSION)!;
    expect(progress).toMatchObject({
      sent: t.lines.length + tasks.length,
      waiting: 0,
      failed: 0,
      host: "ch.example:8123",
      project: "shop",
    });
    expect(progress.offset).toBe(readFileSync(t.log).length);
    expect(JSON.stringify(progress)).not.toContain(":p@");
  });

  it("keeps what a failed send could not store in the log, counts it, and sends it once ClickHouse is back", async () => {
    const t = setup("outage");
    const ch = fakeClickHouse();
    ch.state.mode = "fail";
    const live = clickHouseLive(t.env, "http://ch.example:8123/", options(t, ch));
    t.write(0, 12);
    live.after("PreToolUse", hook("PreToolUse"));
    t.settle();
    await until(() => (readClickHouseProgress(t.dir, SESSION)?.failed ?? 0) >= 1);
    const failed = readClickHouseProgress(t.dir, SESSION)!;
    expect(failed).toMatchObject({ offset: 0, sent: 0, waiting: 0 });
    expect(failed.lastError).toMatch(/down|ECONNREFUSED/);
    ch.state.mode = "ok";
    // No hook needed: the retry is the export's own.
    await until(() => ch.steps.size === 12, 5000);
    expect(ch.state.inserted).toBe(12);
    await live.close(1000);
    const after = readClickHouseProgress(t.dir, SESSION)!;
    expect(after.lastError).toBeUndefined();
    expect(after.failed).toBeGreaterThanOrEqual(1);
  });

  it("a server started later sends, as it starts, what the log gained after the last one ended, and nothing twice", async () => {
    const t = setup("later");
    const ch = fakeClickHouse();
    const first = clickHouseLive(t.env, "http://ch.example:8123/", options(t, ch));
    t.write(0, 8);
    first.after("PreToolUse", hook("PreToolUse"));
    t.settle();
    await until(() => ch.steps.size === 8);
    await first.close(1000);
    // SessionEnd's record and more, written after the server ended.
    t.write(8, t.lines.length);
    const second = clickHouseLive(t.env, "http://ch.example:8123/", options(t, ch));
    // No hook yet: the server's start sends it.
    second.start();
    await until(() => ch.steps.size === t.lines.length);
    await second.close(1000);
    expect(ch.state.inserted).toBe(t.lines.length);
    expect(readClickHouseProgress(t.dir, SESSION)).toMatchObject({ waiting: 0, offset: readFileSync(t.log).length });
  });

  it("with a ClickHouse that never answers, hooks return at once and the end waits no longer than its bound", async () => {
    const t = setup("silent");
    const ch = fakeClickHouse();
    ch.state.mode = "silent";
    const live = clickHouseLive(t.env, "http://ch.example:8123/", options(t, ch));
    t.write(0, 5);
    const started = performance.now();
    for (let i = 0; i < 50; i++) {
      live.after("PreToolUse", hook("PreToolUse"));
      t.settle();
    }
    expect(performance.now() - started).toBeLessThan(200);
    await sleep(100);
    const closing = performance.now();
    await live.close(300);
    expect(performance.now() - closing).toBeLessThan(1000);
    expect(readClickHouseProgress(t.dir, SESSION)).toMatchObject({ sent: 0, offset: 0 });
  });

  it("is off without clickhouse_url, and off with a problem for one that is not a URL", () => {
    const t = setup("off");
    const troubles: string[] = [];
    const base = { later: t.later, prices: () => DEFAULT_PRICES, developer: "d", trouble: (m: string) => void troubles.push(m) };
    const never = () => new Promise<never>(() => {});
    expect(clickHouseShim(t.env, base, never)).toBeUndefined();
    expect(clickHouseShim({ ...t.env, CLAUDE_PLUGIN_OPTION_CLICKHOUSE_URL: "ch:8123" }, base, never)).toBeUndefined();
    expect(troubles).toEqual([expect.stringMatching(/^ClickHouse export is off: clickhouse_url is not an http/)]);
    expect(clickHouseShim({ ...t.env, CLAUDE_PLUGIN_OPTION_CLICKHOUSE_URL: "http://ch:8123" }, base, never)).toBeDefined();
  });
});
