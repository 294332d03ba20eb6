/**
 * The turn's last message is counted when the turn ends (issue 34, second
 * walk, surprise 2), in the real client: Claude Code runs Stop before it
 * writes the final message's lines, so an ungated scope that did not wait
 * for them left the last reply's tokens out of the spend until the next hook
 * (the status line, `/utility status` and budgets read 330 of 440). With a
 * session token budget spent by the second call, the model answers anyway;
 * the Stop record and the state hold all four replies.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { homeWithOptions, runClaude, type RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { id, logOf, markerDir, resultFor, touch } from "../gate/support.js";

const PER_REPLY = { input_tokens: 90, output_tokens: 20 };

describe("an ungated session of three calls and an answer, 110 tokens a reply, session_token_budget 200", () => {
  const marks = markerDir();
  const ids = [1, 2, 3].map((n) => id(`fin${n}`));
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await runClaude({
      prompt: "check the files",
      pluginDir: ROOT,
      home: homeWithOptions({ session_token_budget: 200 }),
      allowedTools: ["Bash"],
      usage: () => PER_REPLY,
      timeoutMs: 120_000,
      script: [...ids.map((call, i) => [touch(join(marks, String(i)), call)]), [text("Here is what I found.")]],
    });
  }, 180_000);
  afterAll(() => run?.cleanup());

  it("refuses the calls past the budget", () => {
    const decisions = ids.map((call) => logOf(run).find((r) => r.event === "PreToolUse" && r.toolUseId === call)?.decision);
    expect(decisions).toEqual(["observed", "refused", "refused"]);
  });

  it("says the refusal is the plugin's budget, not a gate, in a scope no gate binds (second first-hour walk, surprise 4)", () => {
    const seen = resultFor(run.model.mainRequests(), ids[1]!);
    expect(seen.text).toMatch(/^PreToolUse:Bash hook error: utility: This session's token budget is spent: 220 tokens of 200/);
  });

  it("counts the final reply in the Stop record's spend: four replies, 440 tokens", () => {
    const stop = logOf(run).find((r) => r.event === "Stop");
    expect(stop).toBeDefined();
    const tokens = (stop as unknown as { scopeSpend: { tokens: Record<string, number> } }).scopeSpend.tokens;
    const total = Object.values(tokens).reduce((a, b) => a + b, 0);
    expect(total).toBe(440);
  });
});
