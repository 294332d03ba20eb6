/**
 * Which files a Skill call could load, and what it counts as
 * (src/skills/locate.ts, src/skills/classify.ts), in temporary folders laid
 * out as Claude Code 2.1.328 reads them (each layout seen in the real client
 * unless said otherwise, docs/claude-code-facts.md).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { locateSkillFiles, namesOf, type SkillSearch } from "../../src/skills/locate.js";
import { actsAsOf, classifySkillCall } from "../../src/skills/classify.js";
import { MAX_ENTRIES } from "../../src/claude/files.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-locate-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const file = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};
const md = (front: string, body = "text only") => `---\n${front}description: d\n---\n${body}\n`;
const SHELL = "Out: !`$ARGUMENTS`";

/** A layout: a home, a config folder, a git repository with a project folder inside, a plugin in the cache. */
function layout(name: string) {
  const root = join(scratch, name);
  const home = join(root, "home");
  const config = join(root, "config");
  const repo = join(root, "repo");
  const project = join(repo, "app");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(project, { recursive: true });
  const search: SkillSearch = { env: { HOME: home, CLAUDE_CONFIG_DIR: config, CLAUDE_PROJECT_DIR: project }, cwd: project, home };
  const plugin = join(config, "plugins", "cache", "market", "pp", "1.0.0");
  file(join(plugin, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "pp" }));
  return { root, home, config, repo, project, plugin, search };
}

const found = async (skill: string, search: SkillSearch) => (await locateSkillFiles(skill, search)).files.map((f) => f.file);

describe("namesOf", () => {
  it("the name as given and without a leading slash, trimmed", () => {
    expect(namesOf(" /x ")).toEqual(["/x", "x"]);
    expect(namesOf("x")).toEqual(["x"]);
    expect(namesOf("  ")).toEqual([]);
  });
});

describe("locateSkillFiles", () => {
  const l = layout("find");
  const byFolder = file(join(l.project, ".claude", "skills", "deploy", "SKILL.md"), md("name: deploy\n", SHELL));
  const byName = file(join(l.project, ".claude", "skills", "folder-x", "SKILL.md"), md("name: other-name # a comment\n"));
  const parent = file(join(l.repo, ".claude", "skills", "up", "SKILL.md"), md(""));
  const user = file(join(l.config, "skills", "mine", "SKILL.md"), md(""));
  const command = file(join(l.project, ".claude", "commands", "grp", "sub.md"), md(""));
  const commandFolder = file(join(l.config, "commands", "kit", "SKILL.md"), md(""));
  const pluginSkill = file(join(l.plugin, "skills", "s2", "SKILL.md"), md(""));
  const aliased = file(join(l.plugin, "skills", "s1", "SKILL.md"), md("name: aliasname\n"));
  const pluginCommand = file(join(l.plugin, "commands", "nested", "cmd.md"), md(""));
  const sanitized = file(join(l.plugin, "skills", "s3", "SKILL.md"), md('name: "deploy app"\n'));
  const scoped = file(join(l.project, "pkg", "web", ".claude", "skills", "deploy", "SKILL.md"), md(""));

  it("finds a project skill by its folder or by its frontmatter name, read as YAML", async () => {
    expect(await found("deploy", l.search)).toEqual([byFolder]);
    expect(await found("other-name", l.search)).toEqual([byName]);
    expect(await found("folder-x", l.search)).toEqual([byName]);
  });

  it("looks in the folders above the project up to the git work tree's top, and in the user's folder", async () => {
    expect(await found("up", l.search)).toEqual([parent]);
    expect(await found("mine", l.search)).toEqual([user]);
  });

  it("finds legacy commands by their path (a/b.md is a:b) and a SKILL.md folder under commands by its folder", async () => {
    expect(await found("grp:sub", l.search)).toEqual([command]);
    expect(await found("kit", l.search)).toEqual([commandFolder]);
    expect(await found("sub", l.search)).toEqual([]);
  });

  it("finds a plugin's skill as plugin:name, by its frontmatter name alone (an alias), and its commands", async () => {
    expect(await found("pp:s2", l.search)).toEqual([pluginSkill]);
    expect(await found("aliasname", l.search)).toEqual([aliased]);
    expect(await found("pp:aliasname", l.search)).toEqual([aliased]);
    expect(await found("pp:cmd", l.search)).toEqual([pluginCommand]);
    // A declared name's characters outside [a-zA-Z0-9_-] become "-" in plugin:name (read in the binary).
    expect(await found("pp:deploy-app", l.search)).toEqual([sanitized]);
    // A bare folder name only gets "did you mean pp:s2?" from Claude Code: it loads nothing.
    expect(await found("s2", l.search)).toEqual([]);
    expect(await found("other:s2", l.search)).toEqual([]);
  });

  it("finds a directory-scoped skill some/dir:name below the project (not seen: 2.1.328 offline never listed one)", async () => {
    expect(await found("pkg/web:deploy", l.search)).toEqual([scoped]);
  });

  it("never follows a name out of the project: .. and separators name nothing", async () => {
    for (const name of ["../repo:up", "pkg/../pkg/web:deploy", "/etc:passwd", "pkg\\web:deploy", "..:x", ".:deploy"])
      expect(await found(name, l.search)).toEqual([]);
  });

  it("finds nothing for a name nothing answers to", async () => {
    expect(await found("nothing-here", l.search)).toEqual([]);
  });
});

describe("classifySkillCall", () => {
  const l = layout("classify");
  file(join(l.project, ".claude", "skills", "sh", "SKILL.md"), md("name: sh\n", SHELL));
  file(join(l.project, ".claude", "skills", "forked", "SKILL.md"), md("name: forked\ncontext: fork\nagent: Explore\n"));
  file(join(l.project, ".claude", "skills", "plain", "SKILL.md"), md("name: plain\n"));
  file(join(l.config, "skills", "plain", "SKILL.md"), md("name: plain\n", "```!\nls\n```"));
  file(join(l.project, ".claude", "skills", "review", "SKILL.md"), md("name: review\n"));

  it("a skill that runs shell as it loads acts as tool_call, naming the file and the command", async () => {
    const verdict = await classifySkillCall({ skill: "sh", args: "id" }, l.search);
    expect(verdict.class).toBe("tool_call");
    expect(verdict.why).toBe(
      `skill "sh" runs shell commands when it loads (${join(l.project, ".claude", "skills", "sh", "SKILL.md")}: "$ARGUMENTS")`,
    );
    expect(actsAsOf(verdict)).toEqual({ action: "tool_call", why: verdict.why });
  });

  it("a forked skill acts as delegate", async () => {
    const verdict = await classifySkillCall({ skill: "forked" }, l.search);
    expect(verdict).toMatchObject({ class: "delegate" });
    expect(verdict.why).toMatch(/^skill "forked" runs in a forked subagent \(Explore\) when it loads \(context: fork in /);
  });

  it("of several files for one name the most demanding wins (a user skill of the same name that runs shell)", async () => {
    expect((await classifySkillCall({ skill: "plain" }, l.search)).class).toBe("tool_call");
  });

  it("a built-in counts as what it does, and a file of the same name too: the most demanding wins", async () => {
    expect((await classifySkillCall({ skill: "security-review" }, l.search)).class).toBe("tool_call");
    expect((await classifySkillCall({ skill: "review" }, l.search)).class).toBe("delegate");
    expect((await classifySkillCall({ skill: "update-config" }, l.search)).class).toBe("neutral");
    expect(actsAsOf({ class: "neutral", why: "" })).toBeUndefined();
  });

  it("a folder with more files than the hooks read makes the call count as tool_call: what the name loads there cannot be known", async () => {
    const crowded = layout("crowded");
    const commands = join(crowded.project, ".claude", "commands");
    mkdirSync(commands, { recursive: true });
    for (let i = 0; i <= MAX_ENTRIES; i++) writeFileSync(join(commands, `c${String(i).padStart(5, "0")}.md`), "");
    file(join(crowded.project, ".claude", "skills", "plain", "SKILL.md"), md("name: plain\n"));
    expect((await locateSkillFiles("plain", crowded.search)).incomplete).toEqual([commands]);
    const verdict = await classifySkillCall({ skill: "plain" }, crowded.search);
    expect(verdict).toEqual({
      class: "tool_call",
      why: `${commands} holds more files than the hooks read, so what "plain" loads cannot be known`,
    });
  });

  it("a name nothing answers to is unknown, which a gated scope counts as tool_call", async () => {
    const verdict = await classifySkillCall({ skill: "ghost" }, l.search);
    expect(verdict.class).toBe("unknown");
    expect(actsAsOf(verdict)).toEqual({
      action: "tool_call",
      why: 'no skill file or built-in skill named "ghost" was found, so what it runs cannot be read',
    });
    for (const input of [{}, { skill: 3 }, { skill: " " }, null, "sh"])
      expect((await classifySkillCall(input, l.search)).class).toBe("unknown");
  });
});
