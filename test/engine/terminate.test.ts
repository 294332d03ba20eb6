import { describe, expect, it } from "vitest";
import type { Action } from "../../src/engine/vocabulary.js";
import { defaultConfig } from "../../src/engine/signals.js";
import { score } from "../../src/engine/select.js";
import { checkTermination } from "../../src/engine/terminate.js";

const config = defaultConfig();
const cand = (action: Action, gain: number, stepCost = 0, uncertainty = 0, redundancy = 0) => ({
  action,
  signals: { gain, stepCost, uncertainty, redundancy },
});
const considered = (...c: ReturnType<typeof cand>[]) => score(c, config.lambdas);

describe("checkTermination", () => {
  it("rule 1: a* = stop terminates", () => {
    const t = checkTermination({ selected: "stop", considered: considered(cand("stop", 0)), step: 0, config });
    expect(t).toMatchObject({ terminate: true, rule: "stop" });
  });

  it("rule 2: step ≥ max_steps terminates whatever the scores", () => {
    const good = considered(cand("retrieve", 1));
    expect(checkTermination({ selected: "retrieve", considered: good, step: 9, config }).terminate).toBe(false);
    expect(checkTermination({ selected: "retrieve", considered: good, step: 10, config })).toMatchObject({
      terminate: true,
      rule: "budget",
    });
    expect(checkTermination({ selected: "retrieve", considered: good, step: 3, config: { ...config, maxSteps: 3 } }).rule).toBe("budget");
  });

  it("rule 1 comes before rule 2", () => {
    expect(checkTermination({ selected: "stop", considered: [], step: 99, config }).rule).toBe("stop");
  });

  it("rule 3: every non-stop candidate below the floor terminates", () => {
    // U = 0.1 − 1 − 0.5·0.6 = −1.2 < −0.5; Gain 0.1 < 0.7
    const low = considered(cand("retrieve", 0.1, 1, 0.6), cand("tool_call", 0.2, 1, 0.6), cand("stop", 0));
    expect(checkTermination({ selected: "retrieve", considered: low, step: 1, config })).toMatchObject({ terminate: true, rule: "floor" });
  });

  it("rule 3 ignores stop and needs every non-stop candidate below the floor", () => {
    const one = considered(cand("retrieve", 0.1, 1, 0.6), cand("tool_call", 0.5, 0.2));
    expect(checkTermination({ selected: "tool_call", considered: one, step: 1, config }).terminate).toBe(false);
  });

  it("the floor is strict: U exactly at the floor continues", () => {
    const at = considered(cand("retrieve", 0, 0.5)); // U = −0.5
    expect(checkTermination({ selected: "retrieve", considered: at, step: 0, config }).terminate).toBe(false);
    const below = considered(cand("retrieve", 0, 0.51));
    expect(checkTermination({ selected: "retrieve", considered: below, step: 0, config }).terminate).toBe(true);
  });

  it("the high-gain override (Gain ≥ 0.7) lifts rule 3 and names the lifting candidate", () => {
    // U = 0.7 − 1 − 0.5 − 0 = −0.8 < −0.5, Gain 0.7
    const lifted = considered(cand("retrieve", 0.7, 1, 1), cand("tool_call", 0.1, 1, 1));
    const t = checkTermination({ selected: "retrieve", considered: lifted, step: 2, config });
    expect(t).toMatchObject({ terminate: false, override: { action: "retrieve", gain: 0.7 } });
  });

  it("the override threshold is inclusive at 0.7 and exclusive below", () => {
    const below = considered(cand("retrieve", 0.69, 1, 1));
    expect(checkTermination({ selected: "retrieve", considered: below, step: 2, config }).rule).toBe("floor");
  });

  it("the override never lifts the budget rule", () => {
    const lifted = considered(cand("retrieve", 0.9, 1, 1));
    expect(checkTermination({ selected: "retrieve", considered: lifted, step: 10, config }).rule).toBe("budget");
  });

  it("says why, naming the step, the budget, the floor and the threshold", () => {
    expect(checkTermination({ selected: "stop", considered: [], step: 0, config })).toEqual({
      terminate: true,
      rule: "stop",
      reason: "the selected action is stop",
    });
    expect(checkTermination({ selected: "retrieve", considered: considered(cand("retrieve", 1)), step: 10, config })).toEqual({
      terminate: true,
      rule: "budget",
      reason: "step 10 has reached max_steps 10",
    });
    expect(checkTermination({ selected: "retrieve", considered: considered(cand("retrieve", 1)), step: 9, config })).toEqual({
      terminate: false,
      reason: "at least one non-stop candidate is at or above the floor",
    });
    expect(checkTermination({ selected: "retrieve", considered: considered(cand("retrieve", 0.1, 1, 1)), step: 1, config })).toEqual({
      terminate: true,
      rule: "floor",
      reason: "every non-stop candidate is below the floor -0.5 and none has Gain ≥ 0.7",
    });
    expect(checkTermination({ selected: "retrieve", considered: considered(cand("retrieve", 0.8, 1, 1)), step: 1, config })).toEqual({
      terminate: false,
      override: { action: "retrieve", gain: 0.8 },
      reason: "every non-stop candidate is below the floor -0.5, but retrieve has Gain 0.8 ≥ 0.7 (high-gain override)",
    });
  });

  it("the override is carried by the candidate of highest Gain, wherever it is in the table", () => {
    const table = considered(
      cand("retrieve", 0.1, 1, 1),
      cand("verify", 0.75, 1, 1),
      cand("tool_call", 0.9, 1, 1),
      cand("delegate", 0.2, 1, 1),
    );
    expect(checkTermination({ selected: "retrieve", considered: table, step: 1, config }).override).toEqual({
      action: "tool_call",
      gain: 0.9,
    });
    expect(checkTermination({ selected: "retrieve", considered: [...table].reverse(), step: 1, config }).override).toEqual({
      action: "tool_call",
      gain: 0.9,
    });
  });

  it("a table of stop alone, or nothing, never trips the floor rule", () => {
    expect(checkTermination({ selected: "retrieve", considered: considered(cand("stop", 0, 1, 1)), step: 1, config }).terminate).toBe(
      false,
    );
    expect(checkTermination({ selected: "retrieve", considered: [], step: 1, config }).terminate).toBe(false);
  });
});
