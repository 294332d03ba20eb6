// The gate's runaway rules: a stuck loop (SPEC §13, rule no_progress), a fallback to
// the user when a report is unsure (SPEC §14, "ask"), and budgets beyond one task (SPEC §12).
import { describe, expect, it } from "vitest";
import { decideToolCall, type GateBudget, type GateDecision, type GateInput } from "../../src/engine/gate.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { defaultConfig } from "../../src/engine/signals.js";
import { zeroSpend, type Spend } from "../../src/engine/spend.js";
import type { RanResult } from "../../src/engine/no-progress.js";

const report = (action: string, utility: string, signals: string, rationale = "Run it.") =>
  `Action: ${action}\nUtility: ${utility}\nBreakdown: ${signals}\nRationale: "${rationale}"`;
const SURE = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0"; // U 0.28
const UNSURE = "Gain=0.7 StepCost=0.12 Uncertainty=0.9 Redundancy=0.0"; // U 0.13
const EXPECTING = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.9"; // U -0.44
const exec = { kind: "exec" } as const;
const STUCK: RanResult[] = [1, 3, 5].map((at) => ({ tool: "Bash", digest: "d", effect: exec, at, result: "FAIL" }));

function decide(over: Partial<GateInput>): GateDecision {
  return decideToolCall({
    scope: "self",
    gated: true,
    tool: "Bash",
    step: 6,
    config: defaultConfig(),
    extraTools: {},
    reportText: report("tool_call", "0.28", SURE),
    ...over,
  });
}
const ruleOf = (d: GateDecision) => (d.decision === "refused" ? d.rule : d.decision);

describe("a stuck loop's next run (SPEC §13)", () => {
  it("is refused under the gate with no_progress, the three steps and U with Redundancy 0.9", () => {
    const d = decide({ stuck: STUCK });
    expect(d).toMatchObject({ decision: "refused", rule: "no_progress" });
    const reason = d.decision === "refused" ? d.reason : "";
    expect(reason).toContain("The last 3 runs of this Bash call (steps 1, 3 and 5) returned the same result, byte for byte");
    expect(reason).toContain("Redundancy is at least 0.9, not 0.");
    expect(reason).toContain("With Redundancy=0.9: 0.7 − 1.0·0.12 − 0.5·0.6 − 0.8·0.9 = -0.44.");
  });

  it("runs when the report expects the same result: Redundancy ≥ 0.9", () => {
    expect(decide({ stuck: STUCK, reportText: report("tool_call", "-0.44", EXPECTING) }).decision).toBe("passed");
    expect(
      ruleOf(decide({ stuck: STUCK, reportText: report("tool_call", "-0.36", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.8") })),
    ).toBe("no_progress");
  });

  it("is a hint in an ungated scope, never a refusal; with an exact repeat, both hints", () => {
    const d = decide({ gated: false, stuck: STUCK });
    expect(d.decision).toBe("observed");
    expect(d.decision === "observed" && d.hint).toContain("the last 3 runs of this Bash call (steps 1, 3 and 5) returned the same result");
    const both = decide({ gated: false, stuck: STUCK, repeat: { previous: STUCK[2]! } });
    expect(both.decision === "observed" && both.hint?.split("\n")).toHaveLength(2);
    expect(decide({ gated: false })).toEqual({ decision: "observed" });
  });

  it("comes after the report's own checks and the exact-repeat rule", () => {
    expect(ruleOf(decide({ stuck: STUCK, reportText: undefined }))).toBe("no_report");
    expect(ruleOf(decide({ stuck: STUCK, repeat: { previous: STUCK[2]! } }))).toBe("exact_repeat");
    expect(ruleOf(decide({ stuck: STUCK, reportText: report("retrieve", "0.28", SURE) }))).toBe("tool_not_permitted");
  });
});

describe("an unsure report falls back to the user (SPEC §14)", () => {
  const asked = (d: GateDecision) => (d.decision === "passed" ? d.fallback : undefined);

  it("a tool_call at or above the threshold asks, with the reason; never allows", () => {
    const d = decide({ confirmAboveUncertainty: 0.9, reportText: report("tool_call", "0.13", UNSURE, "Might work.") });
    expect(d.decision).toBe("passed");
    expect(asked(d)).toEqual({
      to: "user",
      reason:
        'utility: this Bash call\'s report chose tool_call with Uncertainty=0.9, at or above 0.9 (utility_confirm_above_uncertainty), so you decide whether it runs. Its rationale: "Might work."',
    });
  });

  it("below the threshold, or with none, it passes as before", () => {
    expect(asked(decide({ confirmAboveUncertainty: 0.61 }))).toBeUndefined();
    expect(asked(decide({}))).toBeUndefined();
    expect(asked(decide({ confirmAboveUncertainty: 0.6 }))?.to).toBe("user");
    expect(asked(decide({ confirmAboveUncertainty: 0 }))?.to).toBe("user");
  });

  it("a delegate asks too; retrieve and verify do not", () => {
    expect(asked(decide({ tool: "Agent", confirmAboveUncertainty: 0.5, reportText: report("delegate", "0.28", SURE) }))?.to).toBe("user");
    expect(asked(decide({ tool: "Read", confirmAboveUncertainty: 0.5, reportText: report("retrieve", "0.28", SURE) }))).toBeUndefined();
    expect(asked(decide({ confirmAboveUncertainty: 0.5, reportText: report("verify", "0.28", SURE) }))).toBeUndefined();
  });

  it("only a call that passed every rule asks: a refusal stays a refusal, an ungated scope reads no report", () => {
    expect(ruleOf(decide({ confirmAboveUncertainty: 0.1, reportText: report("tool_call", "0.9", SURE) }))).toBe("utility_mismatch");
    expect(ruleOf(decide({ confirmAboveUncertainty: 0.1, stuck: STUCK }))).toBe("no_progress");
    expect(decide({ gated: false, confirmAboveUncertainty: 0 })).toEqual({ decision: "observed" });
  });
});

describe("budgets beyond one task in the gate (SPEC §12)", () => {
  const opus = (input: number): Spend => {
    const s = zeroSpend();
    s.tokens.input = input;
    s.byModel["claude-opus-4-5"] = { ...s.tokens };
    return s;
  };
  const budget = (over: Partial<GateBudget>): GateBudget => ({
    spend: zeroSpend(),
    user: {},
    prices: DEFAULT_PRICES,
    launched: 0,
    ...over,
  });

  it("refuses in every scope, gated or not, once the session's budget is spent; planning tools excepted", () => {
    const beyond = { budgets: { sessionTokenBudget: 100 }, spent: { session: opus(100) } };
    for (const gated of [true, false]) {
      const d = decide({ gated, budget: budget({ beyond }) });
      expect(ruleOf(d)).toBe("budget_spent");
      expect(d.decision === "refused" && d.reason).toContain("session_token_budget");
    }
    expect(decide({ tool: "TodoWrite", gated: false, budget: budget({ beyond }) }).decision).toBe("neutral");
    expect(decide({ budget: budget({ beyond: { ...beyond, spent: { session: opus(99) } } }) }).decision).toBe("passed");
  });

  it("refuses once the window's spend reaches its budget, and after the task's own budgets", () => {
    const beyond = { budgets: { windowCostBudgetUsd: 0.0001 }, spent: { session: zeroSpend(), window: opus(1000) } };
    expect(decide({ gated: false, budget: budget({ beyond }) }).decision === "refused").toBe(true);
    const both = decide({ budget: budget({ beyond, spend: opus(50), user: { tokenBudget: 10 } }) });
    expect(both.decision === "refused" && both.reason).toContain("This task's token budget is spent");
  });
});
