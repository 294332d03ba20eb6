/**
 * Issue 34, surprise 7, in the real client: a stuck loop found across two
 * tasks names the steps with their task. Task 1 runs a failing command three
 * times (a write between each two that changes nothing it reads); the user
 * then types a second prompt in the same session, and its first call is the
 * same command. The hint the model is shown says "steps 1, 3 and 5 of task
 * 1", never bare step numbers a reader would take for task 2's (before the
 * change it said "(steps 1, 3 and 5)" while status said task 2, step 0).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_ROOT } from "../../support/paths.js";
import { runClaude, type RunClaudeResult } from "../support/claude.js";
import { systemMessageTexts, text, toolUse, type ScriptBlock } from "../support/scripted-model.js";
import { id, markerDir, recordOf } from "./support.js";

const FAILING = { command: "echo 'FAIL test_parse: expected 1, got None'; exit 1", description: "run the failing test" };

describe("a failing command run three times in task 1 and again at the start of task 2", () => {
  const runs = [1, 2, 3, 4].map((n) => id(`xrun${n}`));
  const writes = [1, 2].map((n) => id(`xwrite${n}`));
  let first: RunClaudeResult;
  let second: RunClaudeResult;

  beforeAll(async () => {
    const cwd = markerDir();
    const write = (i: number): ScriptBlock[] => [
      toolUse("Write", { file_path: join(cwd, `note-${i}.md`), content: `attempt ${i}\n` }, writes[i]!),
    ];
    first = await runClaude({
      prompt: "why does test_parse fail?",
      pluginDir: PLUGIN_ROOT,
      cwd,
      allowedTools: ["Bash", "Write"],
      whenExhausted: "error",
      script: [
        [toolUse("Bash", FAILING, runs[0]!)],
        write(0),
        [toolUse("Bash", FAILING, runs[1]!)],
        write(1),
        [toolUse("Bash", FAILING, runs[2]!)],
        [text("It fails the same way each time.")],
      ],
    });
    second = await runClaude({
      prompt: "try once more",
      pluginDir: PLUGIN_ROOT,
      home: first.home,
      cwd,
      extraArgs: ["--resume", first.sessionId!],
      allowedTools: ["Bash", "Write"],
      whenExhausted: "error",
      script: [[toolUse("Bash", FAILING, runs[3]!)], [text("Same again.")]],
    });
  }, 240_000);
  afterAll(() => {
    second?.cleanup();
    first?.cleanup();
  });

  it("the fourth run, in task 2, is the stuck loop's, its steps named with their task", () => {
    const fourth = recordOf(second, runs[3]!);
    expect(fourth).toMatchObject({ task: 2, decision: "observed", stuck: { steps: [1, 3, 5] } });
    const shown = second.model.mainRequests().flatMap((req) => systemMessageTexts(req, true));
    const hint = shown.find((c) => c.includes("runs of this Bash call"));
    expect(hint).toContain("the last 3 runs of this Bash call (steps 1, 3 and 5 of task 1) returned the same result");
  });
});
