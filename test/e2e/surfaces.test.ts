/**
 * The plugin's front door in the real binary (SPEC §9): `/utility` is a plugin
 * skill, so it answers to `/utility` as typed (and to `/utility:utility`);
 * `status`, `report`, `on` and `off` are answered by the plugin on screen with
 * no model turn (the result of `-p`); `/utility` alone goes to the model with
 * the live status. The scoring skill is listed for the model; `/utility` is not.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_ROOT } from "../support/paths.js";
import { assertRunOk, runClaude, type RunClaudeResult } from "./support/claude.js";
import { requestText, text, toolUse } from "./support/scripted-model.js";
import { markerDir, ran, touch } from "./gate/support.js";

const BLOCKED = "UserPromptExpansion operation blocked by hook:\n";

/** A prompt in a session (resumed when `after` is given), with nothing scripted: the plugin answers or the run fails. */
function typed(prompt: string, after?: RunClaudeResult): Promise<RunClaudeResult> {
  return runClaude({
    prompt,
    pluginDir: PLUGIN_ROOT,
    whenExhausted: "error",
    script: [],
    ...(after ? { home: after.home, cwd: after.cwd, extraArgs: ["--resume", after.sessionId!] } : {}),
  });
}

/** What the user was shown instead of a model turn. */
function answered(run: RunClaudeResult): string {
  const result = assertRunOk(run);
  expect(result.num_turns).toBe(0);
  expect(run.model.mainRequests()).toEqual([]);
  expect(result.result!.startsWith(BLOCKED), result.result).toBe(true);
  return result.result!.slice(BLOCKED.length);
}

describe("the front door in Claude Code", () => {
  it("lists the scoring skill for the model, not /utility (the user's to type), and no gated skill", async () => {
    const run = await runClaude({ prompt: "hello", pluginDir: PLUGIN_ROOT, script: [[text("Hi.")]] });
    assertRunOk(run);
    const listing = requestText(run.model.mainRequests()[0]!);
    expect(listing).toContain("utility:utility-scoring");
    expect(listing).not.toMatch(/utility:utility(?!-)/);
    // The gated example is for skill authors to copy (examples/), never loaded by the plugin.
    expect(listing).not.toContain("gated-example");
    run.cleanup();
  });

  it.each(["/utility status", "/utility:utility status"])(
    "-p %j: the plugin's status is the result, with no model turn",
    async (prompt) => {
      const run = await typed(prompt);
      expect(answered(run)).toBe(
        `utility status, session ${run.sessionId}\n/utility on: off\nmain scope: before the first prompt, step 0, 0 refused; not gated\n` +
          "  spent by this scope: 0 tokens, about $0, 0 tool calls, 0 subagents launched; by its task: 0 tokens, about $0, 0 tool calls, 0 subagents launched; no task budget set",
      );
      run.cleanup();
    },
  );

  it("/utility alone goes to the model with the live status (its shell line runs with no --allowedTools)", async () => {
    const run = await runClaude({ prompt: "/utility", pluginDir: PLUGIN_ROOT, script: [[text("Scored.")]] });
    expect(assertRunOk(run).result).toBe("Scored.");
    const sent = requestText(run.model.mainRequests()[0]!);
    expect(sent).toContain(`utility status, session ${run.sessionId}`);
    expect(sent).toContain("main scope: before the first prompt, step 0, 0 refused; not gated");
    expect(sent).toContain("score the current situation with the `utility-scoring`");
    run.cleanup();
  });
});

describe("a session switched on and off from the front door", () => {
  const marks = markerDir();
  const runs: RunClaudeResult[] = [];
  let on: RunClaudeResult;
  let work: RunClaudeResult;
  let status: RunClaudeResult;
  let report: RunClaudeResult;
  let off: RunClaudeResult;
  let after: RunClaudeResult;

  beforeAll(async () => {
    on = await typed("/utility on");
    runs.push(on);
    work = await runClaude({
      prompt: "go",
      pluginDir: PLUGIN_ROOT,
      home: on.home,
      cwd: on.cwd,
      extraArgs: ["--resume", on.sessionId!],
      allowedTools: ["Bash"],
      whenExhausted: "error",
      script: [
        [text("No report."), touch(join(marks, "bare"), "toolu_front_bare")],
        [
          text(
            "Action: verify\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: check the tree",
          ),
          toolUse("Bash", { command: "echo ok" }),
        ],
        [text("Done.")],
      ],
    });
    runs.push(work);
    status = await typed("/utility status", on);
    report = await typed("/utility report", on);
    off = await typed("/utility off", on);
    after = await runClaude({
      prompt: "again",
      pluginDir: PLUGIN_ROOT,
      home: on.home,
      cwd: on.cwd,
      extraArgs: ["--resume", on.sessionId!],
      allowedTools: ["Bash"],
      whenExhausted: "error",
      script: [[text("No report, gate off."), touch(join(marks, "after"), "toolu_front_after")], [text("Ran.")]],
    });
  }, 180_000);
  afterAll(() => {
    for (const run of runs) run.cleanup();
  });

  it("on: the user is told the gate is on, and the next prompt's calls need a report", () => {
    expect(answered(on)).toMatch(
      /^utility: the gate is on for this conversation's main scope until \/utility off.*\n.*\n\/utility on: on\n/,
    );
    expect(assertRunOk(work).permission_denials.map((d) => d.tool_use_id)).toEqual(["toolu_front_bare"]);
    expect(ran(join(marks, "bare"))).toBe(false);
  });

  it("status: the task, step and last report of what ran in between", () => {
    const shown = answered(status);
    expect(shown).toContain("/utility on: on\n");
    expect(shown).toMatch(/main scope: task 1, step 1 of 10, 1 refused; gated by \/utility on/);
    expect(shown).toContain("last report: verify U=0.28");
  });

  it("report: the session's summary", () => {
    expect(answered(report)).toMatch(new RegExp(`^session ${on.sessionId}: \\d+ records`));
    expect(answered(report)).toContain("refused 1: no_report 1");
  });

  it("off: switched at once, with no model turn: the next prompt's report-less call runs", () => {
    expect(answered(off)).toMatch(/^utility: the \/utility on gate is off\./);
    expect(assertRunOk(after).permission_denials).toEqual([]);
    expect(ran(join(marks, "after"))).toBe(true);
  });
});
