/**
 * A lookup reads and parses a bounded amount (src/skills/locate.ts, issue 31's
 * red-team pass): a folder of many skills whose large frontmatter names the
 * called skill is incomplete once the lookup's share is used, instead of
 * keeping a call waiting past its hook's timeout.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LOOKUP_PARSE_BYTES, LOOKUP_READ_BYTES, locateSkillFiles } from "../../src/skills/locate.js";
import { classifySkillCall } from "../../src/skills/classify.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-locate-bounds-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A project with `count` skills, each with a frontmatter of about `bytes` that names `target` (so it must be parsed to rule it out). */
function project(name: string, count: number, bytes: number): { cwd: string; skills: string } {
  const cwd = join(scratch, name);
  const skills = join(cwd, ".claude", "skills");
  const filler = `note: "${"x".repeat(bytes)}"\n`;
  for (let i = 0; i < count; i++) {
    mkdirSync(join(skills, `s${i}`), { recursive: true });
    writeFileSync(join(skills, `s${i}`, "SKILL.md"), `---\nname: s${i}\ndescription: not target\n${filler}---\nBody.\n`);
  }
  return { cwd, skills };
}

const search = (cwd: string) => ({
  env: { HOME: join(scratch, "home"), CLAUDE_CONFIG_DIR: join(scratch, "config") },
  cwd,
  home: join(scratch, "home"),
});

describe("a lookup's share of reading and parsing", () => {
  it("frontmatter that names the skill, past the parse share: the folder is incomplete, and the call counts as tool_call", async () => {
    const { cwd, skills } = project("many", Math.ceil((2 * LOOKUP_PARSE_BYTES) / (64 * 1024)), 64 * 1024);
    const located = await locateSkillFiles("target", search(cwd));
    expect(located.files).toEqual([]);
    expect(located.incomplete).toEqual([skills]);
    expect((await classifySkillCall({ skill: "target" }, search(cwd))).class).toBe("tool_call");
  });

  it("within the share: nothing incomplete, an unknown name stays unknown", async () => {
    const { cwd } = project("few", 4, 64 * 1024);
    const located = await locateSkillFiles("target", search(cwd));
    expect(located.incomplete).toEqual([]);
    expect((await classifySkillCall({ skill: "target" }, search(cwd))).class).toBe("unknown");
  });

  it("past the read share, files are not read at all: the folder is incomplete", async () => {
    const { cwd, skills } = project("big", Math.ceil(LOOKUP_READ_BYTES / (200 * 1024)) + 2, 200 * 1024);
    expect((await locateSkillFiles("other", search(cwd))).incomplete).toEqual([skills]);
  });
});
