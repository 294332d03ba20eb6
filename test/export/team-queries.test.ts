// docs/team.md's queries, each run against a real ClickHouse (Debian's
// clickhouse-server, started on loopback by the test) after three developers
// exported their logs with `utility export`, and each answer compared with an
// independent count: the developers' own `utility report --json`.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../support/cli-io.js";
import { ROOT } from "../support/paths.js";
import { percentilesOf } from "../../src/history/percentiles.js";
import { clickHouseSkipReason, startClickHouse, type RunningClickHouse } from "./support/clickhouse-server.js";
import { writeDeveloperLogs, type SessionSpec } from "./support/team-logs.js";

const skip = clickHouseSkipReason();
if (skip) console.warn(`test/export/team-queries: skipped: ${skip}`);

/** docs/team.md's SQL blocks, by the name on their first line (`-- name`). */
function teamQueries(): Map<string, string> {
  const md = readFileSync(join(ROOT, "docs", "team.md"), "utf8");
  const out = new Map<string, string>();
  for (const m of md.matchAll(/```sql\n([\s\S]*?)```/g)) out.set(m[1]!.split("\n")[0]!.replace(/^--\s*/, ""), m[1]!);
  return out;
}

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const TODAY = day(0);

interface Developer {
  name: string;
  project: string;
  /** Sessions of this week. */
  week: SessionSpec[];
  /** Sessions of long ago: exported, but not this week's. */
  old: SessionSpec[];
}

const TEAM: Developer[] = [
  {
    name: "ana@laptop",
    project: "web",
    week: [{ session: "a1a1a1a1-0000-4000-8000-000000000001", day: TODAY, tokensPerStep: 1000 }],
    old: [{ session: "a2a2a2a2-0000-4000-8000-000000000002", day: day(-40), tokensPerStep: 5000, drop: [3] }],
  },
  {
    name: "ben@desk",
    project: "web",
    week: [{ session: "b1b1b1b1-0000-4000-8000-000000000001", day: TODAY, tokensPerStep: 3000, drop: [3, 4], budgetStop: true }],
    old: [],
  },
  {
    name: "cleo@box",
    project: "api",
    week: [
      { session: "c1c1c1c1-0000-4000-8000-000000000001", day: TODAY, tokensPerStep: 2000, drop: [20, 21, 22] },
      { session: "c2c2c2c2-0000-4000-8000-000000000002", day: TODAY, tokensPerStep: 700, budgetStop: true },
    ],
    old: [],
  },
];

interface Reported {
  developer: Developer;
  week: any[];
  all: any[];
}

async function reportOf(file: string): Promise<any> {
  const run = await cli(["report", file, "--json"]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

async function rows(ch: RunningClickHouse, sql: string): Promise<any[]> {
  const text = await ch.query(`${sql.trim()}\nFORMAT JSONEachRow`);
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

describe.skipIf(skip !== undefined)("docs/team.md's queries against ClickHouse", () => {
  let ch: RunningClickHouse;
  let home: string;
  const reported: Reported[] = [];
  const queries = teamQueries();

  beforeAll(async () => {
    ch = await startClickHouse();
    home = mkdtempSync(join(tmpdir(), "utility-team-"));
    for (const developer of TEAM) {
      const dir = join(home, developer.name);
      const weekFiles = writeDeveloperLogs(dir, developer.week);
      const oldFiles = writeDeveloperLogs(dir, developer.old);
      const env = { UTILITY_DATA_DIR: dir, HOME: dir };
      const run = await cli(["export", "--clickhouse", ch.url, "--developer", developer.name, "--project", developer.project], { env });
      expect(run.code, run.stderr).toBe(0);
      const week = await Promise.all(weekFiles.map(reportOf));
      reported.push({ developer, week, all: [...week, ...(await Promise.all(oldFiles.map(reportOf)))] });
    }
  }, 120_000);

  afterAll(async () => {
    await ch?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("ran on a real server", () => {
    expect(ch.version).toMatch(/^\d+\.\d+/);
    console.log(`ClickHouse ${ch.version}`);
    expect([...queries.keys()].sort()).toEqual(
      ["budgets_hit", "loops_caught_this_week", "refusals_by_rule_this_week", "spend_per_task_percentiles"].sort(),
    );
  });

  it("refusals by rule per developer this week equal the developers' own reports", async () => {
    const expected: Array<{ developer: string; rule: string; refusals: number }> = [];
    for (const { developer, week } of reported) {
      const byRule: Record<string, number> = {};
      for (const report of week)
        for (const scope of report.scopes)
          for (const [rule, n] of Object.entries(scope.refusalsByRule)) byRule[rule] = (byRule[rule] ?? 0) + (n as number);
      for (const rule of Object.keys(byRule).sort()) expected.push({ developer: developer.name, rule, refusals: byRule[rule]! });
    }
    const got = (await rows(ch, queries.get("refusals_by_rule_this_week")!)).map((r) => ({ ...r, refusals: Number(r.refusals) }));
    expect(got).toEqual(expected);
    expect(got.some((r) => r.rule === "budget_spent")).toBe(true);
  });

  it("loops caught this week equal the reports' repeats", async () => {
    const got = await rows(ch, queries.get("loops_caught_this_week")!);
    const expected = reported.map(({ developer, week }) => ({
      developer: developer.name,
      repeats: week.reduce((n, r) => n + r.totals.repeats, 0),
      repeats_refused: week.reduce((n, r) => n + r.scopes.reduce((m: number, s: any) => m + s.repeatsRefused, 0), 0),
    }));
    expect(got.map((r) => ({ developer: r.developer, repeats: Number(r.repeats), repeats_refused: Number(r.repeats_refused) }))).toEqual(
      expected,
    );
    expect(expected.every((e) => e.repeats > 0)).toBe(true);
  });

  it("budgets hit equal the reports' budget refusals, all time", async () => {
    const got = (await rows(ch, queries.get("budgets_hit")!)).map((r) => ({
      developer: r.developer,
      refusals: Number(r.refusals),
      tasks_stopped: Number(r.tasks_stopped),
    }));
    const expected = reported
      .map(({ developer, all }) => ({
        developer: developer.name,
        refusals: all.reduce((n, r) => n + r.scopes.reduce((m: number, s: any) => m + (s.refusalsByRule.budget_spent ?? 0), 0), 0),
      }))
      .filter((e) => e.refusals > 0)
      .map((e) => ({ ...e, tasks_stopped: e.refusals })); // one budget stop per session's task 2 here
    expect(got).toEqual(expected);
  });

  it("spend per task percentiles per developer and project equal the reports' task spend", async () => {
    const got = await rows(ch, queries.get("spend_per_task_percentiles")!);
    for (const { developer, all } of reported) {
      const costs = all.flatMap((report) =>
        report.scopes.flatMap((scope: any) =>
          scope.tasks.map(
            (t: any) => report.spend.scopes.find((s: any) => s.key === scope.key)?.tasks.find((x: any) => x.task === t.task)?.costUsd ?? 0,
          ),
        ),
      );
      const p = percentilesOf(costs);
      const row = got.find((r) => r.developer === developer.name && r.project === developer.project);
      expect(row, developer.name).toBeDefined();
      expect(Number(row.tasks)).toBe(p.n);
      expect(row.p50_usd).toBeCloseTo(p.p50, 9);
      expect(row.p90_usd).toBeCloseTo(p.p90, 9);
      expect(row.p99_usd).toBeCloseTo(p.p99, 9);
      expect(row.max_usd).toBeCloseTo(p.max, 9);
      expect(p.max).toBeGreaterThan(0);
    }
    expect(got).toHaveLength(TEAM.length);
  });

  it("sending twice stores nothing twice", async () => {
    const before = Number((await ch.query("SELECT count() FROM utility_steps")).trim());
    const tasksBefore = Number((await ch.query("SELECT count() FROM utility_tasks")).trim());
    const records = reported.reduce((n, r) => n + r.all.reduce((m, report) => m + report.records, 0), 0);
    expect(before).toBe(records);
    const ana = TEAM[0]!;
    const dir = join(home, ana.name);
    const run = await cli(["export", "--clickhouse", ch.url, "--developer", ana.name, "--project", ana.project, "--json"], {
      env: { UTILITY_DATA_DIR: dir, HOME: dir },
    });
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.steps.sent).toBe(0);
    expect(json.tasks.sent).toBe(0);
    expect(json.steps.stored).toBeGreaterThan(0);
    expect(Number((await ch.query("SELECT count() FROM utility_steps")).trim())).toBe(before);
    expect(Number((await ch.query("SELECT count() FROM utility_tasks")).trim())).toBe(tasksBefore);
  });
});
