/**
 * Red team 11 (class 4, notices): the budget in the model's view (SPEC §16,
 * docs/speed.md "What the budget notices cost a task": a task that ends
 * under half its budget, the common case, pays 15 tokens). A common case:
 * the user sets a token, a cost and a tool-call budget; an UNGATED task
 * launches two subagents (one after the other) that each make one call, and
 * makes one call itself; every budget ends far under half. Each conversation
 * (main, each subagent) is told its start notice; nothing crosses a
 * threshold. Promise (brief): no lie, no repeat, at most 50 tokens per task
 * in a common case. Tokens estimated at docs/speed.md's own measured rate
 * (its 80-character start notice is 15 tokens: 15/80 a character).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { runClaude } from "../support/claude.js";
import { routeByPrompt, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { id, markerDir, touch } from "../gate/support.js";
import { homeWithOptions } from "./rt10-support.js";

function noticesIn(req: RecordedRequest): string[] {
  return [
    ...JSON.stringify(req.body).matchAll(
      /(UserPromptSubmit|SubagentStart|PreToolUse:\w+|PostToolUse:\w+) hook additional context: (utility budget[^"\\]*)/g,
    ),
  ].map((m) => `${m[1]} hook additional context: ${m[2]}`);
}

describe("budgets of three kinds, a task with two small subagents", () => {
  it("costs the task at most 50 tokens of notices, none repeated", async () => {
    const marks = markerDir();
    const run = await runClaude({
      prompt: "look around",
      pluginDir: ROOT,
      home: homeWithOptions({ token_budget: 200_000, cost_budget_usd: 2, max_tool_calls: 40 }),
      allowedTools: ["Bash", "Agent"],
      timeoutMs: 150_000,
      whenExhausted: "end_turn",
      script: [
        [toolUse("Agent", { description: "one", prompt: "ONE: look", subagent_type: "general-purpose" }, id("rt11_nc_a1"))],
        [toolUse("Agent", { description: "two", prompt: "TWO: look", subagent_type: "general-purpose" }, id("rt11_nc_a2"))],
        [touch(join(marks, "m"), id("rt11_nc_m"))],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([
        ["ONE", [[touch(join(marks, "s1"))], [text("one done")]]],
        ["TWO", [[touch(join(marks, "s2"))], [text("two done")]]],
      ]),
    });
    try {
      const main = noticesIn(run.model.mainRequests().at(-1)!);
      const subs = run.model.subagentRequests();
      const byConversation = new Map<string, string[]>();
      for (const req of subs) {
        const n = noticesIn(req);
        const key = JSON.stringify(req.body).includes("ONE: look") ? "ONE" : "TWO";
        if (n.length >= (byConversation.get(key)?.length ?? 0)) byConversation.set(key, n);
      }
      const all = [...main, ...[...byConversation.values()].flat()];
      console.log("main:", main, "\nsubagents:", Object.fromEntries(byConversation));
      const chars = all.reduce((s, n) => s + n.length, 0);
      console.log(`notices this task: ${all.length}, ${chars} characters, about ${Math.round((chars * 15) / 80)} tokens`);
      expect(new Set(main).size, "a notice repeated in the main conversation").toBe(main.length);
      expect(Math.round((chars * 15) / 80), all.join(" | ")).toBeLessThanOrEqual(50);
    } finally {
      run.cleanup();
    }
  });
});
