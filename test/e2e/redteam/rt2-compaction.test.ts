/**
 * Red team 2 (class 2): gating lasts to the end of the task, and only a
 * prompt the user typed starts a new one; SPEC §2 lists compaction summaries
 * among the lines nobody typed. Claude Code compacts on its own mid-task when
 * the context fills (forced here with CLAUDE_AUTOCOMPACT_PCT_OVERRIDE and a
 * reply reporting a large usage). Promise: after the automatic compaction of
 * a skill-gated task, a report-less Bash call is still refused and does not
 * run. (docs/claude-code-facts.md: "Compaction was not probed here".)
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestText, text, type RecordedRequest, type ScriptBlock } from "../support/scripted-model.js";
import { activate, gateRun, id, logOf, markerDir, ok, ran, recordOf, touch } from "../gate/support.js";

// Inconclusive: in -p, neither CLAUDE_AUTOCOMPACT_PCT_OVERRIDE nor CLAUDE_CODE_AUTO_COMPACT_WINDOW with large reported
// usage made 2.1.328 compact (no summary request, no compact_boundary line), so the attempt is skipped.
describe.skip("automatic compaction in the middle of a skill-gated task", () => {
  it("a report-less call after the compaction is still refused", async () => {
    const marks = markerDir();
    const calls = { first: id("rt2_compact_first"), bare: id("rt2_compact_bare") };
    let n = 0;
    let high = false;
    let summaries = 0;
    const turns: ScriptBlock[][] = [
      [activate()],
      [text(ok("verify", "Run it.")), touch(join(marks, "first"), calls.first)],
      [touch(join(marks, "bare"), calls.bare)],
      [text("Done.")],
    ];
    const isSummary = (req: RecordedRequest) => /Your task is to create a detailed summary/.test(requestText(req).slice(-20000));
    const run = await gateRun({
      prompt: "why does test_parse fail?",
      allowedTools: ["Bash", "Read", "Skill"],
      timeoutMs: 120_000,
      whenExhausted: "end_turn",
      env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50", CLAUDE_CODE_AUTO_COMPACT_WINDOW: "40000" },
      classify: (req) =>
        req.method === "POST" && /^\/v1\/messages/.test(req.path) && req.body?.messages && isSummary(req) ? "main" : undefined,
      usage: () => {
        if (high) {
          return { input_tokens: 38_000, output_tokens: 5 };
        }
        return { input_tokens: 10, output_tokens: 5 };
      },
      script: (req) => {
        if (isSummary(req)) {
          summaries += 1;
          high = false;
          return [text("<summary>The user asked why test_parse fails; the gated-example skill is loaded; one test run so far.</summary>")];
        }
        const turn = turns[n] ?? [text("Done.")];
        if (n === 1) high = true;
        n += 1;
        return turn;
      },
    });
    try {
      const lines = run.transcript();
      const compacted = lines.filter((l) => l.subtype === "compact_boundary" || l.isCompactSummary);
      console.log("summaries asked:", summaries, "compact lines:", compacted.length, "stdout:", run.stdout.slice(0, 200));
      console.log(JSON.stringify(logOf(run).map((r) => [r.event, r.tool, r.decision, r.rule, r.task, r.step, r.gated])));
      expect(compacted.length).toBeGreaterThan(0);
      expect({ decision: recordOf(run, calls.bare).decision, ran: ran(join(marks, "bare")) }).toEqual({ decision: "refused", ran: false });
    } finally {
      run.cleanup();
    }
  });
});
