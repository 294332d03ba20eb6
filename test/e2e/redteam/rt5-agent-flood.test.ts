/**
 * Red team 5 (class 5): "sessions you do not opt in are never blocked", on
 * time, for agent definitions: a project holds many agent files with large
 * frontmatter (each within the plugin's 65,536-character bound), so that the
 * hooks parse each to learn which definition a subagent's type names. An
 * ungated Agent launch and the subagent's Bash call must not be refused or
 * time out. Twin of redteam/skill-flood.test.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ran, touch } from "../gate/support.js";

const AGENTS = 800;

function floodedProject() {
  const cwd = markerDir();
  let block = "description: helper for target work\n";
  let i = 0;
  while (block.length < 64_000) block += `k${i++}: [a, b, {c: d, e: [f, g]}]\n`;
  const dir = join(cwd, ".claude", "agents");
  mkdirSync(dir, { recursive: true });
  for (let n = 0; n < AGENTS; n++) writeFileSync(join(dir, `a${n}.md`), `---\nname: a${n}\n${block}---\nText.\n`);
  writeFileSync(join(dir, "zz-target.md"), "---\nname: target\ndescription: the target\ntools: Bash\n---\nDo the target thing.\n");
  return { cwd, home: makeScratchHome([cwd]) };
}

describe("an ungated Agent launch in a project with many large agent frontmatters", () => {
  it("is answered on time and refused nothing", async () => {
    const marks = markerDir();
    const { cwd, home } = floodedProject();
    const calls = { agent: id("rt5_aflood_agent"), bash: id("rt5_aflood_bash") };
    const t0 = Date.now();
    const run = await gateRun({
      prompt: "do the target thing",
      cwd,
      home,
      projectSkills: [],
      timeoutMs: 240_000,
      allowedTools: ["Bash", "Read", "Agent"],
      script: [[toolUse("Agent", { description: "t", prompt: "go", subagent_type: "target" }, calls.agent)], [text("Done.")]],
      subagentScript: [[touch(join(marks, "sub-bash"), calls.bash)], [text("sub done")]],
    });
    try {
      const denied = run.result?.permission_denials.map((d) => d.tool_use_id) ?? [];
      const recs = logOf(run)
        .filter((r: any) => r.event === "PreToolUse")
        .map((r: any) => `${r.tool}:${r.decision}:${r.rule ?? ""}`);
      console.log("secs:", (Date.now() - t0) / 1000, "| denied:", denied, "| sub ran:", ran(join(marks, "sub-bash")), "|", recs.join(" "));
      expect(denied).toEqual([]);
      expect(ran(join(marks, "sub-bash"))).toBe(true);
    } finally {
      run.cleanup();
    }
  }, 300_000);
});
