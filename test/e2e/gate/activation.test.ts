/**
 * How a scope becomes gated (SPEC §5): the Skill tool, the user's slash
 * command for the skill, and `/utility on`. In each, a call with no report is
 * refused (SPEC §6 "no report") and a valid report passes ("anything else").
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatContextLine, tierOf } from "../../../src/engine/context-line.js";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import {
  activate,
  afterTyped,
  exampleIn,
  expectPassed,
  expectRefused,
  gateRun,
  id,
  logOf,
  markerDir,
  ok,
  preRecords,
  ran,
  recordOf,
  stateOf,
  touch,
} from "./support.js";

describe("the gated example activated with the Skill tool", () => {
  const marks = markerDir();
  const ids = { before: id("before"), bare: id("bare"), valid: id("valid") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "why does test_parse fail?",
      script: [
        [text("Looking around first."), touch(join(marks, "before"), ids.before)],
        [activate()],
        [text("Running the test."), touch(join(marks, "bare"), ids.bare)],
        [text(ok("verify", "Run the failing test.")), touch(join(marks, "valid"), ids.valid)],
        [text("It fails because of X.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("is not gated before the skill, and the Skill call itself needs no report", () => {
    expect(ran(join(marks, "before"))).toBe(true);
    expect(recordOf(run, ids.before)).toMatchObject({ decision: "observed", gated: false, step: 1 });
    expect(preRecords(run, "Skill")).toEqual([]);
    expect(assertRunOk(run).permission_denials.map((d) => d.tool_name)).not.toContain("Skill");
  });

  it("refuses a call with no report, shows the template, and the call does not run", () => {
    const said = expectRefused(run, ids.bare, "Bash", "no_report");
    expect(said).toBe(
      "PreToolUse:Bash hook error: utility gate: No action report before this Bash call. Under the utility gate, write the report in the same message, before the call:\n" +
        "Action: <respond|retrieve|tool_call|verify|delegate|stop>\nUtility: <U rounded to 2 decimals>\n" +
        'Breakdown: Gain=<0..1> StepCost=<0..1> Uncertainty=<0..1> Redundancy=<0..1>\nRationale: "<one sentence>"\n' +
        // The hooks' line: one step taken before the skill (ungated), so 1 of 10 (test/e2e/gate/context-line.test.ts).
        formatContextLine({ step: 1, maxSteps: 10, tier: tierOf(run.model.mainRequests()[0]!.body.model)! }),
    );
    expect(ran(join(marks, "bare"))).toBe(false);
    expect(recordOf(run, ids.bare)).toMatchObject({ step: 1, gatedBy: exampleIn(run) });
  });

  it("lets a valid report through: it runs, counts a step, and logs the report", () => {
    const rec = expectPassed(run, ids.valid);
    expect(ran(join(marks, "valid"))).toBe(true);
    expect(rec).toMatchObject({
      step: 2,
      gated: true,
      gatedBy: exampleIn(run),
      report: {
        action: "verify",
        utility: 0.28,
        gain: 0.7,
        stepCost: 0.12,
        uncertainty: 0.6,
        redundancy: 0,
        rationale: "Run the failing test.",
      },
      selection: { strategy: "reported", candidates: 1, chosen: "verify" },
    });
    expect(stateOf(run).main).toMatchObject({ step: 2, refusals: 1, lastAction: "verify" });
    expect([...logOf(run)].reverse().find((r) => r.event === "Stop")).toMatchObject({ decision: "observed", gated: true });
    expect(logOf(run).at(-1)).toMatchObject({ event: "SessionEnd", decision: "observed", gated: true });
  });
});

describe("the gated example typed as a slash command", () => {
  const marks = markerDir();
  const ids = { bare: id("bare"), valid: id("valid") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "/gated-example test_parse fails",
      script: [
        [touch(join(marks, "bare"), ids.bare)],
        [text(ok("verify")), touch(join(marks, "valid"), ids.valid)],
        [text("Cause found.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("gates the main scope from the first call", () => {
    expectRefused(run, ids.bare, "Bash", "no_report");
    expect(ran(join(marks, "bare"))).toBe(false);
    expect(expectPassed(run, ids.valid)).toMatchObject({ step: 1, gatedBy: exampleIn(run) });
    expect(ran(join(marks, "valid"))).toBe(true);
  });
});

describe("/utility on", () => {
  const marks = markerDir();
  const ids = { bare: id("bare"), valid: id("valid") };
  let run: Awaited<ReturnType<typeof afterTyped>>;

  beforeAll(async () => {
    run = await afterTyped(
      "/utility on",
      {
        prompt: "go",
        script: [
          [text("The gate is on."), touch(join(marks, "bare"), ids.bare)],
          [text(ok("tool_call")), touch(join(marks, "valid"), ids.valid)],
          [text("Done.")],
        ],
      },
      (o) => gateRun(o),
    );
  }, 90_000);
  afterAll(() => run?.cleanup());

  it("is answered on screen with no model turn, and gates the main scope with the defaults from the next prompt", () => {
    expect(run.first.model.mainRequests()).toEqual([]);
    expect(run.first.result!.result).toMatch(
      /^UserPromptExpansion operation blocked by hook:\nutility: the gate is on for this conversation's main scope/,
    );
    // `on` only tightens: UserPromptSubmit applies it at once (issue 18: an interrupted turn must not lose it); UserPromptExpansion answers.
    expect(logOf(run).slice(0, 2)).toMatchObject([
      { event: "UserPromptSubmit", switch: "on", switched: "on", gated: true, gatedBy: "/utility on" },
      { event: "UserPromptExpansion", gated: true },
    ]);
    expect(logOf(run).filter((r) => r.switched === "on")).toHaveLength(1);
    expectRefused(run, ids.bare, "Bash", "no_report");
    expect(ran(join(marks, "bare"))).toBe(false);
    expect(expectPassed(run, ids.valid)).toMatchObject({ step: 1, gatedBy: "/utility on", maxSteps: 10 });
    expect(ran(join(marks, "valid"))).toBe(true);
    expect(stateOf(run).manualGate).toBe(true);
  });
});
