/**
 * Red team 3 (class 2): a gated `context: fork` skill's subagent launches its
 * own subagent (a type other than the fork's, so src/engine/session/fork.ts's
 * type match does not apply). Promise (docs/gate.md: gated-ness follows
 * subagents): the nested subagent's report-less Bash is refused and does not run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestText, systemText, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ok, ran, touch } from "../gate/support.js";

const SKILL =
  "---\nname: forky\ndescription: investigates apart\ncontext: fork\nutility_gated: true\n---\n\nFORKY-TASK: investigate, with an action report before every tool call.\n";

describe.each(["Explore", "general-purpose"])("a gated forked skill's subagent launches a nested %s subagent", (type) => {
  it("the nested subagent's report-less Bash is refused", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "skills", "forky"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "skills", "forky", "SKILL.md"), SKILL);
    const calls = { load: id("rt3_nest_load"), launch: id("rt3_nest_launch"), bare: id("rt3_nest_bare") };
    const seen = new Set<string>();
    const sub = (r: RecordedRequest) => {
      const t = requestText(r) + systemText(r);
      if (t.includes("NESTED-TASK") && !seen.has("n")) {
        seen.add("n");
        return [touch(join(marks, "nested"), calls.bare)];
      }
      if (t.includes("FORKY-TASK") && !seen.has("f")) {
        seen.add("f");
        return [
          text(ok("delegate", "Hand it on.")),
          toolUse("Agent", { subagent_type: type, description: "nested", prompt: "NESTED-TASK: look" }, calls.launch),
        ];
      }
      return [text("Done here.")];
    };
    const run = await gateRun({
      prompt: "investigate",
      cwd,
      allowedTools: ["Bash", "Read", "Skill", "Agent"],
      timeoutMs: 90_000,
      whenExhausted: "end_turn",
      script: [[toolUse("Skill", { skill: "forky" }, calls.load)], [text("Done.")]],
      subagentScript: sub,
    });
    try {
      const launch = logOf(run).find((x) => x.toolUseId === calls.launch && x.event === "PreToolUse");
      const rec = logOf(run).find((x) => x.toolUseId === calls.bare && x.event === "PreToolUse");
      console.log(
        type,
        "| launch:",
        launch?.decision,
        launch?.rule,
        (launch as any)?.reason?.slice(0, 300),
        "| nested bare:",
        rec?.decision,
        rec?.rule,
        rec?.agentType,
        rec?.gated,
        "ran:",
        ran(join(marks, "nested")),
        "| subs:",
        run.model.subagentRequests().length,
      );
      // Held when the nested launch is refused (delegate is not an action in a subagent scope) or the nested call is.
      expect(ran(join(marks, "nested"))).toBe(false);
      if (launch?.decision === "passed") expect(rec?.decision).toBe("refused");
    } finally {
      run.cleanup();
    }
  });
});
