/**
 * Three simulated developers (three homes, a gated session each in the real
 * Claude Code with the plugin loaded), one ClickHouse: each exports with
 * `utility export`, and docs/team.md's "which rules refused what, per
 * developer, this week" answers exactly what each developer's own
 * `utility report --json` says. The rows carry the ids Claude Code's own
 * telemetry carries: the session, the prompt and the tool call.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { activate, gateRun, GOOD, id, markerDir, ok, report, touch } from "../gate/support.js";
import { cli } from "../../support/cli-io.js";
import { ROOT } from "../../support/paths.js";
import { clickHouseSkipReason, startClickHouse, type RunningClickHouse } from "../../export/support/clickhouse-server.js";

const skip = clickHouseSkipReason();
if (skip) console.warn(`test/e2e/export/team: skipped: ${skip}`);

const BAD = {
  wrongUtility: report("verify", "0.35", GOOD),
  notFitting: report("retrieve", "0.28", GOOD),
  belowFloor: report("verify", "-0.80", "Gain=0.2 StepCost=0.5 Uncertainty=1 Redundancy=0"),
  unknown: report("search", "0.28", GOOD),
};
type Bad = keyof typeof BAD;

/** Each developer's session: the bad reports its calls carry, in order, then one good call. */
const TEAM: Array<{ name: string; bad: Bad[] }> = [
  { name: "ana@laptop", bad: ["wrongUtility", "notFitting"] },
  { name: "ben@desk", bad: ["belowFloor", "belowFloor", "wrongUtility"] },
  { name: "cleo@box", bad: ["unknown"] },
];

function refusalsQuery(): string {
  const md = readFileSync(join(ROOT, "docs", "team.md"), "utf8");
  const block = [...md.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!).find((sql) => sql.startsWith("-- refusals_by_rule_this_week"));
  if (!block) throw new Error("docs/team.md has no refusals_by_rule_this_week query");
  return block;
}

describe.skipIf(skip !== undefined)("a team of three in one ClickHouse", () => {
  let ch: RunningClickHouse;
  const runs: RunClaudeResult[] = [];
  const callIds: string[][] = [];

  beforeAll(async () => {
    ch = await startClickHouse();
    for (const [i, developer] of TEAM.entries()) {
      const marks = markerDir();
      const ids = developer.bad.map((name, n) => id(`${i}-${name}-${n}`));
      const good = id(`${i}-good`);
      callIds.push([...ids, good]);
      const run = await gateRun({
        prompt: "why does test_parse fail?",
        script: [
          [activate()],
          ...developer.bad.map((name, n) => [text(BAD[name]), touch(join(marks, `${name}-${n}`), ids[n])]),
          [text(ok("verify", "The run settles it.")), touch(join(marks, "good"), good)],
          [text("Answer.")],
        ],
      });
      runs.push(run);
      const exported = await cli(["export", "--clickhouse", ch.url, "--developer", developer.name, "--json"], { env: { HOME: run.home } });
      expect(exported.code, exported.stderr).toBe(0);
      expect(JSON.parse(exported.stdout).steps.sent).toBeGreaterThan(0);
    }
  }, 600_000);

  afterAll(async () => {
    for (const run of runs) run.cleanup();
    await ch?.stop();
  });

  it("docs/team.md's refusals per developer this week equal each developer's own utility report", async () => {
    const expected: Array<{ developer: string; rule: string; refusals: number }> = [];
    for (const [i, developer] of TEAM.entries()) {
      const own = await cli(["report", runs[i]!.sessionId!, "--json"], { env: { HOME: runs[i]!.home } });
      expect(own.code, own.stderr).toBe(0);
      const byRule: Record<string, number> = {};
      for (const scope of JSON.parse(own.stdout).scopes)
        for (const [rule, n] of Object.entries(scope.refusalsByRule as Record<string, number>)) byRule[rule] = (byRule[rule] ?? 0) + n;
      expect(
        Object.values(byRule).reduce((a, b) => a + b, 0),
        developer.name,
      ).toBe(developer.bad.length);
      for (const rule of Object.keys(byRule).sort()) expected.push({ developer: developer.name, rule, refusals: byRule[rule]! });
    }
    const text = await ch.query(`${refusalsQuery().trim()}\nFORMAT JSONEachRow`);
    const got = text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l))
      .map((r) => ({ developer: r.developer, rule: r.rule, refusals: Number(r.refusals) }));
    expect(got).toEqual(expected);
    expect(got.find((r) => r.developer === "ben@desk" && r.rule === "below_floor")?.refusals).toBe(2);
  });

  it("the rows carry Claude Code's session id, prompt id and tool_use_id, and the project", async () => {
    for (const [i, developer] of TEAM.entries()) {
      const rows = (
        await ch.query(
          `SELECT session_id, prompt_id, tool_use_id, project, decision FROM utility_steps FINAL WHERE developer = '${developer.name}' AND event = 'PreToolUse' ORDER BY time_ms FORMAT JSONEachRow`,
        )
      )
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l));
      const transcript = readFileSync(runs[i]!.transcriptPath!, "utf8");
      const promptIds = [...transcript.matchAll(/"promptId":"([^"]+)"/g)].map((m) => m[1]);
      for (const toolUseId of callIds[i]!) expect(rows.map((r) => r.tool_use_id)).toContain(toolUseId);
      for (const row of rows) {
        expect(row.session_id).toBe(runs[i]!.sessionId);
        expect(promptIds).toContain(row.prompt_id);
        expect(row.project).toBe(runs[i]!.cwd.split("/").at(-1));
      }
    }
  });
});
