import { describe, expect, it } from "vitest";
import { ACTIONS, LambdasSchema, actionsOf, isAction } from "../../src/engine/vocabulary.js";
import { ConfigSchema, SignalsSchema, defaultConfig } from "../../src/engine/signals.js";

const messages = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues.map((i) => i.message) ?? [];
const signals = (over: Record<string, unknown>) => ({ gain: 0.5, stepCost: 0.5, uncertainty: 0.5, redundancy: 0.5, ...over });

describe("SignalsSchema", () => {
  it("takes each signal in [0, 1], both ends included", () => {
    expect(SignalsSchema.safeParse(signals({ gain: 0, stepCost: 1, uncertainty: 0, redundancy: 1 })).success).toBe(true);
  });

  it.each([
    ["gain", "Gain"],
    ["stepCost", "StepCost"],
    ["uncertainty", "Uncertainty"],
    ["redundancy", "Redundancy"],
  ])("refuses %s outside [0, 1] or not a number, naming it as the report writes it", (key, label) => {
    expect(messages(SignalsSchema.safeParse(signals({ [key]: 1.01 })))).toEqual([`${label} must lie in [0, 1]`]);
    expect(messages(SignalsSchema.safeParse(signals({ [key]: -0.01 })))).toEqual([`${label} must lie in [0, 1]`]);
    expect(messages(SignalsSchema.safeParse(signals({ [key]: "0.5" })))).toEqual([`${label} must be a number`]);
  });
});

describe("ConfigSchema", () => {
  it("fills in the defaults, a fresh λ each time", () => {
    const a = defaultConfig();
    expect(a).toEqual({ lambdas: [1, 0.5, 0.8], floor: -0.5, maxSteps: 10, highGainThreshold: 0.7 });
    a.lambdas[0] = 9;
    expect(defaultConfig().lambdas).toEqual([1, 0.5, 0.8]);
  });

  it("takes λ ≥ 0, the floor in [−2.3, 1], max_steps a whole number ≥ 1, the threshold in [0, 1]", () => {
    expect(LambdasSchema.safeParse([0, 0, 0]).success).toBe(true);
    expect(LambdasSchema.safeParse([1, -0.1, 0]).success).toBe(false);
    for (const floor of [-2.3, 1]) expect(ConfigSchema.safeParse({ floor }).success, String(floor)).toBe(true);
    expect(messages(ConfigSchema.safeParse({ floor: -2.31 }))).toEqual(["the floor must lie in [-2.3, 1]"]);
    expect(messages(ConfigSchema.safeParse({ floor: 1.01 }))).toEqual(["the floor must lie in [-2.3, 1]"]);
    expect(ConfigSchema.safeParse({ maxSteps: 1 }).success).toBe(true);
    expect(messages(ConfigSchema.safeParse({ maxSteps: 0 }))).toEqual(["max_steps must be a whole number ≥ 1"]);
    expect(ConfigSchema.safeParse({ maxSteps: 2.5 }).success).toBe(false);
    for (const highGainThreshold of [0, 1]) expect(ConfigSchema.safeParse({ highGainThreshold }).success).toBe(true);
    for (const highGainThreshold of [-0.01, 1.01])
      expect(messages(ConfigSchema.safeParse({ highGainThreshold }))).toEqual(["the high-gain threshold must lie in [0, 1]"]);
  });
});

describe("actions", () => {
  it("knows the six actions and nothing else", () => {
    for (const action of ACTIONS) expect(isAction(action)).toBe(true);
    for (const other of ["search", "Stop", "", "tool-call"]) expect(isAction(other)).toBe(false);
  });

  it("gives a subagent every action but delegate", () => {
    expect(actionsOf("self")).toEqual(ACTIONS);
    expect(actionsOf("dispatch")).toEqual(ACTIONS);
    expect(actionsOf("subagent")).toEqual(["respond", "retrieve", "tool_call", "verify", "stop"]);
  });
});
