/**
 * Red team 3 (ungated over-blocking, high if it holds): the fix records a
 * gated fork at the plugin's PreToolUse for the Skill call and ends it at the
 * call's result. Another PreToolUse hook (the project's settings) may deny the
 * Skill call after the plugin let it through, so no fork starts. Promise
 * (README: ungated scopes are never blocked by the plugin): a later ordinary
 * general-purpose subagent of the ungated main runs its Bash, nothing refused.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestText, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ran, touch } from "../gate/support.js";

const SKILL = "---\nname: forky\ndescription: investigates apart\ncontext: fork\nutility_gated: true\n---\n\nFORKY-TASK: investigate.\n";

describe("a gated forked Skill call denied by another hook, in an ungated main", () => {
  it("a later ordinary subagent's Bash runs, observed", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "skills", "forky"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "skills", "forky", "SKILL.md"), SKILL);
    writeFileSync(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Skill", hooks: [{ type: "command", command: "cat >/dev/null; echo 'no skills today' >&2; exit 2" }] }],
        },
      }),
    );
    const calls = { load: id("rt3_open_load"), agent: id("rt3_open_agent"), bare: id("rt3_open_bare") };
    let served = false;
    const run = await gateRun({
      prompt: "investigate",
      cwd,
      allowedTools: ["Bash", "Read", "Skill", "Agent"],
      timeoutMs: 90_000,
      whenExhausted: "end_turn",
      script: [
        [toolUse("Skill", { skill: "forky" }, calls.load)],
        [toolUse("Agent", { subagent_type: "general-purpose", description: "look", prompt: "PLAIN-TASK: look" }, calls.agent)],
        [text("Done.")],
      ],
      subagentScript: (r: RecordedRequest) => {
        if (!served && requestText(r).includes("PLAIN-TASK")) {
          served = true;
          return [touch(join(marks, "bare"), calls.bare)];
        }
        return [text("Looked.")];
      },
    });
    try {
      const rec = logOf(run).find((x) => x.toolUseId === calls.bare && x.event === "PreToolUse");
      console.log("log:", JSON.stringify(logOf(run).map((x) => [x.event, x.tool, x.decision, x.rule, x.scope, x.gated, x.agentType])));
      console.log("bare:", rec?.decision, rec?.rule, rec?.gated, "ran:", ran(join(marks, "bare")));
      expect({ decision: rec?.decision, ran: ran(join(marks, "bare")) }).toEqual({ decision: "observed", ran: true });
    } finally {
      run.cleanup();
    }
  });
});
