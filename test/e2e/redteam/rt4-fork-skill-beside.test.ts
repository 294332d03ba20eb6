/**
 * Red team 4 (class 2, ungated scopes touched): src/engine/session/fork.ts
 * since 9bb84b3 gates EVERY subagent that starts between a gated
 * `context: fork` Skill call and its result, whatever its type. An ungated
 * main that, in one message, loads a gated forked skill and also launches an
 * ordinary Explore/general-purpose subagent for unrelated work: that ordinary
 * subagent was launched by an ungated scope. Promise (README: ungated scopes
 * are never blocked by the plugin): its report-less Bash runs, observed.
 * (docs/gate.md says "one launched beside it is gated too (fail closed)".)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestText, systemText, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ran, touch } from "../gate/support.js";

const SKILL =
  "---\nname: forky\ndescription: investigates apart\ncontext: fork\nutility_gated: true\n---\n\nFORKY-TASK: investigate, with an action report before every tool call.\n";

function once(calls: Record<string, () => ReturnType<typeof touch>>) {
  const seen = new Set<string>();
  return (r: RecordedRequest) => {
    const t = requestText(r) + systemText(r);
    for (const [tag, call] of Object.entries(calls))
      if (t.includes(tag) && !seen.has(tag)) {
        seen.add(tag);
        return [text("Running."), call()];
      }
    return [text("Sub done.")];
  };
}

// A documented choice (docs/limits.md, docs/gate.md): while a gated forked skill's Skill call runs, every subagent
// that starts is gated, since Claude Code does not say which start is the fork's. `it.fails` keeps it in view: this
// passes while the choice holds, and fails once the ordinary subagent is told apart and let through.
describe("an ungated main: a gated forked Skill and an ordinary Agent in one message", () => {
  it.fails("the ordinary subagent's Bash runs, observed (not refused)", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "skills", "forky"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "skills", "forky", "SKILL.md"), SKILL);
    const calls = { load: id("rt4_beside_skill"), agent: id("rt4_beside_agent"), plain: id("rt4_beside_plain") };
    const run = await gateRun({
      prompt: "investigate and also list the files",
      cwd,
      allowedTools: ["Bash", "Read", "Skill", "Agent"],
      timeoutMs: 120_000,
      whenExhausted: "end_turn",
      script: [
        [
          toolUse("Skill", { skill: "forky" }, calls.load),
          toolUse(
            "Agent",
            { description: "list files", prompt: "PLAIN-TASK: list the files.", subagent_type: "general-purpose" },
            calls.agent,
          ),
        ],
        [text("Done.")],
      ],
      subagentScript: once({ "PLAIN-TASK": () => touch(join(marks, "plain"), calls.plain) }),
    });
    try {
      const rec = logOf(run).find((x) => x.toolUseId === calls.plain && x.event === "PreToolUse");
      console.log("plain subagent bash:", rec?.decision, rec?.rule, rec?.gated, rec?.gatedBy, "ran:", ran(join(marks, "plain")));
      expect({ decision: rec?.decision, ran: ran(join(marks, "plain")) }).toEqual({ decision: "observed", ran: true });
    } finally {
      run.cleanup();
    }
  });
});
