// The pure history (src/history/): percentiles, what a budget would have done,
// the suggested settings, a session's tasks from its replay, the builder, and
// the words and page made of them.
import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { subagentPercentilesOf } from "../../src/history/agent-caps.js";
import { budgetEffect, roundUpNicely, SMALLEST_USD_BUDGET, suggestBudgets, whatIf } from "../../src/history/budgets.js";
import { USER_OPTIONS } from "../../src/optin/options.js";
import { renderHistoryHtml } from "../../src/history/html.js";
import { grouped, subagentLabel, taskLabel, tokensText, usdText } from "../../src/history/labels.js";
import { nearestRank, percentilesOf } from "../../src/history/percentiles.js";
import { sessionFindings } from "../../src/history/findings.js";
import { HistoryBuilder, type HistoryReport } from "../../src/history/report.js";
import { firstWords, tasksOfSession, type TaskRow } from "../../src/history/tasks.js";
import { renderHistoryText } from "../../src/history/text.js";
import { replayLines } from "../replay/support.js";

const usage = (input: number, output: number) => ({
  input_tokens: input,
  output_tokens: output,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});
let uuid = 0;
function line(type: string, extra: Record<string, unknown>, agentId?: string): string {
  uuid += 1;
  return JSON.stringify({
    type,
    uuid: `u${uuid}`,
    isSidechain: agentId !== undefined,
    ...(agentId ? { agentId } : {}),
    timestamp: new Date(Date.UTC(2026, 10, 3, 9, 0, uuid)).toISOString(),
    ...extra,
  });
}
const typed = (text: string) => line("user", { message: { role: "user", content: text } });
const said = (id: string, blocks: unknown[], u: object, agentId?: string) =>
  line("assistant", { message: { id, model: "claude-sonnet-4-5", role: "assistant", content: blocks, usage: u } }, agentId);
const toolUse = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });
const resultOf = (id: string, content = "ok", agentId?: string) =>
  line("user", { message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] } }, agentId);

/** Two tasks; the first launches an Explore subagent (its lines carry its agent id) and reads a file twice. */
function twoTasks() {
  return replayLines([
    typed("find the config loader and explain how it reads the schema, then tell me what to change"),
    said("m1", [toolUse("t1", "Read", { file_path: "/r/a.ts" })], usage(100, 10)),
    resultOf("t1", "aaaa"),
    said("m2", [toolUse("t2", "Read", { file_path: "/r/a.ts" })], usage(200, 10)),
    resultOf("t2", "aaaa"),
    said(
      "m3",
      [toolUse("t3", "Agent", { description: "Find the config", prompt: "find it", subagent_type: "Explore", run_in_background: false })],
      usage(300, 10),
    ),
    line("user", { message: { role: "user", content: "find it" } }, "ag1"),
    said("s1", [toolUse("t4", "Grep", { pattern: "x" })], usage(1000, 100), "ag1"),
    resultOf("t4", "hit", "ag1"),
    said("s2", [{ type: "text", text: "found" }], usage(1000, 200), "ag1"),
    resultOf("t3", "found it"),
    said("m4", [{ type: "text", text: "done" }], usage(50, 5)),
    typed("thanks, now rename it"),
    said("m5", [toolUse("t5", "Bash", { command: "git mv a b" })], usage(10, 1)),
    resultOf("t5"),
  ]);
}

const place = { session: "3f2a9c1e-0000-4000-8000-000000000000", project: "-home-me-app", path: "/p/x.jsonl" };

describe("percentiles by nearest rank", () => {
  it("takes the value at rank ceil(p/100·n); the 99th of fewer than 100 values is the largest", () => {
    const ten = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];
    expect(percentilesOf(ten)).toEqual({ n: 10, p50: 5, p90: 9, p99: 10, max: 10 });
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentilesOf(hundred)).toMatchObject({ p50: 50, p90: 90, p99: 99, max: 100 });
    expect(percentilesOf([])).toEqual({ n: 0, p50: 0, p90: 0, p99: 0, max: 0 });
    expect(nearestRank([7], 1)).toBe(7);
  });
});

describe("a session's tasks from its replay", () => {
  const rows = tasksOfSession(twoTasks(), place, DEFAULT_PRICES);

  it("counts a subagent's spend and calls toward the task it was launched in, with a label a person reads", () => {
    expect(rows.map((r) => [r.task, r.tokens, r.calls, r.agents, r.repeats])).toEqual([
      [1, 110 + 210 + 310 + 2300 + 55, 4, 1, 1],
      [2, 11, 1, 0, 0],
    ]);
    expect(rows[0]!.prompt).toBe("find the config loader and explain how it reads the schema, then tell me what…");
    expect(rows[0]!.subagents).toMatchObject([{ type: "Explore", asked: "Find the config", ordinal: 1, tokens: 2300, calls: 1 }]);
    expect(subagentLabel(rows[0]!.subagents[0]!, 1)).toBe('subagent (Explore) launched at task 1: "Find the config"');
    expect(taskLabel({ session: place.session, task: 2, prompt: rows[1]!.prompt!, startedAt: rows[1]!.startedAt! })).toBe(
      'session 3f2a9c1e, task 2 (2026-11-03): "thanks, now rename it"',
    );
  });

  it("keeps, per task, the spend before each call a budget could refuse (its own line's message counted)", () => {
    expect(rows[0]!.trail.map((t) => t.tokens)).toEqual([110, 320, 630, 630 + 1100]);
    expect(rows[1]!.trail.map((t) => t.tokens)).toEqual([11]);
    // The Agent call counts once it is admitted: the subagent's Grep sees it.
    expect(rows[0]!.trail.map((t) => t.calls)).toEqual([0, 1, 2, 3]);
  });

  it("keeps, per subagent, its own spend before each of its calls a cap could refuse (not its task's)", () => {
    expect(rows[0]!.subagents[0]!.trail).toEqual([{ tokens: 1100, costUsd: expect.any(Number), calls: 0 }]);
    expect(rows[0]!.subagents[0]!.trail[0]!.costUsd).toBeGreaterThan(0);
  });
});

function row(task: number, tokens: number, trail: number[], extra: Partial<TaskRow> = {}): TaskRow {
  return {
    place,
    task,
    tokens,
    tokenCounts: { input: tokens, output: 0, cacheCreation: 0, cacheRead: 0 },
    byModel: {},
    costUsd: tokens / 1e6,
    calls: trail.length,
    agents: 0,
    subagents: [],
    repeats: 0,
    repeatTokens: 0,
    identicalOutcomes: 0,
    trail: trail.map((t, i) => ({ tokens: t, costUsd: t / 1e6, calls: i })),
    ...extra,
  };
}

describe("what a budget would have done", () => {
  it("a token budget stops a task at its first call made with the spend at or above it, saving at most the rest", () => {
    const effect = budgetEffect([row(1, 1000, [100, 400, 700]), row(2, 300, [100, 200]), row(3, 900, [100, 200])], "token_budget", 400);
    expect(effect).toMatchObject({ stopped: 1, tasks: 3, savedTokens: 600 });
    // Task 3 crossed 400 only after its last call: no call was refused, nothing saved.
    expect(effect.examples.map((e) => e.task)).toEqual([1]);
  });

  it("a cost budget reads the dollars of the same trail", () => {
    expect(budgetEffect([row(1, 1000, [100, 400, 700])], "cost_budget_usd", 0.0007)).toMatchObject({ stopped: 1, savedTokens: 300 });
  });

  it("an agent budget keeps the subagents past it from starting: their spend is what it saves", () => {
    const subs = [1, 2, 3].map((ordinal) => ({ id: `agent:a${ordinal}`, ordinal, tokens: ordinal * 100, costUsd: 0, calls: 1, trail: [] }));
    expect(budgetEffect([row(1, 5000, [], { agents: 3, subagents: subs })], "max_agents", 1)).toMatchObject({
      stopped: 1,
      savedTokens: 500,
    });
    expect(budgetEffect([row(1, 5000, [], { agents: 3, subagents: subs })], "max_agents", 3).stopped).toBe(0);
  });

  it("rounds a value up to two significant digits", () => {
    expect([123456, 0.4312, 5, 99.1, 0.01, 0].map(roundUpNicely)).toEqual([130000, 0.44, 5, 100, 0.01, 0]);
  });

  it("suggests the 99th percentile with 50% headroom, says how, and gives the command that sets it", () => {
    const rows = [row(1, 1000, [10, 500]), row(2, 20_000, [10, 9000, 15_000]), row(3, 4000, [10])];
    const p = {
      tokens: percentilesOf(rows.map((r) => r.tokens)),
      costUsd: percentilesOf(rows.map((r) => r.costUsd)),
      agents: percentilesOf([0, 0, 0]),
      calls: percentilesOf(rows.map((r) => r.calls)),
      subagent: subagentPercentilesOf(rows),
    };
    const s = suggestBudgets(rows, p, "utility@my-market");
    expect(s.budgets.token_budget).toMatchObject({ value: 30000, effect: { stopped: 0 } });
    expect(s.budgets.token_budget.derivation).toBe(
      "the 99th percentile of tokens per task (20,000, over 3 tasks, fewer than 100, so the 99th percentile is the largest) × 1.5 headroom, rounded up to two significant digits",
    );
    expect(s.budgets.cost_budget_usd.value).toBe(0.03);
    expect(s.budgets.max_agents).toMatchObject({ value: null });
    // 3 calls at most per task: 3 × 1.5 rounded up, at least one more.
    expect(s.budgets.max_tool_calls).toMatchObject({ value: 5 });
    expect(s.budgets.agent_token_budget).toMatchObject({ value: null, derivation: "no subagent in these sessions: leave it unset" });
    expect(s.command).toBe(
      `echo '{"token_budget":"30000","cost_budget_usd":"0.03","max_tool_calls":"5"}' | claude plugin configure utility@my-market --values-stdin`,
    );
    expect(whatIf(rows, "token_budget", p.tokens, 30000).map((e) => [e.value, e.stopped])).toEqual([
      [20000, 0],
      [30000, 0],
    ]);
    expect(
      whatIf(rows, "token_budget", { ...p.tokens, p90: 8000, p99: 8000 }, null).map((e) => [e.value, e.stopped, e.savedTokens]),
    ).toEqual([[8000, 1, 11000]]);
  });
});

describe("a dollar budget suggested from tasks that spent less than a cent (first-hour walk 34, surprise 8)", () => {
  const sized = (rows: TaskRow[]) => ({
    tokens: percentilesOf(rows.map((r) => r.tokens)),
    costUsd: percentilesOf(rows.map((r) => r.costUsd)),
    agents: percentilesOf(rows.map(() => 0)),
    calls: percentilesOf(rows.map((r) => r.calls)),
    subagent: subagentPercentilesOf(rows),
  });

  it("prints the percentile with its digits, and says the suggestion was raised to the smallest budget allowed", () => {
    const rows = [row(1, 440, [10], { costUsd: 0.0038 }), row(2, 220, [], { costUsd: 0.0019 })];
    const s = suggestBudgets(rows, sized(rows), "utility@my-market");
    expect(s.budgets.cost_budget_usd.value).toBe(0.01);
    expect(s.budgets.cost_budget_usd.derivation).toBe(
      "the 99th percentile of dollars per task ($0.0038, over 2 tasks, fewer than 100, so the 99th percentile is the largest) × 1.5 headroom, rounded up to two significant digits ($0.0057), raised to 0.01, the smallest value cost_budget_usd takes",
    );
  });

  it("says nothing of a raise when the rounded value is allowed as it is", () => {
    const rows = [row(1, 440, [10], { costUsd: 0.0234 })];
    const s = suggestBudgets(rows, sized(rows), "utility@my-market");
    expect(s.budgets.cost_budget_usd.value).toBe(0.036);
    expect(s.budgets.cost_budget_usd.derivation).toBe(
      "the 99th percentile of dollars per task ($0.0234, over 1 task, fewer than 100, so the 99th percentile is the largest) × 1.5 headroom, rounded up to two significant digits",
    );
  });

  it("the smallest dollar budget is the one the settings take", () => {
    const mins = USER_OPTIONS.filter((o) => o.option === "cost_budget_usd" || o.option === "agent_cost_budget_usd").map((o) => o.min);
    expect(mins).toEqual([SMALLEST_USD_BUDGET, SMALLEST_USD_BUDGET]);
  });
});

describe("the history of several sessions", () => {
  const findings = sessionFindings(twoTasks(), place, { count: 1, bytes: 1234 }, DEFAULT_PRICES);
  const options = { prices: DEFAULT_PRICES, pluginId: "utility@m", policy: "P", tokenEstimate: "E" };

  it("adds sessions up; --since leaves out the tasks started before it, and their repeats", () => {
    const all = new HistoryBuilder(options);
    all.add(findings);
    const report = all.report({ what: "project", projects: ["-home-me-app"] });
    expect(report.totals).toMatchObject({ tasks: 2, calls: 5, agents: 1, repeats: 1, identicalOutcomes: 0 });
    expect(report.totals.spend.total).toBe(2985 + 11);
    expect(report.repeats.byTool).toEqual([{ tool: "Read", count: 1 }]);
    const later = new HistoryBuilder({ ...options, sinceMs: Date.parse(findings.rows[1]!.startedAt!) });
    later.add(findings);
    expect(later.report({ what: "project", projects: [] }).totals).toMatchObject({ tasks: 1, repeats: 0, calls: 1 });
  });

  it("counts identical outcomes (SPEC §13) in the tasks kept: --since leaves out an earlier task's", () => {
    const first = findings.rows[0]!.task;
    const second = findings.rows[1]!.task;
    const withIdentical = { ...findings, scopes: findings.scopes.map((s) => ({ ...s, identical: [first, second, second] })) };
    const counted = new HistoryBuilder(options);
    counted.add(withIdentical);
    expect(counted.report({ what: "project", projects: [] }).totals.identicalOutcomes).toBe(3 * findings.scopes.length);
    const later = new HistoryBuilder({ ...options, sinceMs: Date.parse(findings.rows[1]!.startedAt!) });
    later.add(withIdentical);
    // The main scope's two in the second task; the subagent was launched in the first, so all of its are left out.
    expect(findings.scopes.filter((scope) => scope.rootTask === first)).toHaveLength(findings.scopes.length - 1);
    expect(later.report({ what: "project", projects: [] }).totals.identicalOutcomes).toBe(2);
  });
});

describe("stuck loops in a history (first-hour walk 34, surprise 6)", () => {
  const options = { prices: DEFAULT_PRICES, pluginId: "utility@m", policy: "P", tokenEstimate: "E" };
  const findings = sessionFindings(twoTasks(), place, { count: 1, bytes: 10 }, DEFAULT_PRICES);
  const second = findings.rows[1]!.task;
  const withStuck = {
    ...findings,
    scopes: findings.scopes.map((s, i) => ({ ...s, stuck: i === 0 ? [{ tool: "Bash", task: second, runs: 3, refused: false }] : [] })),
  };

  it("keeps each with its task, and names it in the text and on the page", () => {
    const built = new HistoryBuilder(options);
    built.add(withStuck);
    const report = built.report({ what: "project", projects: [] });
    expect(report.totals.stuckLoops).toBe(1);
    expect(report.stuckLoops).toMatchObject([{ session: place.session, task: second, tool: "Bash", runs: 3, refused: false }]);
    const text = renderHistoryText(report);
    expect(text).toContain("Stuck loops: 1 call came after the last runs of the same call had all returned the same result, byte for byte");
    expect(text).toContain(`  Bash after 3 runs with one result, in session 3f2a9c1e, task ${second}`);
    expect(renderHistoryHtml(report)).toContain(`Bash after 3 runs with one result, in session 3f2a9c1e, task ${second}`);
  });

  it("leaves out a task --since leaves out, and says none when there is none", () => {
    const inFirst = {
      ...withStuck,
      scopes: withStuck.scopes.map((sc) => ({ ...sc, stuck: sc.stuck.map((f) => ({ ...f, task: findings.rows[0]!.task })) })),
    };
    const later = new HistoryBuilder({ ...options, sinceMs: Date.parse(findings.rows[1]!.startedAt!) });
    later.add(inFirst);
    const report = later.report({ what: "project", projects: [] });
    expect(report.totals).toMatchObject({ tasks: 1, stuckLoops: 0 });
    expect(renderHistoryText(report)).toContain("Stuck loops: none: no call came after");
  });
});

describe("the words and the page", () => {
  const history = new HistoryBuilder({ prices: DEFAULT_PRICES, pluginId: "utility@m", policy: "P", tokenEstimate: "E" });
  history.add(sessionFindings(twoTasks(), { ...place, session: "<script>alert(1)</script>" }, { count: 1, bytes: 1234 }, DEFAULT_PRICES));
  const report: HistoryReport = history.report({ what: "project", projects: ["-home-me-app"] });

  it("numbers a person reads", () => {
    expect([grouped(1234567.891), grouped(12), grouped(-1234)]).toEqual(["1,234,567.89", "12", "-1,234"]);
    expect([tokensText(1234), tokensText(123_456), tokensText(12_345_678), tokensText(1.25e9)]).toEqual([
      "1,234",
      "123 k",
      "12.3 M",
      "1.25 B",
    ]);
    expect([usdText(0), usdText(0.004), usdText(1234.5)]).toEqual(["$0", "$0.0040", "$1,234.50"]);
    expect(firstWords("a  b\n c", 80)).toBe("a b c");
  });

  it("text: what was read, spend per task, the largest, budgets, repeats, the settings and their command", () => {
    const text = renderHistoryText({ ...report, read: { ...report.read, unreadable: [] } });
    expect(text).toMatch(
      /^utility replay: this project's sessions \(-home-me-app\): 1 session, 1 file, 1 kB, tasks from 2026-11-03 to 2026-11-03$/m,
    );
    expect(text).toContain("Spend per task (2 tasks; percentiles by nearest rank):");
    expect(text).toContain('subagent (Explore) launched at task 1: "Find the config"');
    expect(text).toContain(
      "Exact repeats: 1 call (20% of the calls) repeated an identical call with nothing in between that could change its result, ≈ 1 tokens of results; most: Read 1",
    );
    expect(text).toContain(
      'echo \'{"token_budget":"4500","cost_budget_usd":"0.02","max_agents":"2","max_tool_calls":"6","agent_token_budget":"3500","agent_cost_budget_usd":"0.016","agent_max_tool_calls":"2"}\' | claude plugin configure utility@m --values-stdin',
    );
  });

  it("the page escapes what came from the sessions, and fetches nothing", () => {
    const html = renderHistoryHtml(report);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html.match(/<rect class="task/g)).toHaveLength(2);
  });
});
