/**
 * Outside the gate (SPEC §6, last paragraphs): the hooks log every step and
 * refuse nothing, not even a call with no report or a nonsense one, and they
 * hint at an exact repeat.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { systemMessageTexts, text, toolUse } from "../support/scripted-model.js";
import { expectPassed, gateRun, id, logOf, markerDir, preRecords, ran, recordOf, report, stateOf, touch } from "./support.js";

describe("an ungated session", () => {
  const marks = markerDir();
  const ids = { read1: id("read1"), read2: id("read2"), bash: id("bash"), read3: id("read3") };
  let run: RunClaudeResult;
  let file: string;

  beforeAll(async () => {
    const cwd = markerDir();
    file = join(cwd, "notes.txt");
    writeFileSync(file, "some notes\n");
    run = await gateRun({
      prompt: "read the notes",
      cwd,
      script: [
        [toolUse("Read", { file_path: file }, ids.read1)],
        [text("Again, with nothing in between."), toolUse("Read", { file_path: file }, ids.read2)],
        [text(report("search", "9", "Gain=7")), touch(join(marks, "bash"), ids.bash)],
        [toolUse("Read", { file_path: file }, ids.read3)],
        [text("Notes read.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("refuses nothing: no report, a nonsense report, all run", () => {
    const result = assertRunOk(run);
    expect(result.permission_denials).toEqual([]);
    expect(result.result).toBe("Notes read.");
    expect(ran(join(marks, "bash"))).toBe(true);
    for (const call of Object.values(ids)) expectPassed(run, call, "observed");
  });

  it("logs one record per step, counting steps, never gated", () => {
    const pre = preRecords(run);
    expect(pre.map((r) => [r.tool, r.step, r.decision, r.gated])).toEqual([
      ["Read", 1, "observed", false],
      ["Read", 2, "observed", false],
      ["Bash", 3, "observed", false],
      ["Read", 4, "observed", false],
    ]);
    const events = logOf(run).map((r) => r.event);
    expect(events[0]).toBe("UserPromptSubmit");
    expect(events.slice(-2)).toEqual(["Stop", "SessionEnd"]);
    const [prompt, ...steps] = logOf(run);
    // UserPromptSubmit only vouches for the prompt (SPEC §2): the task starts when the next hook sees its line.
    expect(prompt).toMatchObject({ event: "UserPromptSubmit", session: run.sessionId, task: 0 });
    for (const r of steps) {
      expect(r).toMatchObject({ session: run.sessionId, scope: "self", task: 1, maxSteps: 10, lambdas: [1, 0.5, 0.8] });
      expect(typeof r.latencyMs).toBe("number");
    }
    expect(stateOf(run).main).toMatchObject({ step: 4, refusals: 0 });
  });

  it("hints at an exact repeat (nothing in between) as additionalContext, and not after a Bash call", () => {
    expect(recordOf(run, ids.read2).repeat).toEqual({ ofStep: 1, toolUseId: ids.read1 });
    expect(recordOf(run, ids.read3).repeat).toBeUndefined();
    const [, , afterRepeat, afterBash, afterRead3] = run.model.mainRequests();
    const hint = systemMessageTexts(afterRepeat!, true).join("\n");
    expect(hint).toContain(
      "PreToolUse:Read hook additional context: utility: this Read call is an exact repeat of one that already ran (step 1)",
    );
    expect(systemMessageTexts(afterBash!, true).join("\n")).not.toContain("exact repeat");
    expect(systemMessageTexts(afterRead3!, true).join("\n")).not.toContain("exact repeat");
  });
});
