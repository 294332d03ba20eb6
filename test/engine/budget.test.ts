import { describe, expect, it } from "vitest";
import { BudgetsSchema, checkAgentLimit, checkSpendBudget, tightestBudgets } from "../../src/engine/budget.js";
import { checkReportedStepCost, dominantModel, measuredStepCost, modelTier } from "../../src/engine/measured-step-cost.js";
import { DEFAULT_PRICES, estimateCostUsd } from "../../src/engine/prices.js";
import { zeroSpend, type Spend } from "../../src/engine/spend.js";

const M = 1_000_000;
function spendOf(byModel: Record<string, [number, number, number, number]>, extra: Partial<Spend> = {}): Spend {
  const s = zeroSpend();
  for (const [model, [input, output, cacheCreation, cacheRead]] of Object.entries(byModel)) {
    s.byModel[model] = { input, output, cacheCreation, cacheRead };
    s.tokens.input += input;
    s.tokens.output += output;
    s.tokens.cacheCreation += cacheCreation;
    s.tokens.cacheRead += cacheRead;
  }
  return { ...s, ...extra };
}

describe("BudgetsSchema: the SPEC §12 types", () => {
  it.each([
    [{ tokenBudget: 1 }, true],
    [{ tokenBudget: 0 }, false],
    [{ tokenBudget: 1.5 }, false],
    [{ costBudgetUsd: 0.01 }, true],
    [{ costBudgetUsd: 0 }, false],
    [{ costBudgetUsd: Infinity }, false],
    [{ maxAgents: 0 }, true],
    [{ maxAgents: -1 }, false],
    [{ stepCost: "computed" }, true],
    [{ stepCost: "estimated" }, false],
  ])("%j valid: %s", (b, ok) => {
    expect(BudgetsSchema.safeParse(b).success).toBe(ok);
  });
});

describe("tightestBudgets: budgets only tighten", () => {
  it("the smallest of each budget wins, whichever source sets it", () => {
    expect(tightestBudgets({ tokenBudget: 500, maxAgents: 3 }, { tokenBudget: 100, costBudgetUsd: 2 }, { maxAgents: 1 })).toEqual({
      tokenBudget: 100,
      maxAgents: 1,
      costBudgetUsd: 2,
    });
    expect(tightestBudgets({ tokenBudget: 100 }, { tokenBudget: 500 })).toEqual({ tokenBudget: 100 });
  });
  it("computed wins over reported in either order; absent sources are skipped", () => {
    expect(tightestBudgets({ stepCost: "reported" }, { stepCost: "computed" }).stepCost).toBe("computed");
    expect(tightestBudgets({ stepCost: "computed" }, { stepCost: "reported" }).stepCost).toBe("computed");
    expect(tightestBudgets(undefined, { stepCost: "reported" }, undefined)).toEqual({ stepCost: "reported" });
    expect(tightestBudgets()).toEqual({});
  });
  it("a max of 0 agents is a budget, not an absent one", () => {
    expect(tightestBudgets({ maxAgents: 0 }, { maxAgents: 4 })).toEqual({ maxAgents: 0 });
  });
});

describe("budget_spent: once a task's spend reaches a budget", () => {
  const spend = spendOf({ "claude-sonnet-4-5": [400, 100, 300, 200] }); // 1,000 tokens

  it("tokens: refused at exactly the budget (>=), not one token before", () => {
    expect(checkSpendBudget(spend, { tokenBudget: 1001 }, DEFAULT_PRICES)).toBeUndefined();
    const r = checkSpendBudget(spend, { tokenBudget: 1000 }, DEFAULT_PRICES);
    expect(r?.rule).toBe("budget_spent");
    expect(r?.reason).toContain("1,000 tokens of 1,000");
    expect(r?.reason).toContain("utility_token_budget");
    expect(r?.reason).toContain("input 400, output 100, cache writes 300, cache reads 200");
    expect(r?.reason).toMatch(/Respond with what you have, or stop\./);
  });

  it("all four usage counts count toward the token budget", () => {
    expect(checkSpendBudget(spendOf({ m: [0, 0, 0, 10] }), { tokenBudget: 10 }, DEFAULT_PRICES)?.rule).toBe("budget_spent");
    expect(checkSpendBudget(spendOf({ m: [0, 0, 10, 0] }), { tokenBudget: 10 }, DEFAULT_PRICES)?.rule).toBe("budget_spent");
  });

  it("dollars: refused once the estimated cost reaches the budget", () => {
    const big = spendOf({ "claude-opus-4-5": [M, 0, 0, 0] }); // $5.00
    expect(estimateCostUsd(big.byModel)).toBeCloseTo(5, 9);
    expect(checkSpendBudget(big, { costBudgetUsd: 5.01 }, DEFAULT_PRICES)).toBeUndefined();
    const r = checkSpendBudget(big, { costBudgetUsd: 5 }, DEFAULT_PRICES);
    expect(r?.rule).toBe("budget_spent");
    expect(r?.reason).toContain("an estimated $5.00 of $5.00");
    expect(r?.reason).toContain(DEFAULT_PRICES.date);
    expect(r?.reason).toMatch(/Respond with what you have, or stop\./);
  });

  it("no budget, no refusal, however much was spent", () => {
    expect(checkSpendBudget(spendOf({ m: [M, M, M, M] }), {}, DEFAULT_PRICES)).toBeUndefined();
    expect(checkSpendBudget(spendOf({ m: [M, M, M, M] }), { maxAgents: 0, stepCost: "computed" }, DEFAULT_PRICES)).toBeUndefined();
  });
});

describe("agents_exhausted: an Agent call past utility_max_agents", () => {
  it("parallel launches count one each: with a limit of 2, the first two of three go on", () => {
    const budgets = { maxAgents: 2 };
    const decisions = [0, 1, 2].map((launched) => checkAgentLimit("Agent", launched, budgets));
    expect(decisions[0]).toBeUndefined();
    expect(decisions[1]).toBeUndefined();
    expect(decisions[2]?.rule).toBe("agents_exhausted");
    expect(decisions[2]?.reason).toContain("may launch 2 subagents (utility_max_agents) and has launched 2");
  });
  it("Task launches too; other tools are never counted; a limit of 0 refuses the first", () => {
    expect(checkAgentLimit("Task", 1, { maxAgents: 1 })?.rule).toBe("agents_exhausted");
    expect(checkAgentLimit("Bash", 99, { maxAgents: 0 })).toBeUndefined();
    expect(checkAgentLimit("SendMessage", 99, { maxAgents: 0 })).toBeUndefined();
    expect(checkAgentLimit("Agent", 0, { maxAgents: 0 })?.reason).toContain("may launch 0 subagents");
    expect(checkAgentLimit("Agent", 0, { maxAgents: 1 })?.reason).toBeUndefined();
    expect(checkAgentLimit("Agent", 1000, {})).toBeUndefined();
  });
});

describe("measuredStepCost: §3's formula over measured spend", () => {
  it("with a token budget the budget is the ceiling: 0.5·(3/10) + 0.3·(2500/10000) + 0.2·0.4 = 0.305", () => {
    const spend = spendOf({ "claude-sonnet-4-5": [1000, 500, 500, 500] });
    const c = measuredStepCost({ scope: "self", step: 3, maxSteps: 10, spend, budgets: { tokenBudget: 10000 } });
    expect(c.value).toBeCloseTo(0.15 + 0.075 + 0.08, 9);
    expect(c.shown).toContain("0.3·(2500/10000)");
    expect(c.shown).toContain("(sonnet)");
  });

  it("without a token budget: 0.71·(step/max) + 0.29·model ratio", () => {
    const spend = spendOf({ "claude-haiku-4-5": [10, 10, 0, 0] });
    expect(measuredStepCost({ scope: "self", step: 5, maxSteps: 10, spend, budgets: {} }).value).toBeCloseTo(0.355 + 0.029, 9);
  });

  it("dispatch adds the overhead of the agents launched; other scopes do not", () => {
    const spend = spendOf({ "claude-opus-4-5": [10, 10, 0, 0] }, { agentsLaunched: 4 });
    const base = 0.71 * 0.1 + 0.29 * 1.0;
    expect(measuredStepCost({ scope: "dispatch", step: 1, maxSteps: 10, spend, budgets: {} }).value).toBeCloseTo(base + 0.1, 9);
    expect(measuredStepCost({ scope: "self", step: 1, maxSteps: 10, spend, budgets: {} }).value).toBeCloseTo(base, 9);
  });

  it("is clamped to 1 and says so", () => {
    const spend = spendOf({ "claude-opus-4-5": [50_000, 0, 0, 0] });
    const c = measuredStepCost({ scope: "self", step: 10, maxSteps: 10, spend, budgets: { tokenBudget: 10 } });
    expect(c.value).toBe(1);
    expect(c.clamped).toBe(true);
    expect(c.shown).toContain("clamped to 1.00");
  });

  it("the model ratio comes from the given model, else the one the task spent most on, else opus", () => {
    expect(dominantModel(spendOf({ "claude-haiku-4-5": [10, 0, 0, 0], "claude-sonnet-4-5": [5, 0, 0, 50] }).byModel)).toBe(
      "claude-sonnet-4-5",
    );
    expect(dominantModel({})).toBeUndefined();
    expect(modelTier(undefined)).toBe("opus");
    expect(modelTier("claude-haiku-4-5")).toBe("haiku");
    expect(modelTier("who-knows")).toBe("opus");
    const spend = spendOf({ "claude-sonnet-4-5": [10, 0, 0, 0] });
    expect(measuredStepCost({ scope: "self", step: 0, maxSteps: 10, spend, budgets: {}, model: "claude-haiku-4-5" }).value).toBeCloseTo(
      0.029,
      9,
    );
  });
});

describe("step_cost_understated: a report more than 0.05 below the measured StepCost", () => {
  const measured = { value: 0.3, raw: 0.3, clamped: false, shown: "0.71·(3/10) + 0.29·0.1 (haiku) = 0.30" };
  it("0.05 below exactly passes; anything further is refused with the computed value", () => {
    expect(checkReportedStepCost(0.3, measured)).toBeUndefined();
    expect(checkReportedStepCost(0.25, measured)).toBeUndefined();
    const r = checkReportedStepCost(0.24, measured);
    expect(r?.rule).toBe("step_cost_understated");
    expect(r?.reason).toContain("Rescore with StepCost=0.30");
    expect(r?.reason).toContain(measured.shown);
  });
  it("a difference of 0.05 that floating point makes 0.050000000000000044 still passes", () => {
    const high = { value: 0.8, raw: 0.8, clamped: false, shown: "…" };
    expect(0.8 - 0.75).toBeGreaterThan(0.05);
    expect(checkReportedStepCost(0.75, high)).toBeUndefined();
    expect(checkReportedStepCost(0.74, high)?.rule).toBe("step_cost_understated");
  });

  it("overstating is never refused", () => {
    expect(checkReportedStepCost(1, measured)).toBeUndefined();
  });
});
