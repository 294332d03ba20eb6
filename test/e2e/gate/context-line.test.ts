/**
 * The line the gate adds after a passed call (issue 15): in the real client,
 * the model's next request carries step, tier and next StepCost as hook
 * additional context, computed from the model Claude Code wrote into the
 * transcript. A refused call gets no such line.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatContextLine, tierOf } from "../../../src/engine/context-line.js";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { systemMessageTexts, text } from "../support/scripted-model.js";
import { activate, gateRun, id, markerDir, ok, preRecords, report, touch } from "./support.js";

describe("the utility: line in a gated session", () => {
  const marks = markerDir();
  const ids = { first: id("first"), refused: id("refused"), second: id("second") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "why does test_parse fail?",
      script: [
        [activate()],
        [text(ok("verify")), touch(join(marks, "first"), ids.first)],
        [
          text(report("verify", "0.99", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0")),
          touch(join(marks, "refused"), ids.refused),
        ],
        [text(ok("verify")), touch(join(marks, "second"), ids.second)],
        [text("Answer.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("the model sees the line after each passed call, with the step taken and its tier's StepCost", () => {
    assertRunOk(run);
    expect(preRecords(run).map((r) => [r.tool, r.decision, r.step])).toEqual([
      ["Bash", "passed", 1],
      ["Bash", "refused", 1],
      ["Bash", "passed", 2],
    ]);
    const [, , afterFirst, afterRefused, afterSecond] = run.model.mainRequests(); // the first two: the prompt, the Skill result
    // The scripted server echoes the model the client asks for, and Claude Code writes it into the transcript.
    const tier = tierOf(afterFirst!.body.model);
    expect(tier).toBeDefined();
    const first = formatContextLine({ step: 1, maxSteps: 10, tier: tier! });
    const second = formatContextLine({ step: 2, maxSteps: 10, tier: tier! });
    expect(systemMessageTexts(afterFirst!, true).join("\n")).toContain(`PreToolUse:Bash hook additional context: ${first}`);
    expect(systemMessageTexts(afterRefused!, true).join("\n")).not.toContain("utility: step");
    expect(systemMessageTexts(afterSecond!, true).join("\n")).toContain(`PreToolUse:Bash hook additional context: ${second}`);
  });
});
