/**
 * SPEC §6, last point: the Stop hook of a gated scope blocks a stop once when
 * the last report selected an action that was never taken; Claude Code's
 * stop_hook_active keeps it from looping.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { messagesOf, text } from "../support/scripted-model.js";
import { activate, gateRun, logOf, ok } from "./support.js";

describe("the Stop hook", () => {
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "why does test_parse fail?",
      script: [
        [activate()],
        [text(`${ok("verify", "Run the test.")}\n\nI will run the test next.`)],
        [text(`${ok("verify", "Run the test.")}\n\nStill not running it.`)],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("blocks the first stop with the reason, so the model is asked again", () => {
    const result = assertRunOk(run);
    const main = run.model.mainRequests();
    expect(main).toHaveLength(3);
    const feedback = messagesOf(main[2]!)
      .filter((m) => m.role === "user")
      .at(-1)!;
    expect(feedback.content).toBe(
      "Stop hook feedback:\nutility gate: your last report selected verify (Utility 0.28) but no call was made. Take that action now, or write a new report that selects respond or stop.",
    );
    expect(result.result).toContain("Still not running it.");
  });

  it("does not block twice, and logs both stops", () => {
    const stops = logOf(run).filter((r) => r.event === "Stop");
    expect(stops.map((r) => r.decision)).toEqual(["blocked", "observed"]);
    expect(stops[0]).toMatchObject({ gated: true, reason: expect.stringContaining("your last report selected verify") });
    // Each stop logs its final message's report, as a PreToolUse record logs its call's (the HTML report draws it).
    expect(stops.map((r) => [r.report?.action, r.report?.utility, r.report?.rationale])).toEqual([
      ["verify", 0.28, "Run the test."],
      ["verify", 0.28, "Run the test."],
    ]);
  });
});

describe("the Stop hook, when the report and the closing prose are separate text blocks", () => {
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "why does test_parse fail?",
      script: [
        [activate()],
        // Claude Code hands the Stop hook only the last text block ("I will run the test next.").
        [text(ok("verify", "Run the test.")), text("I will run the test next.")],
        [text(ok("verify", "Run the test.")), text("Still not running it.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("finds the report in the first block and blocks the stop once", () => {
    const result = assertRunOk(run);
    const main = run.model.mainRequests();
    expect(main).toHaveLength(3);
    const feedback = messagesOf(main[2]!)
      .filter((m) => m.role === "user")
      .at(-1)!;
    expect(feedback.content).toBe(
      "Stop hook feedback:\nutility gate: your last report selected verify (Utility 0.28) but no call was made. Take that action now, or write a new report that selects respond or stop.",
    );
    expect(result.result).toContain("Still not running it.");
    const stops = logOf(run).filter((r) => r.event === "Stop");
    expect(stops.map((r) => r.decision)).toEqual(["blocked", "observed"]);
    // The first stop read the whole message from the transcript, and logs its report. The second
    // (stop_hook_active) reads only the last block Claude Code hands it, so its record has none.
    expect(stops[0]!.report).toMatchObject({ action: "verify", utility: 0.28 });
  });
});
