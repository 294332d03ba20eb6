/**
 * The plugin's surfaces in the real binary: the scoring skill is in the
 * model's skill list next to the /utility command (a command shadows a skill
 * of the same name, so they are named apart), and /utility expands with live
 * data from the CLI.
 */
import { describe, expect, it } from "vitest";
import { PLUGIN_ROOT } from "../support/paths.js";
import { assertRunOk, runClaude } from "./support/claude.js";
import { requestText, text, toolUse } from "./support/scripted-model.js";

describe("surfaces in Claude Code", () => {
  it("lists the scoring skill for the model beside the /utility command, and no gated skill", async () => {
    const run = await runClaude({ prompt: "hello", pluginDir: PLUGIN_ROOT, script: [[text("Hi.")]] });
    assertRunOk(run);
    const listing = requestText(run.model.mainRequests()[0]!);
    expect(listing).toContain("utility:utility-scoring");
    // The gated example is for skill authors to copy (examples/), never loaded by the plugin.
    expect(listing).not.toContain("gated-example");
    run.cleanup();
  });

  it("expands /utility status with the session's live state", async () => {
    const run = await runClaude({
      prompt: "/utility:utility status",
      pluginDir: PLUGIN_ROOT,
      allowedTools: ["Bash"],
      script: [[text("Status shown.")]],
    });
    assertRunOk(run);
    const sent = requestText(run.model.mainRequests()[0]!);
    expect(sent).toContain(`utility status, session ${run.sessionId}`);
    // The first prompt is the command itself: its shell line runs before any hook has applied the prompt, so no task has started yet (SPEC §2).
    expect(sent).toMatch(/main scope: task 0, step 0 of 10, 0 refused; not gated/);
    run.cleanup();
  });

  it("shows a step taken earlier in the same session", async () => {
    const first = await runClaude({
      prompt: "/utility:utility on",
      pluginDir: PLUGIN_ROOT,
      allowedTools: ["Bash"],
      script: [[text("Gate on.")]],
    });
    const sent = requestText(assertRunOk(first) && first.model.mainRequests()[0]!);
    expect(sent).toContain("The utility gate is on for the main scope");
    expect(sent).toContain("/utility on: on");
    const second = await runClaude({
      prompt: "go",
      pluginDir: PLUGIN_ROOT,
      home: first.home,
      cwd: first.cwd,
      extraArgs: ["--resume", first.sessionId!],
      allowedTools: ["Bash"],
      script: [
        [
          text(
            "Action: verify\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: check the tree",
          ),
          toolUse("Bash", { command: "echo ok" }),
        ],
        [text("Done.")],
      ],
    });
    assertRunOk(second);
    const third = await runClaude({
      prompt: "/utility:utility status",
      pluginDir: PLUGIN_ROOT,
      home: first.home,
      cwd: first.cwd,
      extraArgs: ["--resume", first.sessionId!],
      allowedTools: ["Bash"],
      script: [[text("Shown.")]],
    });
    const status = requestText(assertRunOk(third) && third.model.mainRequests()[0]!);
    expect(status).toMatch(/main scope: task 2, step 1 of 10, 0 refused; gated by \/utility on/);
    expect(status).toContain("last report: verify U=0.28");
    first.cleanup();
  });
});
