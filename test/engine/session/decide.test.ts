import { describe, expect, it } from "vitest";
import { decideCall } from "../../../src/engine/session/decide.js";
import { applyEvents } from "../../../src/engine/session/scope-reducer.js";
import { newScope, type GateSource, type ScopeState } from "../../../src/engine/session/state.js";
import { defaultConfig } from "../../../src/engine/signals.js";
import { DEFAULT_PRICES } from "../../../src/engine/prices.js";
import { effectOf, inputDigest } from "../../../src/engine/redundancy.js";

const READ_A = { file_path: "/repo/a.ts" };
const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0";
const report = (action: string, utility = "0.28") => `Action: ${action}\nUtility: ${utility}\nBreakdown: ${GOOD}\nRationale: "worth it"`;
const gate = (over: Partial<GateSource> = {}): GateSource => ({
  file: "/skills/a/SKILL.md",
  gated: true,
  scope: "self",
  config: defaultConfig(),
  extraTools: {},
  ...over,
});
const rule = (d: ReturnType<typeof decideCall>) => (d.decision.decision === "refused" ? d.decision.rule : d.decision.decision);

/** A scope where READ_A has run once. */
function afterOneRead(): ScopeState {
  const call = {
    kind: "call" as const,
    decision: "observed" as const,
    tool: "Read",
    digest: inputDigest(READ_A),
    effect: effectOf("Read", READ_A),
    toolUseId: "t0",
  };
  return applyEvents(newScope(), [call, { kind: "result", toolUseId: "t0", failed: false, bytes: 3 }]).state;
}

describe("decideCall", () => {
  it("observes an ungated call, and its event carries only the fields the call has", () => {
    const d = decideCall(newScope(), "self", undefined, { tool: "Read", input: READ_A });
    expect(d.decision).toStrictEqual({ decision: "observed" });
    expect(d.digest).toBe(inputDigest(READ_A));
    expect(d.event).toStrictEqual({
      kind: "call",
      decision: "observed",
      tool: "Read",
      digest: inputDigest(READ_A),
      effect: effectOf("Read", READ_A),
    });
    expect(d).not.toHaveProperty("repeat");
  });

  it("carries the call's id, its start (0 included) and the job a poll names", () => {
    const d = decideCall(newScope(), "self", undefined, {
      tool: "BashOutput",
      input: { bash_id: "bash_2" },
      toolUseId: "t1",
      startedAt: 0,
    });
    expect(d.event).toMatchObject({ toolUseId: "t1", startedAt: 0, jobOf: "bash_2" });
    expect(decideCall(newScope(), "self", undefined, { tool: "Read", input: READ_A, startedAt: 1000 }).event.startedAt).toBe(1000);
  });

  it("passes a gated call under a good report and records the report's action", () => {
    const d = decideCall(newScope(), "self", gate(), { tool: "Read", input: READ_A, reportText: report("retrieve") });
    expect(d.decision.decision).toBe("passed");
    expect(d.event.action).toBe("retrieve");
    expect(rule(decideCall(newScope(), "self", gate(), { tool: "Read", input: READ_A }))).toBe("no_report");
    expect(decideCall(newScope(), "self", gate(), { tool: "Read", input: READ_A }).event).not.toHaveProperty("action");
  });

  it("refuses every call under a gate whose opt-in is invalid, with the problem", () => {
    const d = decideCall(newScope(), "self", gate({ problem: "utility_floor must be a number" }), {
      tool: "Read",
      input: READ_A,
      reportText: report("retrieve"),
    });
    expect(rule(d)).toBe("optin_invalid");
    expect(d.decision.decision === "refused" && d.decision.reason).toContain("utility_floor must be a number");
  });

  it("decides with the gate's own settings: its step budget and its extra tools", () => {
    const spent = { ...newScope(), step: 1 };
    const oneStep = gate({ config: { ...defaultConfig(), maxSteps: 1 } });
    expect(rule(decideCall(spent, "self", gate(), { tool: "Read", input: READ_A, reportText: report("retrieve") }))).toBe("passed");
    expect(rule(decideCall(spent, "self", oneStep, { tool: "Read", input: READ_A, reportText: report("retrieve") }))).not.toBe("passed");
    const mine = { tool: "mcp__x__fetch_doc", input: {}, reportText: report("retrieve") };
    expect(rule(decideCall(newScope(), "self", gate(), mine))).not.toBe("passed");
    expect(rule(decideCall(newScope(), "self", gate({ extraTools: { retrieve: ["mcp__x__fetch_doc"] } }), mine))).toBe("passed");
  });

  it("refuses a write aimed at the gate's own records, with why", () => {
    const d = decideCall(newScope(), "self", gate(), {
      tool: "Write",
      input: { file_path: "/x" },
      reportText: report("tool_call"),
      protectedTarget: "it is the gate's state file",
    });
    expect(rule(d)).toBe("protected_target");
  });

  it("applies a spent user budget, gated or not", () => {
    const spend = { tokens: { input: 500, output: 600, cacheCreation: 0, cacheRead: 0 }, byModel: {}, toolCalls: 1, agentsLaunched: 0 };
    const budget = { spend, user: { tokenBudget: 1000 }, prices: DEFAULT_PRICES, launched: 0 };
    expect(rule(decideCall(newScope(), "self", undefined, { tool: "Read", input: READ_A, budget }))).toBe("budget_spent");
    expect(rule(decideCall(newScope(), "self", undefined, { tool: "Read", input: READ_A }))).toBe("observed");
  });

  it("finds an exact repeat in the history and returns the call it repeats", () => {
    const ungated = decideCall(afterOneRead(), "self", undefined, { tool: "Read", input: READ_A });
    expect(ungated.repeat).toMatchObject({ tool: "Read", toolUseId: "t0" });
    expect(ungated.decision).toMatchObject({ decision: "observed", hint: expect.any(String) });
    const gated = decideCall(afterOneRead(), "self", gate(), { tool: "Read", input: READ_A, reportText: report("retrieve") });
    expect(rule(gated)).not.toBe("passed");
    expect(decideCall(afterOneRead(), "self", undefined, { tool: "Read", input: { file_path: "/repo/b.ts" } })).not.toHaveProperty(
      "repeat",
    );
  });
});
