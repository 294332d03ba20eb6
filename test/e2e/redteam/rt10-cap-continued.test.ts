/**
 * Red team 10 (class 4): a subagent under `agent_max_tool_calls: 1` makes its
 * one call and hands back; the parent continues it with SendMessage (same
 * agent id, same conversation). Promise (SPEC §16): the cap binds what ONE
 * subagent spends: the continued agent's second call is refused.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { runClaude } from "../support/claude.js";
import { allToolResults, requestText, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { id, markerDir, ran, touch } from "../gate/support.js";
import { byId, homeWithOptions, show } from "./rt10-support.js";

describe("a capped subagent continued with SendMessage", () => {
  it("its call past the cap, after the continuation, is refused", async () => {
    const marks = markerDir();
    const calls = { agent: id("rt10_cont_agent"), send: id("rt10_cont_send"), one: id("rt10_cont_one"), two: id("rt10_cont_two") };
    const agentIdOf = (req: RecordedRequest) =>
      /agentId: (\w+)/.exec(requestText(req))?.[1] ?? /"agentId":"(\w+)"/.exec(JSON.stringify(allToolResults(req)))?.[1] ?? "unknown";
    const run = await runClaude({
      prompt: "check it",
      pluginDir: ROOT,
      home: homeWithOptions({ agent_max_tool_calls: 1 }),
      timeoutMs: 150_000,
      whenExhausted: "end_turn",
      allowedTools: ["Bash", "Read", "Agent", "SendMessage"],
      script: [
        [toolUse("Agent", { subagent_type: "general-purpose", description: "check", prompt: "SUBTASK check" }, calls.agent)],
        [text("Waiting for the worker.")],
        (req) => [
          toolUse("SendMessage", { to: agentIdOf(req), message: "SUBTASK-2 continue: run it again", summary: "continue" }, calls.send),
        ],
        [text("Waiting again.")],
        [text("Done.")],
      ],
      subagentScript: [
        [touch(join(marks, "one"), calls.one)],
        [text("SUB-FINAL: first run done.")],
        [text("Continuing."), touch(join(marks, "two"), calls.two)],
        [text("SUB-FINAL: second run done.")],
      ],
    });
    try {
      show(run);
      console.log("subagent requests:", run.model.subagentRequests().length);
      expect(ran(join(marks, "one"))).toBe(true);
      expect(run.model.subagentRequests().length, "the continuation did not reach the subagent").toBeGreaterThanOrEqual(3);
      expect({ decision: byId(run, calls.two)?.decision, ran: ran(join(marks, "two")) }).toEqual({ decision: "refused", ran: false });
    } finally {
      run.cleanup();
    }
  });
});
