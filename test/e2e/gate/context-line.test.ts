/**
 * The hooks' line (issue 15, issue 20) in the real client: the model's
 * requests carry, as hook additional context, its steps taken, its tier and
 * the StepCost of every action it may take, computed from the model Claude
 * Code wrote into the transcript. It comes before the first call of a gated
 * task (after the Skill call that activates the gated skill; in a gated
 * subagent's first request), after each call that passes, and inside the
 * refusal of a call that had no report. Any other refusal gets none.
 */
import { join } from "node:path";
import { countTokens } from "@anthropic-ai/tokenizer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatContextLine, tierOf } from "../../../src/engine/context-line.js";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { routeByPrompt, systemMessageTexts, systemText, text, toolUse } from "../support/scripted-model.js";
import { activate, expectRefused, gateRun, id, markerDir, ok, preRecords, report, resultFor, touch } from "./support.js";

describe("the utility: line in a gated session", () => {
  const marks = markerDir();
  const ids = { bare: id("bare"), first: id("first"), refused: id("refused"), second: id("second") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "why does test_parse fail?",
      script: [
        [activate()],
        [touch(join(marks, "bare"), ids.bare)],
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

  it("the model sees the line before its first gated call, in the refusal of a call without a report, and after each passed call", () => {
    assertRunOk(run);
    expect(preRecords(run).map((r) => [r.tool, r.decision, r.rule, r.step])).toEqual([
      ["Bash", "refused", "no_report", 0],
      ["Bash", "passed", undefined, 1],
      ["Bash", "refused", "utility_mismatch", 1],
      ["Bash", "passed", undefined, 2],
    ]);
    // The requests: the prompt, after the Skill call, after the bare call, after first, after refused, after second.
    const [, afterSkill, afterBare, afterFirst, afterRefused, afterSecond] = run.model.mainRequests();
    // The scripted server echoes the model the client asks for, and Claude Code writes it into the transcript.
    const tier = tierOf(afterSkill!.body.model);
    expect(tier).toBeDefined();
    const line = (step: number) => formatContextLine({ step, maxSteps: 10, tier: tier! });
    expect(line(0)).toBe(
      `utility: 0 of 10 steps taken · ${tier} · StepCost retrieve/verify/tool_call/delegate 0.29 · respond 0.29 · stop 0`,
    );
    expect(systemMessageTexts(afterSkill!, true).join("\n")).toContain(`PreToolUse:Skill hook additional context: ${line(0)}`);
    const bare = expectRefused(run, ids.bare, "Bash", "no_report");
    expect(bare.split("\n").at(-1)).toBe(line(0));
    expect(systemMessageTexts(afterBare!, true).join("\n")).not.toContain("utility: ");
    expect(systemMessageTexts(afterFirst!, true).join("\n")).toContain(`PreToolUse:Bash hook additional context: ${line(1)}`);
    expect(resultFor(run.model.mainRequests(), ids.refused).text).not.toContain("utility: ");
    expect(systemMessageTexts(afterRefused!, true).join("\n")).not.toContain("utility: ");
    expect(systemMessageTexts(afterSecond!, true).join("\n")).toContain(`PreToolUse:Bash hook additional context: ${line(2)}`);
    // What it costs the model to read (Claude's older tokenizer, an approximation): with Claude Code's prefix.
    expect(countTokens(`PreToolUse:Bash hook additional context: ${line(1)}`)).toBeLessThanOrEqual(44);
  });
});

describe("the utility: line of a subagent gated by its definition", () => {
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "hand it on",
      fixtures: true,
      script: [
        [
          toolUse("Agent", {
            subagent_type: "ufix:gated-helper",
            description: "Check",
            prompt: "SUBTASK-LINE: go",
            run_in_background: false,
          }),
        ],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([["SUBTASK-LINE", [[text("SUB-FINAL: nothing to do.")]]]]),
    });
  });
  afterAll(() => run?.cleanup());

  it("gets the line with its first request, on its parent's tier (its definition names no model), without delegate", () => {
    assertRunOk(run);
    const [first] = run.model.subagentRequests();
    const tier = tierOf(first!.body.model);
    expect(tier).toBeDefined();
    const line = formatContextLine({ step: 0, maxSteps: 10, tier: tier!, scope: "subagent" });
    expect(line).toContain("StepCost retrieve/verify/tool_call 0.");
    expect(systemText(first!) + systemMessageTexts(first!).join("\n")).toContain(`SubagentStart hook additional context: ${line}`);
    expect(run.model.mainRequests().map((r) => JSON.stringify(r.body.messages))).not.toContain("SubagentStart hook additional context");
  });
});
