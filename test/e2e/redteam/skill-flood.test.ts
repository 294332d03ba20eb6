/**
 * Red team (class 4): "sessions you do not opt in are never blocked", on time.
 * A project holds many skills whose frontmatter is large (each within the
 * plugin's 65,536-character bound) and names the skill the model calls, so
 * that the hooks parse every one of them to learn which file the name loads.
 * An ungated Skill call (and a plain Bash after it) must not wait for that nor
 * be refused.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { lastToolResults, text, toolUse } from "../support/scripted-model.js";
import { gateRun, id, markerDir, ran, touch } from "../gate/support.js";

const SKILLS = 1500;

function floodedProject() {
  const cwd = markerDir();
  let block = "description: helper for target work\n";
  let i = 0;
  while (block.length < 64_000) block += `k${i++}: [a, b, {c: d, e: [f, g]}]\n`;
  for (let n = 0; n < SKILLS; n++) {
    const dir = join(cwd, ".claude", "skills", `s${n}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "SKILL.md"), `---\nname: s${n}\n${block}---\nText.\n`);
  }
  const dir = join(cwd, ".claude", "skills", "target");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), "---\nname: target\ndescription: the target\n---\nDo the target thing.\n");
  return { cwd, home: makeScratchHome([cwd]) };
}

describe("an ungated Skill call in a project with many large skill frontmatters", () => {
  it("is answered on time and refused nothing", async () => {
    const marks = markerDir();
    const { cwd, home } = floodedProject();
    const calls = { skill: id("rt_flood_skill"), bash: id("rt_flood_bash") };
    const stamps: number[] = [];
    const run = await gateRun({
      prompt: "do the target thing",
      cwd,
      home,
      projectSkills: [],
      timeoutMs: 240_000,
      allowedTools: ["Bash", "Read", "Skill"],
      script: [
        () => (stamps.push(Date.now()), [toolUse("Skill", { skill: "target" }, calls.skill)]),
        () => (stamps.push(Date.now()), [touch(join(marks, "bash-ran"), calls.bash)]),
        () => (stamps.push(Date.now()), [text("Done.")]),
      ],
    });
    try {
      // Past its hook's timeout Claude Code would refuse the call (onFailure: block): answered in time means refused nothing.
      // The lookup's bound itself is tested without a clock (test/skills/locate-bounds.test.ts).
      const denied = run.result?.permission_denials.map((d) => d.tool_use_id) ?? [];
      expect(denied).toEqual([]);
      for (const req of run.model.mainRequests()) for (const r of lastToolResults(req)) expect(r.is_error, r.text).not.toBe(true);
      expect(ran(join(marks, "bash-ran"))).toBe(true);
      expect(stamps).toHaveLength(3);
    } finally {
      run.cleanup();
    }
  }, 300_000);
});
