// Caps per subagent (SPEC §16) over a history: what each would have stopped
// and saved, by a subagent's own spend before each of its calls; and the
// per-task tool-call budget beside them.
import { describe, expect, it } from "vitest";
import { isAgentCap, savedByCap, subagentPercentilesOf, subagentWhere } from "../../src/history/agent-caps.js";
import { budgetEffect, suggestBudgets, whatIf } from "../../src/history/budgets.js";
import { stoppedLabel, stoppedOf } from "../../src/history/effect-words.js";
import { percentilesOf } from "../../src/history/percentiles.js";
import type { SubagentRow, TaskRow } from "../../src/history/tasks.js";

const place = { session: "3f2a9c1e-0000-4000-8000-000000000000", path: "/p/x.jsonl" };

/** A subagent whose own spend before each of its calls is `trail` (tokens; one call more each time), `tokens` in all. */
function sub(id: string, tokens: number, trail: number[]): SubagentRow {
  return {
    id,
    type: "Explore",
    asked: `find ${id}`,
    tokens,
    costUsd: tokens / 1e6,
    calls: trail.length,
    trail: trail.map((t, i) => ({ tokens: t, costUsd: t / 1e6, calls: i })),
  };
}

function task(n: number, subagents: SubagentRow[], trail: number[] = []): TaskRow {
  const tokens = subagents.reduce((s, a) => s + a.tokens, 0) + 1000;
  return {
    place,
    task: n,
    prompt: `task ${n}`,
    tokens,
    tokenCounts: { input: tokens, output: 0, cacheCreation: 0, cacheRead: 0 },
    byModel: {},
    costUsd: tokens / 1e6,
    calls: trail.length,
    agents: subagents.length,
    subagents,
    repeats: 0,
    repeatTokens: 0,
    identicalOutcomes: 0,
    trail: trail.map((t, i) => ({ tokens: t, costUsd: t / 1e6, calls: i })),
  };
}

describe("a cap per subagent", () => {
  const rows = [task(1, [sub("a", 10_000, [1000, 4000, 8000]), sub("b", 3000, [500, 2000])]), task(2, [sub("c", 9000, [100, 200])])];

  it("stops a subagent at its first call made with its own spend at or over the cap, saving at most the rest", () => {
    expect(savedByCap(rows[0]!.subagents[0]!, "agent_token_budget", 4000)).toEqual({ tokens: 6000, usd: expect.closeTo(0.006, 9) });
    // c spent 9,000 but crossed 4,000 only after its last call: nothing refused, nothing saved.
    expect(savedByCap(rows[1]!.subagents[0]!, "agent_token_budget", 4000)).toBeUndefined();
    const effect = budgetEffect(rows, "agent_token_budget", 2000);
    expect(effect).toMatchObject({ of: "subagents", stopped: 2, subagents: 3, tasks: 2, savedTokens: 6000 + 1000 });
    expect(effect.examples.map((e) => [e.task, e.subagent?.id, e.savedTokens])).toEqual([
      [1, "a", 6000],
      [1, "b", 1000],
    ]);
    expect(effect.examples[0]).not.toHaveProperty("subagent.trail");
  });

  it("a dollar cap reads the same trail's dollars; a tool-call cap its calls", () => {
    expect(budgetEffect(rows, "agent_cost_budget_usd", 0.004)).toMatchObject({ stopped: 1, savedTokens: 6000 });
    // Two calls made: the third call is refused (a's), b and c made only two.
    expect(budgetEffect(rows, "agent_max_tool_calls", 2)).toMatchObject({ stopped: 1, savedTokens: 2000 });
    expect(budgetEffect(rows, "agent_max_tool_calls", 3)).toMatchObject({ stopped: 0, savedTokens: 0 });
  });

  it("is sized from the percentiles per subagent, and the command sets it", () => {
    const p = subagentPercentilesOf(rows);
    expect(p.tokens).toEqual(percentilesOf([10_000, 3000, 9000]));
    expect(p.calls).toEqual(percentilesOf([3, 2, 2]));
    const s = suggestBudgets(
      rows,
      {
        tokens: percentilesOf(rows.map((r) => r.tokens)),
        costUsd: percentilesOf(rows.map((r) => r.costUsd)),
        agents: percentilesOf(rows.map((r) => r.agents)),
        calls: percentilesOf(rows.map((r) => r.calls)),
        subagent: p,
      },
      "utility@m",
    );
    expect(s.budgets.agent_token_budget).toMatchObject({ value: 15_000, effect: { of: "subagents", stopped: 0 } });
    expect(s.budgets.agent_token_budget.derivation).toBe(
      "the 99th percentile of tokens per subagent (10,000, over 3 subagents, fewer than 100, so the 99th percentile is the largest) × 1.5 headroom, rounded up to two significant digits",
    );
    expect(s.budgets.agent_cost_budget_usd.value).toBe(0.015);
    expect(s.budgets.agent_max_tool_calls.value).toBe(5);
    expect(s.budgets.max_tool_calls).toMatchObject({
      value: null,
      derivation: "no task made a tool call: leave it unset (0 would forbid tool calls)",
    });
    expect(s.command).toContain('"agent_token_budget":"15000","agent_cost_budget_usd":"0.015","agent_max_tool_calls":"5"');
    expect(
      whatIf(rows, "agent_token_budget", { ...p.tokens, p90: 3000, p99: 3000 }, null).map((e) => [e.value, e.stopped, e.savedTokens]),
    ).toEqual([[3000, 1, 6000]]);
  });

  it("words: how many of the subagents, and which", () => {
    const effect = budgetEffect(rows, "agent_token_budget", 2000);
    expect(stoppedOf(effect)).toBe("2 of 3 subagents");
    expect(stoppedOf(budgetEffect(rows, "token_budget", 1))).toBe("0 of 2 tasks");
    expect(stoppedLabel(effect.examples[0]!)).toBe(
      'subagent (Explore) launched at task 1: "find a", in session 3f2a9c1e, task 1: "task 1"',
    );
    expect(isAgentCap("agent_max_tool_calls") && !isAgentCap("max_tool_calls")).toBe(true);
    expect(subagentWhere(rows[0]!.subagents[0]!)).not.toHaveProperty("trail");
  });
});

describe("a tool-call budget per task", () => {
  it("stops a task at its first call made with that many calls made, saving at most the rest", () => {
    const rows = [task(1, [], [100, 200, 300, 400]), task(2, [], [100, 200])];
    expect(budgetEffect(rows, "max_tool_calls", 2)).toMatchObject({ of: "tasks", stopped: 1, savedTokens: 1000 - 300 });
    expect(budgetEffect(rows, "max_tool_calls", 4)).toMatchObject({ stopped: 0 });
  });
});
