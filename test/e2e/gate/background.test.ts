/**
 * SPEC §2 in the real client: when a background Bash or a background Agent
 * ends, Claude Code 2.1.328 runs UserPromptSubmit with a `<task-notification>`
 * and writes a user line for it. That is no new task: a gated skill stays
 * gated (a report-less call afterwards is refused) and its step count goes on.
 * A ScheduleWakeup's prompt, the other prompt nobody typed: wakeup.test.ts.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunClaudeResult } from "../support/claude.js";
import { routeByPrompt, text, toolUse } from "../support/scripted-model.js";
import { activate, expectPassed, expectRefused, gateRun, id, logOf, markerDir, ok, ran, touch } from "./support.js";

describe.each([
  ["Bash", () => toolUse("Bash", { command: "sleep 1", description: "bg", run_in_background: true }, id("bg_bash"))],
  [
    "Agent",
    () => toolUse("Agent", { subagent_type: "general-purpose", description: "bg agent", prompt: "BG-AGENT: look" }, id("bg_agent")),
  ],
] as const)("a gated skill whose background %s ends", (kind, launch) => {
  const marks = markerDir();
  const ids = { bare: id(`after_${kind}`), valid: id(`valid_${kind}`) };
  const started = launch();
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "start the job",
      timeoutMs: 90_000,
      script: [
        [activate()],
        [text(ok(kind === "Agent" ? "delegate" : "tool_call", "Start it in the background.")), started],
        [text("It runs in the background.")],
        // The notification's turn.
        [text("The job ended."), touch(join(marks, "bare"), ids.bare)],
        [text(ok("verify", "Check after the job.")), touch(join(marks, "valid"), ids.valid)],
        [text("Done after the job.")],
      ],
      subagentScript: routeByPrompt([["BG-AGENT", [[text("SUB-FINAL: looked.")]]]]),
    });
  });
  afterAll(() => run?.cleanup());

  it("the notification reached UserPromptSubmit and the transcript as a prompt nobody typed", () => {
    const line = run
      .transcript()
      .find((l) => l.type === "user" && typeof l.message?.content === "string" && l.message.content.startsWith("<task-notification>"));
    expect(line).toMatchObject({ origin: { kind: "task-notification" }, promptSource: "system", turnOrigin: "task_notification" });
    const prompts = logOf(run).filter((r) => r.event === "UserPromptSubmit");
    expect(prompts.length).toBe(2);
  });

  it("a report-less call after it is refused, and the step count goes on in the same task", () => {
    expectRefused(run, ids.bare, "Bash", "no_report");
    expect(ran(join(marks, "bare"))).toBe(false);
    const launched = expectPassed(run, started.id!);
    const valid = expectPassed(run, ids.valid);
    expect(ran(join(marks, "valid"))).toBe(true);
    expect(valid.task).toBe(launched.task);
    expect(valid.step).toBe(launched.step + 1);
  });
});
