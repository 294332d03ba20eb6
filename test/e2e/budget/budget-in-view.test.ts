/**
 * The budget in the model's view (SPEC §16), in the real client: with
 * `max_tool_calls` 5 in the user's settings and an ungated session, the
 * model is told what is left when the task starts (UserPromptSubmit's
 * context) and when the calls cross one half, four fifths and all of it
 * (the context of the call that crossed it, after its result), and never
 * otherwise. Read from the requests Claude Code sends the scripted model.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { homeWithOptions, runClaude } from "../support/claude.js";
import { text, type RecordedRequest } from "../support/scripted-model.js";
import { id, logOf, markerDir, touch } from "../gate/support.js";

/** Every budget notice in a request, in order, with the hook that gave it. */
function noticesIn(req: RecordedRequest): string[] {
  return [
    ...JSON.stringify(req.body).matchAll(
      /(UserPromptSubmit|SubagentStart|PreToolUse:\w+|PostToolUse:\w+) hook additional context: (utility budget[^"\\]*)/g,
    ),
  ].map((m) => `${m[1]}: ${m[2]}`);
}

describe("max_tool_calls 5, an ungated task of six calls", () => {
  it("tells what is left at the start, at one half, four fifths and all, and not otherwise", async () => {
    const marks = markerDir();
    const ids = [1, 2, 3, 4, 5, 6].map((n) => id(`view${n}`));
    const run = await runClaude({
      prompt: "six steps",
      pluginDir: ROOT,
      home: homeWithOptions({ max_tool_calls: 5 }),
      allowedTools: ["Bash"],
      timeoutMs: 120_000,
      script: [...ids.map((call, i) => [touch(join(marks, String(i)), call)]), [text("Done.")]],
    });
    try {
      const requests = run.model.mainRequests();
      expect(requests).toHaveLength(7);
      const last = requests.at(-1)!;
      expect(noticesIn(last)).toEqual([
        "UserPromptSubmit: utility budget left: task 5 tool calls",
        "PreToolUse:Bash: utility budget: task tool calls 60% used, 2 tool calls left",
        "PreToolUse:Bash: utility budget: task tool calls 80% used, 1 tool call left",
        "PreToolUse:Bash: utility budget: task tool calls all used (5 of 5): answer with what you have",
      ]);
      // Each came once, in the request after the call that crossed it: the start in the first, the rest after calls 3, 4 and 5.
      const firstSeen = requests.map((req) => noticesIn(req).length);
      expect(firstSeen).toEqual([1, 1, 1, 2, 3, 4, 4]);
      const sixth = logOf(run).find((r) => r.event === "PreToolUse" && r.toolUseId === ids[5]);
      expect(sixth).toMatchObject({ decision: "refused", rule: "budget_spent" });
      // What it costs the task: every notice's text, in characters (docs/speed.md turns it into tokens).
      const chars = noticesIn(last).reduce((sum, n) => sum + n.length - n.indexOf("utility budget"), 0);
      console.log(`budget notices this task: ${noticesIn(last).length}, ${chars} characters`);
      expect(chars).toBeLessThan(300);
    } finally {
      run.cleanup();
    }
  });
});
