import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/engine/vocabulary.js";
import { decideToolCall, type GateDecision, type GateInput } from "../../src/engine/gate.js";
import { defaultConfig } from "../../src/engine/signals.js";

const report = (action: string, utility: string, breakdown: string, rationale = '"because"') =>
  `Action: ${action}\nUtility: ${utility}\nBreakdown: ${breakdown}\nRationale: ${rationale}`;
const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0"; // U = 0.28

function decide(over: Partial<GateInput>): GateDecision {
  return decideToolCall({
    scope: "self",
    gated: true,
    tool: "Bash",
    step: 0,
    config: defaultConfig(),
    extraTools: {},
    reportText: report("tool_call", "0.28", GOOD),
    ...over,
  });
}

function refusedRule(d: GateDecision) {
  if (d.decision !== "refused") throw new Error(`expected a refusal, got ${d.decision}`);
  return d;
}

const repeat = { previous: { tool: "Read", digest: "d", effect: { kind: "read" as const, paths: ["/a"] }, at: 3 } };

describe.each<Scope>(["self", "subagent", "dispatch"])("the gate's decision table in %s scope (SPEC §6)", (scope) => {
  it("no report → refuse, ask for one and show the template", () => {
    const d = refusedRule(decide({ scope, reportText: undefined }));
    expect(d.rule).toBe("no_report");
    expect(d.reason).toContain("Breakdown: Gain=<0..1>");
    expect(refusedRule(decide({ scope, reportText: "I'll just run it." })).rule).toBe("no_report");
  });

  it("a malformed report or a signal out of range → refuse naming the field", () => {
    expect(
      refusedRule(decide({ scope, reportText: report("tool_call", "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6") })).reason,
    ).toContain("missing Redundancy");
    const d = refusedRule(
      decide({ scope, reportText: report("tool_call", "0.28", "Gain=1.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0") }),
    );
    expect(d.rule).toBe("malformed");
    expect(d.reason).toContain("Gain is 1.7");
  });

  it("an unknown action → refuse and list the scope's actions", () => {
    const d = refusedRule(decide({ scope, reportText: report("search", "0.28", GOOD) }));
    expect(d.rule).toBe("unknown_action");
    expect(d.reason).toContain(
      scope === "subagent" ? "respond, retrieve, tool_call, verify, stop" : "respond, retrieve, tool_call, verify, delegate, stop",
    );
  });

  it("an unknown action in a Candidates row → refuse as unknown_action, not as malformed (the parse problem's kind, not its text)", () => {
    const text = `Candidates:\n- search: ${GOOD}\n- tool_call: ${GOOD}\n${report("tool_call", "0.28", GOOD)}`;
    const d = refusedRule(decide({ scope, reportText: text }));
    expect(d.rule).toBe("unknown_action");
    expect(d.reason).toContain('"search" is not an action');
  });

  it("a Utility that disagrees → refuse with the recomputed value", () => {
    const d = refusedRule(decide({ scope, reportText: report("tool_call", "0.35", GOOD) }));
    expect(d.rule).toBe("utility_mismatch");
    expect(d.reason).toContain("Write Utility: 0.28");
  });

  it("a long form whose Action is not the argmax → refuse naming the argmax", () => {
    const text = `Candidates:\n- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0\n- tool_call: ${GOOD}\n${report("tool_call", "0.28", GOOD)}`;
    const d = refusedRule(decide({ scope, reportText: text }));
    expect(d.rule).toBe("not_argmax");
    expect(d.reason).toContain("retrieve has U = 0.30");
  });

  it("step ≥ max_steps → refuse: the budget is spent", () => {
    expect(decide({ scope, step: 9 }).decision).toBe("passed");
    const d = refusedRule(decide({ scope, step: 10 }));
    expect(d.rule).toBe("budget_spent");
    expect(d.reason).toMatch(/Respond with what you have, or stop/);
    expect(refusedRule(decide({ scope, step: 2, config: { ...defaultConfig(), maxSteps: 2 } })).rule).toBe("budget_spent");
  });

  it.each(["respond", "stop"])("Action %s → refuse: the loop has ended", (action) => {
    expect(refusedRule(decide({ scope, reportText: report(action, "0.28", GOOD) })).rule).toBe("loop_ended");
  });

  it("U < floor and no Gain ≥ 0.7 → refuse: terminate", () => {
    const d = refusedRule(decide({ scope, reportText: report("tool_call", "-0.80", "Gain=0.2 StepCost=0.5 Uncertainty=1 Redundancy=0") }));
    expect(d.rule).toBe("below_floor");
  });

  it("U < floor, Gain ≥ 0.7, Rationale silent on the override or no table with a stop row → refuse: document it", () => {
    const low = "Gain=0.7 StepCost=1 Uncertainty=1 Redundancy=0";
    expect(refusedRule(decide({ scope, reportText: report("tool_call", "-0.80", low) })).rule).toBe("override_undocumented");
    expect(
      refusedRule(decide({ scope, reportText: report("tool_call", "-0.80", low, '"high-gain override: Gain 0.7"') })).reason,
    ).toContain("judged on the long form only");
    const row = "Gain=0.7 StepCost=0.5 Uncertainty=0.6 Redundancy=0"; // U = −0.1, below a floor of 0; stop −0.45
    const table = (why: string) =>
      `Candidates:\n- tool_call: ${row}\n- stop: Gain=0 StepCost=0 Uncertainty=0.9 Redundancy=0\n${report("tool_call", "-0.10", row, why)}`;
    const raised = { ...defaultConfig(), floor: 0 };
    expect(refusedRule(decide({ scope, config: raised, reportText: table('"worth it"') })).rule).toBe("override_undocumented");
    expect(decide({ scope, config: raised, reportText: table('"high-gain override: Gain 0.7"') }).decision).toBe("passed");
  });

  it("the tool is not permitted by the Action → refuse naming the action and what it permits", () => {
    const d = refusedRule(decide({ scope, tool: "Write", reportText: report("retrieve", "0.28", GOOD) }));
    expect(d.rule).toBe("tool_not_permitted");
    expect(d.reason).toContain("retrieve permits read-only tools");
    expect(d.reason).toContain("Write fits tool_call");
  });

  it("an exact repeat with Redundancy < 1 → refuse with U at Redundancy = 1", () => {
    const d = refusedRule(decide({ scope, tool: "Read", repeat, reportText: report("retrieve", "0.28", GOOD) }));
    expect(d.rule).toBe("exact_repeat");
    expect(d.reason).toContain("= -0.52"); // 0.7 − 0.12 − 0.3 − 0.8
    expect(d.reason).toContain("step 3");
  });

  it("an exact repeat scored honestly (Redundancy = 1) → passed, and refused only for what else it breaks", () => {
    const honest = report("retrieve", "0.20", "Gain=1 StepCost=0 Uncertainty=0 Redundancy=1"); // 1 − 0.8, above the floor
    expect(decide({ scope, tool: "Read", repeat, reportText: honest }).decision).toBe("passed");
    const honestButLow = report("retrieve", "-0.62", "Gain=0.6 StepCost=0.12 Uncertainty=0.6 Redundancy=1"); // −0.62 < −0.5, Gain below the override
    expect(refusedRule(decide({ scope, tool: "Read", repeat, reportText: honestButLow })).rule).toBe("below_floor");
  });

  it("anything else → passed, never allowed", () => {
    const d = decide({ scope });
    expect(d.decision).toBe("passed");
    expect(JSON.stringify(d)).not.toContain("allow");
  });

  it("an invalid opt-in under the gate → refuse with the problem", () => {
    const d = refusedRule(decide({ scope, optInProblem: 'SKILL.md: utility_gated is the string "true"' }));
    expect(d.rule).toBe("optin_invalid");
    expect(d.reason).toContain('the string "true"');
  });
});

describe("outside the gate", () => {
  it("never refuses, and hints at an exact repeat", () => {
    expect(decide({ gated: false, reportText: undefined })).toEqual({ decision: "observed" });
    const d = decide({ gated: false, tool: "Read", repeat, reportText: report("search", "9", "nonsense") });
    expect(d.decision).toBe("observed");
    expect(d.decision === "observed" && d.hint).toMatch(/exact repeat .*\(step 3\)/);
  });

  it("neutral tools need no report, gated or not", () => {
    for (const tool of ["Skill", "TodoWrite", "ToolSearch", "ExitPlanMode", "TaskCreate"])
      expect(decide({ tool, reportText: undefined }).decision).toBe("neutral");
  });
});

describe("the plugin's own tools (SPEC §6)", () => {
  it.each([true, false])("are refused to the model in every scope, gated: %s, whatever the report", (gated) => {
    for (const scope of ["self", "subagent", "dispatch"] as const) {
      const d = refusedRule(
        decide({ scope, gated, tool: "mcp__plugin_utility_hooks__pre_tool_use", reportText: report("tool_call", "0.28", GOOD) }),
      );
      expect(d.rule).toBe("own_tool");
      expect(d.reason).toBe(
        "mcp__plugin_utility_hooks__pre_tool_use belongs to the utility plugin's own server, which answers Claude Code's hooks; the model may not call it, in any scope.",
      );
    }
  });

  it("another server's tools, or a look-alike name, are not the plugin's own", () => {
    for (const tool of ["mcp__plugin_utility_other__x", "mcp__plugin_utilityx_hooks__x", "mcp__hooks__pre_tool_use"])
      expect(decide({ gated: false, tool, reportText: undefined }).decision).toBe("observed");
  });
});

describe("delegate", () => {
  const delegateReport = report("delegate", "0.28", GOOD);
  it("is refused by name in subagent scope", () => {
    expect(refusedRule(decide({ scope: "subagent", tool: "Agent", reportText: delegateReport })).rule).toBe("unknown_action");
  });
  it("permits Agent in self and dispatch scope", () => {
    expect(decide({ scope: "self", tool: "Agent", reportText: delegateReport }).decision).toBe("passed");
    expect(decide({ scope: "dispatch", tool: "Agent", reportText: delegateReport }).decision).toBe("passed");
  });
});

describe("the last report before the call counts", () => {
  it("takes the second of two reports", () => {
    const two = `${report("respond", "0.28", GOOD)}\n\nActually, one more check.\n\n${report("tool_call", "0.28", GOOD)}`;
    expect(decide({ reportText: two }).decision).toBe("passed");
    const reversed = `${report("tool_call", "0.28", GOOD)}\n\n${report("respond", "0.28", GOOD)}`;
    expect(refusedRule(decide({ reportText: reversed })).rule).toBe("loop_ended");
  });
});

describe("what a refusal carries", () => {
  const scope = "self" as const;

  it("no report: the whole template, and nothing parsed", () => {
    const d = refusedRule(decide({ scope, reportText: undefined }));
    expect(d.reason).toBe(
      `No action report before this Bash call. Under the utility gate, write the report in the same message, before the call:\nAction: <respond|retrieve|tool_call|verify|delegate|stop>\nUtility: <U rounded to 2 decimals>\nBreakdown: Gain=<0..1> StepCost=<0..1> Uncertainty=<0..1> Redundancy=<0..1>\nRationale: "<one sentence>"`,
    );
    expect(d).not.toHaveProperty("report");
    expect(d).not.toHaveProperty("evaluation");
  });

  it("a report the checker refuses goes with the refusal, as parsed; a tool it does not permit, with its evaluation", () => {
    const mismatch = refusedRule(decide({ scope, reportText: report("tool_call", "0.30", GOOD) }));
    expect(mismatch.report).toMatchObject({ action: "tool_call", utility: 0.3 });
    const notPermitted = refusedRule(decide({ scope, tool: "Write", reportText: report("retrieve", "0.28", GOOD) }));
    expect(notPermitted.evaluation?.report.action).toBe("retrieve");
  });

  it("names every action that would permit the tool", () => {
    expect(refusedRule(decide({ scope, tool: "Read", reportText: report("tool_call", "0.28", GOOD) })).reason).toBe(
      "Action tool_call does not permit Read; tool_call permits Bash, Write, Edit, MultiEdit, NotebookEdit, KillShell, TaskStop, mcp__ tools and other tools no other action names. Read fits retrieve or verify: rescore with that action if it is the best.",
    );
  });

  it("a tool no action of the scope permits gets no hint of one", () => {
    const d = refusedRule(decide({ scope: "subagent", tool: "Agent", reportText: report("tool_call", "0.28", GOOD) }));
    expect(d.reason).toBe(
      "Action tool_call does not permit Agent; tool_call permits Bash, Write, Edit, MultiEdit, NotebookEdit, KillShell, TaskStop, mcp__ tools and other tools no other action names.",
    );
    expect(refusedRule(decide({ scope, tool: "Agent", reportText: report("tool_call", "0.28", GOOD) })).reason).toMatch(
      / Agent fits delegate: rescore with that action if it is the best\.$/,
    );
  });
});
