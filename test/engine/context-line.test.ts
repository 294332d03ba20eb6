import { countTokens } from "@anthropic-ai/tokenizer";
import { describe, expect, it } from "vitest";
import { formatContextLine, spendAgainstBudgets, tierOf } from "../../src/engine/context-line.js";
import { DEFAULT_PRICES, estimateCostUsd } from "../../src/engine/prices.js";
import { zeroSpend, type Spend } from "../../src/engine/spend.js";
import { computeStepCost } from "../../src/engine/step-cost.js";

describe("tierOf", () => {
  it("reads the tier out of the model names the transcript writes", () => {
    expect(tierOf("claude-opus-4-5-20251101")).toBe("opus");
    expect(tierOf("claude-sonnet-4-5")).toBe("sonnet");
    expect(tierOf("claude-3-5-haiku-20241022")).toBe("haiku");
    expect(tierOf("Claude-Opus-4")).toBe("opus");
  });

  it("gives no tier for a name that fits none, or none at all", () => {
    expect(tierOf("gpt-4o")).toBeUndefined();
    expect(tierOf("<synthetic>")).toBeUndefined();
    expect(tierOf(undefined)).toBeUndefined();
  });
});

describe("formatContextLine", () => {
  it("gives the steps taken, the tier, and the StepCost of every action the scope may take", () => {
    expect(formatContextLine({ step: 3, maxSteps: 10, tier: "opus" })).toBe(
      "utility: 3 of 10 steps taken · opus · StepCost retrieve/verify/tool_call/delegate 0.503 · respond 0.29 · stop 0",
    );
    expect(formatContextLine({ step: 0, maxSteps: 10, tier: "sonnet", scope: "dispatch" })).toBe(
      "utility: 0 of 10 steps taken · sonnet · StepCost retrieve/verify/tool_call/delegate 0.116 · respond 0.116 · stop 0",
    );
  });

  it("a subagent has no delegate, nor a task whose agent budget is reached", () => {
    expect(formatContextLine({ step: 2, maxSteps: 8, tier: "haiku", scope: "subagent" })).toBe(
      "utility: 2 of 8 steps taken · haiku · StepCost retrieve/verify/tool_call 0.207 · respond 0.029 · stop 0",
    );
    expect(formatContextLine({ step: 1, maxSteps: 10, tier: "opus", noDelegate: true })).toContain(
      "StepCost retrieve/verify/tool_call 0.361 ·",
    );
  });

  it("in dispatch scope the StepCost carries the overhead of the agents launched; in self it does not", () => {
    const dispatch = formatContextLine({ step: 1, maxSteps: 10, tier: "opus", scope: "dispatch", agentsLaunched: 4 });
    expect(dispatch).toContain("StepCost retrieve/verify/tool_call/delegate 0.461 ·");
    expect(formatContextLine({ step: 1, maxSteps: 10, tier: "opus", scope: "self", agentsLaunched: 4 })).toContain(" 0.361 ·");
  });

  it("its StepCost is the engine's, clamped, for any step; once the steps are spent only respond and stop are left", () => {
    for (let step = 0; step < 10; step++) {
      const line = formatContextLine({ step, maxSteps: 10, tier: "opus" });
      const stated = Number(/tool_call\/delegate ([\d.]+)/.exec(line)![1]);
      expect(stated).toBeCloseTo(computeStepCost({ step, maxSteps: 10, model: "opus" }).value, 3);
      expect(stated).toBeLessThanOrEqual(1);
    }
    for (const step of [10, 12])
      expect(formatContextLine({ step, maxSteps: 10, tier: "opus" })).toBe(
        `utility: ${step} of 10 steps taken · opus · no tool call left · StepCost respond 0.29 · stop 0`,
      );
  });

  it("a spent budget closes the line like spent steps", () => {
    expect(
      formatContextLine({ step: 2, maxSteps: 10, tier: "sonnet", closed: true, spend: { tokens: 2100 }, budgets: { tokens: 2000 } }),
    ).toBe("utility: 2 of 10 steps taken · sonnet · no tool call left · StepCost respond 0.08 · stop 0 · tokens 2k/2k");
  });

  it("without a tier it gives the steps alone: no StepCost it cannot know", () => {
    expect(formatContextLine({ step: 4, maxSteps: 10 })).toBe("utility: 4 of 10 steps taken");
  });

  it("with a token budget the formula takes the token term, and respond the ceiling's model weight", () => {
    const line = formatContextLine({ step: 4, maxSteps: 10, tier: "sonnet", spend: { tokens: 60000 }, budgets: { tokens: 200000 } });
    expect(line).toBe(
      "utility: 4 of 10 steps taken · sonnet · StepCost retrieve/verify/tool_call/delegate 0.37 · respond 0.08 · stop 0 · tokens 60k/200k",
    );
  });

  it("shows spend against each budget, and spend alone where no budget is set", () => {
    const line = formatContextLine({
      step: 1,
      maxSteps: 10,
      tier: "opus",
      spend: { tokens: 1_250_000, costUsd: 0.623, agents: 1 },
      budgets: { costUsd: 2, agents: 3 },
    });
    expect(line).toBe(
      "utility: 1 of 10 steps taken · opus · StepCost retrieve/verify/tool_call/delegate 0.361 · respond 0.29 · stop 0 · tokens 1.3M · $0.62/$2.00 · agents 1/3",
    );
    expect(formatContextLine({ step: 1, maxSteps: 10, spend: { tokens: 950 } })).toBe("utility: 1 of 10 steps taken · tokens 950");
  });

  it("costs few tokens (Claude's older tokenizer, an approximation)", () => {
    expect(countTokens(formatContextLine({ step: 3, maxSteps: 10, tier: "opus" }))).toBeLessThanOrEqual(34);
    const full = formatContextLine({
      step: 3,
      maxSteps: 10,
      tier: "opus",
      spend: { tokens: 41000, costUsd: 0.62, agents: 1 },
      budgets: { tokens: 200000, costUsd: 2, agents: 3 },
    });
    expect(countTokens(full)).toBeLessThanOrEqual(56);
  });
});

describe("spendAgainstBudgets", () => {
  const spend = (): Spend => ({
    ...zeroSpend(),
    tokens: { input: 1000, output: 200, cacheCreation: 0, cacheRead: 300 },
    byModel: { "claude-opus-4-5": { input: 1000, output: 200, cacheCreation: 0, cacheRead: 300 } },
    agentsLaunched: 2,
  });

  it("shows the tokens spent always, and no budget when none is set", () => {
    expect(spendAgainstBudgets(spend(), {}, DEFAULT_PRICES)).toEqual({ spend: { tokens: 1500 }, budgets: {} });
  });

  it("shows cost and agents only where a budget limits them, with each budget set", () => {
    const shown = spendAgainstBudgets(spend(), { tokenBudget: 5000, costBudgetUsd: 1, maxAgents: 3 }, DEFAULT_PRICES);
    expect(shown).toEqual({
      spend: { tokens: 1500, costUsd: estimateCostUsd(spend().byModel, DEFAULT_PRICES), agents: 2 },
      budgets: { tokens: 5000, costUsd: 1, agents: 3 },
    });
    expect(shown.spend!.costUsd).toBeGreaterThan(0);
  });
});
