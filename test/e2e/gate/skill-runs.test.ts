/**
 * A Skill call counts by what Claude Code will run when its skill loads
 * (issue 31, holes 1 and 3): a skill whose frontmatter registers hooks cannot
 * be loaded under the gate (its hooks would run commands on every later call,
 * refused ones included); a skill file changed after the prompt began counts
 * as running shell, since Claude Code may run the text it read before. Each
 * with its ungated twin, where nothing is refused and the hook really runs.
 */
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE_SKILL } from "../../support/paths.js";
import { assertRunOk } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { hookSkill, skillFolder } from "./skill-fixtures.js";
import { activate, gateRun, id, markerDir, ok, ran, recordOf, touch } from "./support.js";

describe("a skill that registers hooks", () => {
  it("gated: loading it is refused, and its hook never runs", async () => {
    const marks = markerDir();
    const load = id("hooky");
    const run = await gateRun({
      prompt: "why does test_parse fail?",
      projectSkills: [EXAMPLE_SKILL, hookSkill(join(marks, "hook-ran"))],
      allowedTools: ["Bash", "Read", "Skill"],
      script: [
        [activate()],
        [text(ok("tool_call", "Load the helper skill.")), toolUse("Skill", { skill: "hooky" }, load)],
        [text(ok("verify", "Run the test.")), touch(join(marks, "bash-ran"))],
        [text("Done.")],
      ],
    });
    try {
      assertRunOk(run);
      expect(recordOf(run, load)).toMatchObject({ decision: "refused", rule: "foreign_hooks" });
      expect(recordOf(run, load).reason).toContain("loading it would register the hooks in");
      expect(ran(join(marks, "bash-ran"))).toBe(true);
      expect(ran(join(marks, "hook-ran"))).toBe(false);
    } finally {
      run.cleanup();
    }
  });

  it("ungated: it loads and its hook runs; nothing is refused", async () => {
    const marks = markerDir();
    const run = await gateRun({
      prompt: "hello",
      projectSkills: [hookSkill(join(marks, "hook-ran"))],
      allowedTools: ["Bash", "Read", "Skill"],
      script: [[toolUse("Skill", { skill: "hooky" })], [touch(join(marks, "bash-ran"))], [text("Done.")]],
    });
    try {
      assertRunOk(run);
      expect(ran(join(marks, "bash-ran"))).toBe(true);
      expect(ran(join(marks, "hook-ran"))).toBe(true);
      const refused = run.transcript().filter((l) => JSON.stringify(l).includes("utility gate:"));
      expect(refused).toEqual([]);
    } finally {
      run.cleanup();
    }
  });
});

describe("a skill file changed after the prompt began", () => {
  const plain = (name: string) => skillFolder(name, "", "Plain text: nothing runs.\n");

  it("gated: a Skill call with no report is refused as a tool_call; the command never runs", async () => {
    const marks = markerDir();
    const call = id("changed");
    // The skill's folder is linked in from outside the project (as shared skills often are): Claude Code asks before a shell writes under .claude, not there.
    const cwd = markerDir();
    const real = skillFolder("sh", "", "!`$ARGUMENTS`\n");
    mkdirSync(join(cwd, ".claude", "skills"), { recursive: true });
    symlinkSync(real, join(cwd, ".claude", "skills", "sh"));
    const file = join(real, "SKILL.md");
    const run = await gateRun({
      prompt: "why does test_parse fail?",
      cwd,
      projectSkills: [EXAMPLE_SKILL],
      allowedTools: ["Bash", "Read", "Skill"],
      script: [
        [activate()],
        [
          text(ok("verify", "Make the skill plain.")),
          toolUse("Bash", {
            command: `printf -- '---\\nname: sh\\ndescription: plain\\n---\\n\\nPlain.\\n' > ${file}`,
            description: "rewrite",
          }),
        ],
        [toolUse("Skill", { skill: "sh", args: `touch ${join(marks, "cmd-ran")}` }, call)],
        [text("Done.")],
      ],
    });
    try {
      assertRunOk(run);
      expect(recordOf(run, call)).toMatchObject({ decision: "refused", rule: "no_report" });
      expect(recordOf(run, call).reason).toContain("changed after this prompt began");
      expect(readFileSync(file, "utf8")).toContain("Plain.");
      expect(ran(join(marks, "cmd-ran"))).toBe(false);
    } finally {
      run.cleanup();
    }
  });

  it("gated twin: the same skill untouched loads as text with no report", async () => {
    const call = id("unchanged");
    const run = await gateRun({
      prompt: "why does test_parse fail?",
      projectSkills: [EXAMPLE_SKILL, plain("sh")],
      allowedTools: ["Bash", "Read", "Skill"],
      script: [[activate()], [toolUse("Skill", { skill: "sh" }, call)], [text("Done.")]],
    });
    try {
      assertRunOk(run);
      const records = run.transcript().filter((l) => JSON.stringify(l).includes("utility gate:"));
      expect(records).toEqual([]);
    } finally {
      run.cleanup();
    }
  });
});
