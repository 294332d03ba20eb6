/**
 * Red team 10 (class 4): an UNGATED `context: fork` skill, called by the Skill
 * tool (a neutral call), runs its subagent under `agent_max_tool_calls: 1`.
 * Promise (SPEC §16): every kind of subagent is held to its own cap: the
 * fork's second call is refused.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { runClaude } from "../support/claude.js";
import { requestText, systemText, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { id, markerDir, ran, touch } from "../gate/support.js";
import { byId, homeWithOptions, show } from "./rt10-support.js";

const SKILL = "---\nname: forky\ndescription: investigates apart\ncontext: fork\n---\n\nFORKY-TASK: investigate.\n";

describe("an ungated forked skill's subagent under agent_max_tool_calls: 1", () => {
  it("its second call is refused", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "skills", "forky"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "skills", "forky", "SKILL.md"), SKILL);
    const calls = { load: id("rt10_fs_load"), one: id("rt10_fs_one"), two: id("rt10_fs_two") };
    let n = 0;
    const sub = (r: RecordedRequest) => {
      const t = requestText(r) + systemText(r);
      if (!t.includes("FORKY-TASK")) return [text("Done here.")];
      n += 1;
      if (n === 1) return [touch(join(marks, "one"), calls.one)];
      if (n === 2) return [touch(join(marks, "two"), calls.two)];
      return [text("FORK-FINAL: done.")];
    };
    const run = await runClaude({
      prompt: "investigate",
      cwd,
      pluginDir: ROOT,
      home: homeWithOptions({ agent_max_tool_calls: 1 }),
      allowedTools: ["Bash", "Read", "Skill"],
      timeoutMs: 90_000,
      whenExhausted: "end_turn",
      script: [[toolUse("Skill", { skill: "forky" }, calls.load)], [text("Done.")]],
      subagentScript: sub,
    });
    try {
      show(run);
      expect(ran(join(marks, "one"))).toBe(true);
      expect({ decision: byId(run, calls.two)?.decision, rule: byId(run, calls.two)?.rule, ran: ran(join(marks, "two")) }).toEqual({
        decision: "refused",
        rule: "budget_spent",
        ran: false,
      });
    } finally {
      run.cleanup();
    }
  });
});
