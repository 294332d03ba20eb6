import { describe, expect, it } from "vitest";
import { computeStepCost, dispatchOverhead } from "../../src/engine/step-cost.js";

describe("computeStepCost", () => {
  it("reproduces the worked example: step 3 of 10, opus, no ceiling = 0.503", () => {
    const cost = computeStepCost({ step: 3, maxSteps: 10, model: "opus" });
    expect(cost.value).toBeCloseTo(0.503, 12);
    expect(cost.clamped).toBe(false);
  });

  it("uses w = (0.5, 0.3, 0.2) with a token ceiling", () => {
    const cost = computeStepCost({ step: 5, maxSteps: 10, tokens: 5000, tokenCeiling: 10000, model: "sonnet" });
    expect(cost.value).toBeCloseTo(0.5 * 0.5 + 0.3 * 0.5 + 0.2 * 0.4, 12);
  });

  it("takes a token ceiling of 0 as none, and no tokens spent as 0", () => {
    expect(computeStepCost({ step: 3, maxSteps: 10, tokens: 5000, tokenCeiling: 0, model: "opus" }).value).toBeCloseTo(0.503, 12);
    expect(computeStepCost({ step: 5, maxSteps: 10, tokenCeiling: 10000, model: "sonnet" }).value).toBeCloseTo(0.5 * 0.5 + 0.2 * 0.4, 12);
  });

  it("uses the model ratios haiku 0.1, sonnet 0.4, opus 1.0", () => {
    const at0 = (model: "haiku" | "sonnet" | "opus") => computeStepCost({ step: 0, maxSteps: 10, model }).value;
    expect(at0("haiku")).toBeCloseTo(0.029, 12);
    expect(at0("sonnet")).toBeCloseTo(0.116, 12);
    expect(at0("opus")).toBeCloseTo(0.29, 12);
  });

  it.each([
    [0, 0],
    [1, 0],
    [3, 0],
    [4, 0.1],
    [5, 0.1],
    [6, 0.2],
    [8, 0.2],
    [9, 0.3],
    [40, 0.3],
  ])("dispatch overhead for %i agents is +%s", (agents, add) => {
    expect(dispatchOverhead(agents)).toBe(add);
  });

  it("clamps its own result to [0, 1] and says so", () => {
    const cost = computeStepCost({ step: 10, maxSteps: 10, model: "opus", agents: 9 });
    expect(cost.raw).toBeCloseTo(0.71 + 0.29 + 0.3, 12);
    expect(cost.value).toBe(1);
    expect(cost.clamped).toBe(true);
  });
});
