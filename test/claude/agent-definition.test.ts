/**
 * Finding a subagent type's definition by its name as Claude Code reads it
 * (src/claude/agent-definition.ts; issue 18 item 8: `name: gated-helper # …`
 * made a gated agent run ungated, since the name was read by regex).
 */
import { mkdirSync, mkdtempSync, opendirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findAgentDefinition, findAgentDefinitions } from "../../src/claude/agent-definition.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-agents-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const file = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};
const agent = (front: string) => `---\n${front}\ndescription: d\nutility_gated: true\n---\nbody\n`;

const home = join(scratch, "home");
const project = join(scratch, "project");
const env = { HOME: home, CLAUDE_CONFIG_DIR: join(scratch, "config") };
const search = (agentType: string, over = {}) => ({ agentType, projectDir: project, home, env, pluginDirs: [], ...over });

describe("project, user and managed agents: the type is the frontmatter name, read as YAML", () => {
  const commented = file(join(project, ".claude", "agents", "a.md"), agent("name: gated-helper # the gated one"));
  const quoted = file(join(project, ".claude", "agents", "b.md"), agent('name: "quoted-helper"'));
  const nested = file(join(project, ".claude", "agents", "team", "c.md"), agent("name: nested-helper"));
  const user = file(join(scratch, "config", "agents", "d.md"), agent("name: user-helper"));
  file(join(project, ".claude", "agents", "e.md"), agent("name: 42"));
  file(join(project, ".claude", "agents", "cut.md"), "---\ndescription: a---b\nname: cut-helper\n---\nbody\n");

  it("a YAML comment after the name is no part of it", async () => {
    expect(await findAgentDefinition(search("gated-helper"))).toBe(commented);
    expect(await findAgentDefinition(search("gated-helper # the gated one"))).toBeUndefined();
  });

  it("quotes are YAML's, sub-folders are searched, the user's folder is CLAUDE_CONFIG_DIR", async () => {
    expect(await findAgentDefinition(search("quoted-helper"))).toBe(quoted);
    expect(await findAgentDefinition(search("nested-helper"))).toBe(nested);
    expect(await findAgentDefinition(search("user-helper"))).toBe(user);
  });

  it("a name that is no text defines no agent; one Claude Code's split cuts away is not there", async () => {
    expect(await findAgentDefinition(search("42"))).toBeUndefined();
    expect(await findAgentDefinition(search("cut-helper"))).toBeUndefined();
  });

  it("built-in types have no file", async () => {
    expect(await findAgentDefinitions(search("general-purpose"))).toEqual([]);
  });
});

describe("plugin agents: <plugin>:<sub-folders>:<name or file name>", () => {
  const plugin = join(scratch, "plugin");
  file(join(plugin, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "ufix" }));
  const named = file(join(plugin, "agents", "helper-file.md"), agent("name: gated-helper # note"));
  const unnamed = file(join(plugin, "agents", "by-file.md"), "---\ndescription: d\nutility_gated: true\n---\n");
  const deep = file(join(plugin, "agents", "team", "lead.md"), agent("name: captain"));
  const renamed = file(join(plugin, "agents", "other.md"), agent("name: renamed"));
  const inPlugin = (agentType: string) => search(agentType, { pluginDirs: [plugin] });

  it("finds by the manifest's name and the YAML name, by the file name when there is no name, with sub-folders in the type", async () => {
    expect(await findAgentDefinition(inPlugin("ufix:gated-helper"))).toBe(named);
    expect(await findAgentDefinition(inPlugin("ufix:by-file"))).toBe(unnamed);
    expect(await findAgentDefinition(inPlugin("ufix:team:captain"))).toBe(deep);
    expect(await findAgentDefinition(inPlugin("ufix:renamed"))).toBe(renamed);
  });

  it("a file with a name does not answer to its file name, nor another plugin's name", async () => {
    expect(await findAgentDefinition(inPlugin("ufix:other"))).toBeUndefined();
    expect(await findAgentDefinition(inPlugin("ufix:captain"))).toBeUndefined();
    expect(await findAgentDefinition(inPlugin("other:gated-helper"))).toBeUndefined();
    expect(await findAgentDefinition(search("ufix:gated-helper"))).toBeUndefined();
  });

  it("the plugin running the hook is found by its own root and name", async () => {
    expect(await findAgentDefinition(search("mine:gated-helper", { pluginRoot: plugin, pluginName: "mine" }))).toBe(named);
  });
});

describe("frontmatter Claude Code reads that this reader may not (issue 31, hole 12): never failing open", () => {
  const dir = join(project, ".claude", "agents", "odd");
  const repeated = file(join(dir, "dup.md"), "---\nname: dup-helper\ndescription: one\ndescription: two\nutility_gated: true\n---\nbody\n");
  const big = (front: string) => `---\n${front}\nnote: "${"x".repeat(70_000)}"\n---\nbody\n`;
  const unreadableGated = file(join(dir, "big-gated.md"), big("name: big-gated\nutility_gated: true"));
  file(join(dir, "big-plain.md"), big("name: big-plain"));

  it("a repeated key is read as Claude Code reads it: the file defines its type", async () => {
    expect(await findAgentDefinition(search("dup-helper"))).toBe(repeated);
  });

  it("a block over the bounds that could name the type and asks for the gate defines it; one that does not ask, nothing", async () => {
    expect(await findAgentDefinitions(search("big-gated"))).toEqual([unreadableGated]);
    expect(await findAgentDefinitions(search("big-plain"))).toEqual([]);
    expect(await findAgentDefinitions(search("other-type"))).toEqual([]);
  });
});

describe("one type, several files: the one Claude Code runs (its order, the last wins)", () => {
  const root = join(scratch, "shadow");
  const top = join(root, "top");
  const deep = join(top, "sub");
  const userDir = join(root, "config");
  const shadowEnv = { HOME: join(root, "home"), CLAUDE_CONFIG_DIR: userDir };
  const find = (agentType: string, projectDir = deep) =>
    findAgentDefinitions({ agentType, projectDir, home: join(root, "home"), env: shadowEnv, pluginDirs: [] });
  const def = (name: string, over = "description: d") => `---\nname: ${name}\n${over}\n---\nbody\n`;
  const osOrder = (dir: string) => {
    const open = opendirSync(dir);
    const names: string[] = [];
    for (let e = open.readSync(); e !== null; e = open.readSync()) names.push(e.name);
    open.closeSync();
    return names;
  };

  const user = file(join(userDir, "agents", "r.md"), def("over-user"));
  const project = file(join(deep, ".claude", "agents", "r.md"), def("over-user"));
  const shallow = file(join(top, ".claude", "agents", "r.md"), def("over-depth"));
  const deeper = file(join(deep, ".claude", "agents", "d.md"), def("over-depth"));
  const skipped = file(join(deep, ".claude", "agents", "s.md"), def("skip-me", "utility_gated: true"));
  const below = file(join(userDir, "agents", "s.md"), def("skip-me"));
  const a = file(join(deep, ".claude", "agents", "same", "a.md"), def("same-folder"));
  const b = file(join(deep, ".claude", "agents", "same", "b.md"), def("same-folder"));

  it("the project's file over the user's; the deeper project folder over the shallower", async () => {
    expect(await find("over-user")).toEqual([project]);
    expect(await find("over-depth")).toEqual([deeper]);
    expect(user && shallow).toBeTruthy();
  });

  it("within one folder, the last in the file system's order (not sorted by name)", async () => {
    const last = osOrder(join(deep, ".claude", "agents", "same"))
      .filter((n) => n.endsWith(".md"))
      .at(-1);
    expect(await find("same-folder")).toEqual([last === "a.md" ? a : b]);
  });

  it("a file Claude Code may skip (no description) is kept with the one it would then run", async () => {
    expect(await find("skip-me")).toEqual([skipped, below]);
  });
});
