/**
 * Red team 10 (class 2): a gated task's `delegate` step launches a fork
 * (`Agent{subagent_type: "fork"}`, gated as its launcher, docs/gate.md); the
 * fork makes one reported call and hands back. The task continues the fork
 * by SendMessage (same agent id; Claude Code starts it again, a second
 * SubagentStart). Promise: the continued fork is still gated: its report-less
 * call is refused and does not run.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allToolResults, requestText, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { activate, gateRun, id, logOf, markerDir, ok, ran, touch } from "../gate/support.js";
import { show } from "./rt10-support.js";

describe("a gated fork continued by SendMessage", () => {
  it("its report-less call after the continuation is refused", async () => {
    const marks = markerDir();
    const calls = {
      load: id("rt10_fc_load"),
      fork: id("rt10_fc_fork"),
      send: id("rt10_fc_send"),
      one: id("rt10_fc_one"),
      bare: id("rt10_fc_bare"),
    };
    const agentIdOf = (req: RecordedRequest) =>
      /agentId: (\w+)/.exec(requestText(req))?.[1] ?? /"agentId":"(\w+)"/.exec(JSON.stringify(allToolResults(req)))?.[1] ?? "unknown";
    const run = await gateRun({
      prompt: "work",
      timeoutMs: 150_000,
      whenExhausted: "end_turn",
      allowedTools: ["Bash", "Read", "Agent", "SendMessage", "Skill"],
      script: [
        [{ ...activate(), id: calls.load }],
        [
          text(ok("delegate", "Fork it.")),
          toolUse("Agent", { subagent_type: "fork", description: "fork", prompt: "FORK-JOB: check" }, calls.fork),
        ],
        [text("Waiting for the fork.")],
        (req) => [
          text(ok("delegate", "Continue the fork.")),
          toolUse("SendMessage", { to: agentIdOf(req), message: "FORK-2: run it again", summary: "again" }, calls.send),
        ],
        [text("Waiting.")],
        [text("Done.")],
        [text("Done.")],
      ],
      subagentScript: [
        [text(ok("verify", "Run it.")), touch(join(marks, "one"), calls.one)],
        [text("SUB-FINAL: first run done.")],
        [text("Continuing."), touch(join(marks, "bare"), calls.bare)],
        [text("SUB-FINAL: second run done.")],
      ],
    });
    try {
      show(run);
      const send = logOf(run).find((r) => r.toolUseId === calls.send && r.event === "PreToolUse");
      const one = logOf(run).find((r) => r.toolUseId === calls.one && r.event === "PreToolUse");
      console.log("one:", one?.decision, one?.gated, "send:", send?.decision, "subs:", run.model.subagentRequests().length);
      expect(one?.gated, "the fork was not gated at its launch: inconclusive").toBe(true);
      expect(run.model.subagentRequests().length, "the continuation did not reach the fork").toBeGreaterThanOrEqual(3);
      const rec = logOf(run).find((r) => r.toolUseId === calls.bare && r.event === "PreToolUse");
      expect({ decision: rec?.decision, ran: ran(join(marks, "bare")) }).toEqual({ decision: "refused", ran: false });
    } finally {
      run.cleanup();
    }
  });
});
