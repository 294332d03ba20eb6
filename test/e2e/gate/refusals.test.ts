/**
 * The report rows of the decision table (SPEC §6) in the main scope, under
 * the gated example, in one session: each turn makes one call whose report
 * breaks one rule. Each is refused with the reason the model needs, does not
 * run, is not a step, and is logged with its rule. A high-gain override claimed
 * in the short form is refused too (it is judged on a table with a stop row
 * only); the last call's report is good and passes.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunClaudeResult } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, expectPassed, expectRefused, gateRun, GOOD, id, markerDir, ran, recordOf, report, stateOf, touch } from "./support.js";

/** U = 0.7 − 1 − 0.5 − 0 = −0.80: below the floor, with Gain 0.7 (the override may apply). */
const LOW_HIGH_GAIN = "Gain=0.7 StepCost=1 Uncertainty=1 Redundancy=0";

const CASES = {
  malformed: { text: report("verify", "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6"), rule: "malformed" },
  outOfRange: { text: report("verify", "0.28", "Gain=1.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0"), rule: "malformed" },
  unknown: { text: report("search", "0.28", GOOD), rule: "unknown_action" },
  wrongUtility: { text: report("verify", "0.35", GOOD), rule: "utility_mismatch" },
  notFitting: { text: report("retrieve", "0.28", GOOD), rule: "tool_not_permitted" },
  notArgmax: {
    text: `Candidates:\n- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0\n- verify: ${GOOD}\n${report("verify", "0.28", GOOD)}`,
    rule: "not_argmax",
  },
  respond: { text: report("respond", "0.28", GOOD), rule: "loop_ended" },
  stop: { text: report("stop", "-0.3", "Gain=0 StepCost=0 Uncertainty=0.6 Redundancy=0"), rule: "loop_ended" },
  belowFloor: { text: report("verify", "-0.80", "Gain=0.2 StepCost=0.5 Uncertainty=1 Redundancy=0"), rule: "below_floor" },
  overrideSilent: { text: report("verify", "-0.80", LOW_HIGH_GAIN, "Worth one more try."), rule: "override_undocumented" },
  overrideShort: {
    text: report("verify", "-0.80", LOW_HIGH_GAIN, "High-gain override: Gain 0.7 ≥ 0.7, the run settles it."),
    rule: "override_undocumented",
  },
} as const;
type Case = keyof typeof CASES;

describe("refusals of the decision table, main scope", () => {
  const marks = markerDir();
  const ids = Object.fromEntries(Object.keys(CASES).map((k) => [k, id(k)])) as Record<Case, string>;
  const documented = id("documented");
  let run: RunClaudeResult;
  /** Checks that call `name` was refused under its rule (denials, the model's tool result, the log); returns what the model was told. */
  const said = (name: Case) => expectRefused(run, ids[name], "Bash", CASES[name].rule);

  beforeAll(async () => {
    run = await gateRun({
      prompt: "why does test_parse fail?",
      script: [
        [activate()],
        ...Object.entries(CASES).map(([name, c]) => [text(c.text), touch(join(marks, name), ids[name as Case])]),
        [text(report("verify", "0.28", GOOD, "The run settles it.")), touch(join(marks, "documented"), documented)],
        [text("Answer.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("none of the refused calls ran or counted as a step", () => {
    for (const name of Object.keys(CASES)) expect(ran(join(marks, name)), name).toBe(false);
    for (const name of Object.keys(CASES) as Case[]) expect(recordOf(run, ids[name]).step, name).toBe(0);
    expect(stateOf(run).main).toMatchObject({ step: 1, refusals: Object.keys(CASES).length });
  });

  it("a malformed report: names the missing field", () => {
    expect(said("malformed")).toContain("utility gate: The action report is malformed:");
    expect(said("malformed")).toContain("Redundancy");
  });

  it("a signal out of range: names the signal and its value", () => {
    expect(said("outOfRange")).toContain("The action report is malformed:");
    expect(said("outOfRange")).toContain("Gain is 1.7");
  });

  it("an unknown action: lists the scope's actions", () => {
    expect(said("unknown")).toContain("search");
    expect(said("unknown")).toContain("In self scope the actions are respond, retrieve, tool_call, verify, delegate, stop.");
  });

  it("a wrong Utility: gives the recomputed value and the arithmetic", () => {
    expect(said("wrongUtility")).toContain(
      "Utility 0.35 does not match the Breakdown: 0.7 − 1.0·0.12 − 0.5·0.6 − 0.8·0.0 = 0.28. Write Utility: 0.28.",
    );
  });

  it("an action the tool does not fit (retrieve + Bash): names the action, what it permits, and what Bash fits", () => {
    expect(said("notFitting")).toContain("Action retrieve does not permit Bash; retrieve permits read-only tools (Read, Grep, Glob");
    expect(said("notFitting")).toContain("Bash fits tool_call or verify");
    expect(recordOf(run, ids.notFitting).report).toMatchObject({ action: "retrieve", utility: 0.28 });
  });

  it("a long form whose Action is not the argmax: names the argmax", () => {
    expect(said("notArgmax")).toContain("Action verify is not the argmax of Candidates: retrieve has U = 0.30 against 0.28");
  });

  it("respond, then a call: the loop has ended", () => {
    expect(said("respond")).toContain("The report selected respond, which ends the loop and takes no tool call.");
  });

  it("stop, then a call: the loop has ended", () => {
    expect(said("stop")).toContain("The report selected stop, which ends the loop and takes no tool call.");
  });

  it("below the floor with no high Gain: terminate", () => {
    expect(said("belowFloor")).toContain("U = -0.80 is below the floor -0.5 and no candidate has Gain ≥ 0.7: the loop terminates here.");
  });

  it("below the floor with Gain ≥ 0.7: the short form is refused, silent or not, and told to write the table with a stop row", () => {
    for (const name of ["overrideSilent", "overrideShort"] as const) {
      expect(said(name)).toContain("the high-gain override (Gain 0.7 ≥ 0.7) is judged on the long form only");
      expect(said(name)).toContain("stop included");
    }
  });

  it("a good report after the refusals passes and runs, as step 1", () => {
    expect(expectPassed(run, documented)).toMatchObject({ step: 1, report: { action: "verify", utility: 0.28 } });
    expect(ran(join(marks, "documented"))).toBe(true);
  });

  it("the model saw each refusal as the tool's error, in order, and answered at the end", () => {
    const main = run.model.mainRequests();
    expect(main).toHaveLength(Object.keys(CASES).length + 3);
    expect(run.result?.result).toBe("Answer.");
    // Claude Code lists each refused call, with its input, in the result.
    const denied = run.result!.permission_denials;
    expect(denied.map((d) => d.tool_use_id)).toEqual(Object.values(ids));
    expect(denied[0]).toEqual({
      tool_name: "Bash",
      tool_use_id: ids.malformed,
      tool_input: toolUse("Bash", { command: `touch ${join(marks, "malformed")}`, description: "mark" }).input,
    });
  });
});
