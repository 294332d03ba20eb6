import { describe, expect, it } from "vitest";
import type { Action } from "../../src/engine/vocabulary.js";
import { DEFAULT_CONFIG, TIE_BREAK_ORDER } from "../../src/engine/defaults.js";
import { selectAction } from "../../src/engine/select.js";

const λ = DEFAULT_CONFIG.lambdas;
const flat = (action: Action, gain: number) => ({ action, signals: { gain, stepCost: 0, uncertainty: 0, redundancy: 0 } });

describe("selectAction", () => {
  it("picks the highest utility", () => {
    const s = selectAction([flat("retrieve", 0.4), flat("tool_call", 0.6), flat("respond", 0.5)], λ);
    expect(s.best.action).toBe("tool_call");
    expect(s.ranked.map((c) => c.action)).toEqual(["tool_call", "respond", "retrieve"]);
  });

  it("breaks exact ties in the order stop, respond, verify, retrieve, tool_call, delegate", () => {
    expect(TIE_BREAK_ORDER).toEqual(["stop", "respond", "verify", "retrieve", "tool_call", "delegate"]);
    const all = (["delegate", "tool_call", "retrieve", "verify", "respond", "stop"] as const).map((a) => flat(a, 0.5));
    expect(selectAction(all, λ).ranked.map((c) => c.action)).toEqual([...TIE_BREAK_ORDER]);
    expect(selectAction([flat("tool_call", 0.5), flat("retrieve", 0.5)], λ).best.action).toBe("retrieve");
    expect(selectAction([flat("delegate", 0.5), flat("verify", 0.5)], λ).best.action).toBe("verify");
  });

  it("treats values within 1e-9 as a tie, and larger gaps as none", () => {
    // 0.1 + 0.2 − 0.2 is 0.10000000000000003: equal to 0.1 within 1e-9.
    const a = { action: "tool_call" as const, signals: { gain: 0.3, stepCost: 0.2, uncertainty: 0, redundancy: 0 } };
    const b = flat("retrieve", 0.1);
    expect(selectAction([a, b], λ).best.action).toBe("retrieve");
    expect(selectAction([flat("tool_call", 0.1 + 1e-6), b], λ).best.action).toBe("tool_call");
  });

  it("refuses an empty candidate list", () => {
    expect(() => selectAction([], λ)).toThrow(/at least one candidate/);
  });
});
