import { describe, expect, it } from "vitest";
import {
  BUDGET_EXPECTED,
  BUDGET_FIELD,
  BUDGET_KEYS,
  BudgetsSchema,
  STEP_COST_MODES,
  checkAgentLimit,
  hasBudget,
  tightestBudgets,
} from "../../src/engine/budget.js";
import { checkReportedStepCost, dominantModel, measuredStepCost } from "../../src/engine/measured-step-cost.js";
import { EPSILON, STEP_COST_TOLERANCE } from "../../src/engine/defaults.js";
import { zeroSpend, zeroTokens } from "../../src/engine/spend.js";

const tokens = (input: number) => ({ ...zeroTokens(), input });

describe("the budget keys", () => {
  it("each key sets its own field of Budgets, and every field is set by one key", () => {
    expect(Object.keys(BUDGET_FIELD).sort()).toEqual([...BUDGET_KEYS].sort());
    expect(Object.values(BUDGET_FIELD).sort()).toEqual(Object.keys(BudgetsSchema.shape).sort());
    expect(BUDGET_FIELD.utility_token_budget).toBe("tokenBudget");
    expect(BUDGET_FIELD.utility_cost_budget_usd).toBe("costBudgetUsd");
    expect(BUDGET_FIELD.utility_max_agents).toBe("maxAgents");
    expect(BUDGET_FIELD.utility_step_cost).toBe("stepCost");
  });

  it("each key says what it expects, in words that match its schema's bounds", () => {
    expect(Object.keys(BUDGET_EXPECTED).sort()).toEqual([...BUDGET_KEYS].sort());
    expect(BUDGET_EXPECTED.utility_token_budget).toContain("at least 1");
    expect(BUDGET_EXPECTED.utility_cost_budget_usd).toContain("greater than 0");
    expect(BUDGET_EXPECTED.utility_max_agents).toContain("at least 0");
    expect(BUDGET_EXPECTED.utility_step_cost).toBe(STEP_COST_MODES.join(" or "));
    expect(STEP_COST_MODES).toEqual(["reported", "computed"]);
  });
});

describe("hasBudget", () => {
  it("is false with nothing set, or only step cost as reported", () => {
    expect(hasBudget({})).toBe(false);
    expect(hasBudget({ stepCost: "reported" })).toBe(false);
  });

  it.each([{ tokenBudget: 1 }, { costBudgetUsd: 0.5 }, { maxAgents: 0 }, { stepCost: "computed" as const }])(
    "is true with %j alone",
    (b) => {
      expect(hasBudget(b)).toBe(true);
    },
  );
});

describe("tightestBudgets", () => {
  it("sets only the fields some source sets", () => {
    expect(tightestBudgets()).toStrictEqual({});
    expect(tightestBudgets({}, undefined, {})).toStrictEqual({});
    expect(tightestBudgets({ tokenBudget: 5 })).toStrictEqual({ tokenBudget: 5 });
    expect(tightestBudgets({ costBudgetUsd: 2 }, {})).toStrictEqual({ costBudgetUsd: 2 });
    expect(tightestBudgets({}, { maxAgents: 3 })).toStrictEqual({ maxAgents: 3 });
    expect(tightestBudgets({ stepCost: "reported" })).toStrictEqual({ stepCost: "reported" });
  });
});

describe("agents_exhausted wording", () => {
  it("says subagent for a limit of 1 and subagents otherwise", () => {
    expect(checkAgentLimit("Agent", 1, { maxAgents: 1 })?.reason).toContain(
      "may launch 1 subagent (utility_max_agents) and has launched 1: this Agent call",
    );
    expect(checkAgentLimit("Task", 2, { maxAgents: 2 })?.reason).toContain(
      "may launch 2 subagents (utility_max_agents) and has launched 2: this Task call",
    );
    expect(checkAgentLimit("Agent", 0, { maxAgents: 1 })).toBeUndefined();
  });
});

describe("dominantModel", () => {
  it("takes a model that spent nothing when it is the only one", () => {
    expect(dominantModel({ "claude-x": zeroTokens() })).toBe("claude-x");
  });

  it("breaks a tie by name, whatever the order they were seen in", () => {
    expect(dominantModel({ b: tokens(10), a: tokens(10) })).toBe("a");
    expect(dominantModel({ a: tokens(10), b: tokens(10) })).toBe("a");
    expect(dominantModel({ a: tokens(10), b: tokens(11) })).toBe("b");
  });
});

describe("measuredStepCost's shown formula", () => {
  const spend = { ...zeroSpend(), tokens: tokens(2500), byModel: { "claude-sonnet-4-5": tokens(2500) } };

  it("without a token budget names only the progress and the model", () => {
    const c = measuredStepCost({ scope: "self", step: 3, maxSteps: 10, spend, budgets: {} });
    expect(c.shown).toMatch(/^0\.71·\(3\/10\) \+ 0\.29·[\d.]+ \(sonnet\) = [\d.]+$/);
  });

  it("with a token budget adds the tokens term", () => {
    const c = measuredStepCost({ scope: "self", step: 3, maxSteps: 10, spend, budgets: { tokenBudget: 10000 } });
    expect(c.shown).toMatch(/^0\.5·\(3\/10\) \+ 0\.3·\(2500\/10000\) \+ 0\.2·[\d.]+ \(sonnet\) = [\d.]+$/);
  });

  it("in dispatch adds the agents' overhead only when there is one", () => {
    const none = measuredStepCost({ scope: "dispatch", step: 1, maxSteps: 10, spend, budgets: {} });
    expect(none.shown).not.toContain("agents)");
    const four = measuredStepCost({ scope: "dispatch", step: 1, maxSteps: 10, spend: { ...spend, agentsLaunched: 4 }, budgets: {} });
    expect(four.shown).toMatch(/ \+ [\d.]+ \(4 agents\) = /);
  });
});

describe("step_cost_understated's tolerance is inclusive (SPEC §12)", () => {
  it("a shortfall of exactly the tolerance plus EPSILON passes; any more is refused", () => {
    const measured = { value: 0.125, raw: 0.125, clamped: false, shown: "…" };
    const atLimit = measured.value - (STEP_COST_TOLERANCE + EPSILON);
    expect(measured.value - atLimit).toBe(STEP_COST_TOLERANCE + EPSILON); // exact in floating point for these numbers
    expect(checkReportedStepCost(atLimit, measured)).toBeUndefined();
    expect(checkReportedStepCost(atLimit - 1e-9, measured)?.rule).toBe("step_cost_understated");
  });
});
