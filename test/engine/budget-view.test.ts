import { describe, expect, it } from "vitest";
import { budgetNotice, gaugesOf, levelOf, type Gauge } from "../../src/engine/budget-view.js";
import { BUDGET_NOTICE_THRESHOLDS } from "../../src/engine/defaults.js";
import type { GateBudget } from "../../src/engine/gate-input.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { zeroSpend, type Spend } from "../../src/engine/spend.js";

function spent(input: number, toolCalls = 0): Spend {
  const s = zeroSpend();
  s.tokens.input = input;
  s.byModel["claude-opus-5-5"] = { ...s.tokens };
  s.toolCalls = toolCalls;
  return s;
}
const budget = (over: Partial<GateBudget>): GateBudget => ({ spend: zeroSpend(), user: {}, prices: DEFAULT_PRICES, launched: 0, ...over });
const gauge = (id: string, used: number, limit: number): Gauge => {
  const [span, unit] = id.split(".") as [Gauge["span"], Gauge["unit"]];
  return { id, span, unit, used, limit };
};

describe("the budgets that bind a scope, as gauges", () => {
  it("none set: none", () => {
    expect(gaugesOf(budget({}))).toEqual([]);
  });

  it("each budget in force, the tightest of the user's and the frontmatter's, with what is spent against it", () => {
    const g = gaugesOf(
      budget({
        spend: spent(1000, 3),
        user: { tokenBudget: 5000, maxToolCalls: 10, maxAgents: 2 },
        gate: { tokenBudget: 4000, costBudgetUsd: 1 },
        launched: 1,
      }),
    );
    expect(g.map((x) => [x.id, x.used, x.limit])).toEqual([
      ["task.tokens", 1000, 4000],
      ["task.usd", 0.005, 1],
      ["task.calls", 3, 10],
      ["task.agents", 1, 2],
    ]);
  });

  it("a subagent's own caps come first, from its own spend; the session's and the window's after the task's", () => {
    const g = gaugesOf(
      budget({
        spend: spent(9000, 9),
        user: { agentTokenBudget: 100, agentMaxToolCalls: 5 },
        agent: { spend: spent(50, 2), label: "the subagent x (agent a)" },
        beyond: {
          budgets: { sessionTokenBudget: 20000, sessionMaxToolCalls: 40, windowCostBudgetUsd: 2 },
          spent: { session: spent(12000, 12), window: spent(200_000) },
        },
      }),
    );
    expect(g.map((x) => [x.id, x.used, x.limit])).toEqual([
      ["agent.tokens", 50, 100],
      ["agent.calls", 2, 5],
      ["session.tokens", 12000, 20000],
      ["session.calls", 12, 40],
      ["window.usd", 1, 2],
    ]);
  });

  it("the window is left out when its spend was not read", () => {
    const g = gaugesOf(budget({ beyond: { budgets: { windowCostBudgetUsd: 2 }, spent: { session: zeroSpend() } } }));
    expect(g).toEqual([]);
  });
});

describe("levels: one half, four fifths, all", () => {
  it("are the thresholds the spec names", () => {
    expect(BUDGET_NOTICE_THRESHOLDS).toEqual([0.5, 0.8, 1]);
  });

  it.each([
    [0, 0],
    [49, 0],
    [50, 1],
    [79, 1],
    [80, 2],
    [99, 2],
    [100, 3],
    [150, 3],
  ])("%i of 100 is level %i", (used, level) => {
    expect(levelOf({ used, limit: 100 })).toBe(level);
  });
});

describe("what the model is told", () => {
  const tokens = (used: number) => gauge("task.tokens", used, 200_000);

  it("nothing when no budget binds", () => {
    expect(budgetNotice([], undefined)).toEqual({ levels: {} });
  });

  it("at the start: what is left of each, by span, in few words", () => {
    const n = budgetNotice(
      [gauge("agent.tokens", 0, 50_000), gauge("task.tokens", 1200, 200_000), gauge("task.calls", 4, 40), gauge("session.usd", 0.5, 5)],
      undefined,
    );
    expect(n.text).toBe("utility budget left: this subagent 50k tokens · task 199k tokens, 36 tool calls · session $4.50");
    expect(n.levels).toEqual({ "agent.tokens": 0, "task.tokens": 0, "task.calls": 0, "session.usd": 0 });
    expect(n.text!.length).toBeLessThan(120);
  });

  it("at the start, only the spans asked for; every budget's level is remembered all the same", () => {
    const gauges = [gauge("agent.calls", 0, 5), gauge("task.tokens", 1000, 200_000)];
    const own = budgetNotice(gauges, undefined, (span) => span === "agent");
    expect(own).toEqual({ text: "utility budget left: this subagent 5 tool calls", levels: { "agent.calls": 0, "task.tokens": 0 } });
    expect(budgetNotice([gauge("task.tokens", 1000, 200_000)], undefined, (span) => span === "agent")).toEqual({
      levels: { "task.tokens": 0 },
    });
    expect(budgetNotice([gauge("task.tokens", 150_000, 200_000)], own.levels).text).toBe(
      "utility budget: task tokens 75% used, 50k tokens left",
    );
  });

  it("nothing more until a threshold is crossed, then that budget once", () => {
    const start = budgetNotice([tokens(0)], undefined).levels;
    expect(budgetNotice([tokens(99_999)], start)).toEqual({ levels: { "task.tokens": 0 } });
    const half = budgetNotice([tokens(104_000)], start);
    expect(half.text).toBe("utility budget: task tokens 52% used, 96k tokens left");
    expect(budgetNotice([tokens(150_000)], half.levels).text).toBeUndefined();
    const most = budgetNotice([tokens(170_000)], half.levels);
    expect(most.text).toBe("utility budget: task tokens 85% used, 30k tokens left");
    expect(budgetNotice([tokens(201_000)], most.levels).text).toBe(
      "utility budget: task tokens all used (201k of 200k): answer with what you have",
    );
  });

  it("two thresholds crossed at once are told once, at the higher", () => {
    expect(budgetNotice([tokens(190_000)], { "task.tokens": 0 }).text).toBe("utility budget: task tokens 95% used, 10k tokens left");
  });

  it("a budget that came to bind since the start is told with what is left of it", () => {
    const n = budgetNotice([tokens(10), gauge("task.usd", 0.25, 1)], { "task.tokens": 0 });
    expect(n.text).toBe("utility budget: left: task $0.75");
    expect(n.levels).toEqual({ "task.tokens": 0, "task.usd": 0 });
  });

  it("dollars, tool calls and subagents in their own words", () => {
    expect(budgetNotice([gauge("task.usd", 0.8, 1)], { "task.usd": 1 }).text).toBe("utility budget: task cost 80% used, $0.20 left");
    expect(budgetNotice([gauge("agent.calls", 5, 10)], { "agent.calls": 0 }).text).toBe(
      "utility budget: this subagent tool calls 50% used, 5 tool calls left",
    );
    expect(budgetNotice([gauge("task.agents", 2, 2)], undefined).text).toBe("utility budget left: task 0 subagents");
    expect(budgetNotice([gauge("task.calls", 4, 5), gauge("task.agents", 1, 2)], undefined).text).toBe(
      "utility budget left: task 1 tool call, 1 subagent",
    );
  });
});
