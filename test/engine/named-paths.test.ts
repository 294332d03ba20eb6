// Protect by target, not by tool name (SPEC §6, issue 31 holes 5 and 7): in a
// gated scope any tool whose input names a path (MCP tools and unknown tools
// included) may not write, move, delete or link the gate's records or Claude
// Code's configuration. The engine's part: the strings an input names, where a
// path points, and why a place is guarded.
import { describe, expect, it } from "vitest";
import { absolutePath, MAX_INPUT_DEPTH, MAX_INPUT_STRINGS, namedPaths } from "../../src/engine/named-paths.js";
import { configReason, guardedReason, namedTargetReason, protectedReason } from "../../src/engine/protected.js";

describe("the strings a call's input names (SPEC §6)", () => {
  it("an MCP tool names every string and key, at any depth, with its field", () => {
    const input = { source: "/a", destination: "/b", options: { backup: ["/c", 3, true] }, files: { "/d": "text" } };
    const named = namedPaths("mcp__fs__move_file", input);
    expect(named.ok && named.paths).toHaveLength(10);
    expect(named.ok && named.paths).toEqual(
      expect.arrayContaining([
        { field: "source", value: "/a" },
        { field: "destination", value: "/b" },
        { field: "options.backup[0]", value: "/c" },
        { field: "key of files", value: "/d" },
        { field: "key of input", value: "destination" },
        { field: "key of input", value: "files" },
        { field: "key of input", value: "options" },
        { field: "key of options", value: "backup" },
        { field: "key of input", value: "source" },
        { field: "files./d", value: "text" },
      ]),
    );
  });

  it.each(["WriteFile", "Monitor", "mcp__x__y"])("a tool the plugin does not know (%s) names its strings too", (tool) => {
    const named = namedPaths(tool, { anything: "/p/x" });
    expect(named.ok && named.paths.map((p) => p.value)).toContain("/p/x");
  });

  it("a bare string input is named as the input", () => {
    expect(namedPaths("mcp__x__y", "/p")).toStrictEqual({ ok: true, paths: [{ field: "input", value: "/p" }] });
  });

  it.each(["Read", "Grep", "Glob", "LS", "WebFetch", "ReadMcpResourceTool", "BashOutput", "TaskOutput", "Skill", "TodoWrite"])(
    "%s is known to only read or plan: it names nothing",
    (tool) => {
      expect(namedPaths(tool, { file_path: "/p/.claude/settings.json", path: "/p" })).toStrictEqual({ ok: true, paths: [] });
    },
  );

  it("Bash names nothing: a shell command is not parsed (the sandbox answers for it)", () => {
    expect(namedPaths("Bash", { command: "/p/.claude/settings.json" })).toStrictEqual({ ok: true, paths: [] });
  });

  it("an inherited property name is no writing tool: its strings are all named", () => {
    const named = namedPaths("constructor", { file_path: "/p/a.ts", path: "/p/b" });
    expect(named.ok && named.paths.map((p) => p.value)).toEqual(expect.arrayContaining(["/p/a.ts", "/p/b"]));
  });

  it("an input with more strings than the bound is a problem, named", () => {
    const many = Array.from({ length: MAX_INPUT_STRINGS + 1 }, (_, i) => `s${i}`);
    expect(namedPaths("mcp__fs__write_file", { paths: many })).toStrictEqual({
      ok: false,
      problem: `its input holds more than ${MAX_INPUT_STRINGS} strings, more than the gate checks for paths`,
    });
    expect(namedPaths("mcp__fs__write_file", { paths: many.slice(0, MAX_INPUT_STRINGS - 2) }).ok).toBe(true);
  });

  it("an input nested deeper than the bound is a problem, named", () => {
    let deep: unknown = "/p";
    for (let i = 0; i < MAX_INPUT_DEPTH + 1; i += 1) deep = [deep];
    const named = namedPaths("mcp__x__y", deep);
    expect(named).toStrictEqual({
      ok: false,
      problem: `its input nests deeper than ${MAX_INPUT_DEPTH} levels, more than the gate checks for paths`,
    });
    let shallow: unknown = "/p";
    for (let i = 0; i < MAX_INPUT_DEPTH; i += 1) shallow = [shallow];
    expect(namedPaths("mcp__x__y", shallow).ok).toBe(true);
  });

  it("numbers, booleans, null and empty strings name nothing", () => {
    expect(namedPaths("mcp__x__y", [1, true, null, ""])).toStrictEqual({ ok: true, paths: [] });
  });
});

describe("the words of a longer string that read as paths", () => {
  const words = (value: string) => {
    const named = namedPaths("mcp__sh__run", { cmd: value });
    return named.ok ? named.paths.filter((p) => p.value !== value && p.field === "cmd").map((p) => p.value) : [];
  };

  it("a folder part or a leading ~, read as written and with quotes taken out; a config name only in shell-like text", () => {
    expect(words("cat x > .cl''aude/s.json")).toEqual(["aude/s.json", ".claude/s.json"]);
    expect(words("dd of=~/.claude/x")).toEqual(["~/.claude/x"]);
    expect(words("mentions .claude in prose")).toEqual([]);
    expect(words("echo hi > .mcp.json")).toEqual([".mcp.json"]);
  });

  // Fourth red-team pass: a lone / or ~ in prose named the root or the home, and refused ordinary notes.
  it("a lone / or ~ is a path only as a whole word of a shell command", () => {
    expect(words("echo 'read / write ratio is 3' > notes.txt")).toEqual([]);
    expect(words("eta ~ 5 min, x / y")).toEqual([]);
    expect(words("rm -rf ~ && echo done")).toEqual(["~"]);
    expect(words("rm -rf / ; true")).toEqual(["/"]);
  });
});

describe("where a path as written points", () => {
  it.each([
    ["/a/b/../c", "/a/c"],
    ["rel/./x", "/w/rel/x"],
    ["..", "/"],
    [".", "/w"],
    ["~", "/h"],
    ["~/.claude/settings.json", "/h/.claude/settings.json"],
    ["file:///a/%2Eclaude/x", "/a/.claude/x"],
    ["file://localhost/a/b", "/a/b"],
    ["file:///a/%E0%A4%A", "/a/%E0%A4%A"],
    ["~user/x", "/w/~user/x"],
  ])("%s is %s", (value, expected) => {
    expect(absolutePath(value, "/w", "/h")).toBe(expected);
  });

  it("without a working folder or a home, a path that needs one points nowhere", () => {
    expect(absolutePath("x", undefined, "/h")).toBeUndefined();
    expect(absolutePath("~/x", "/w", undefined)).toBeUndefined();
    expect(absolutePath("/x", undefined, undefined)).toBe("/x");
  });
});

describe("the gate's records: above them, and the session's own folder", () => {
  const places = {
    dataDir: "/home/u/.claude/plugins/data/utility",
    transcriptDir: "/home/u/.claude/projects/-work-app",
    sessionDir: "/home/u/.claude/projects/-work-app/s1",
  };

  it.each(["/home/u/.claude/plugins/data", "/home/u/.claude/plugins", "/home/u", "/"])("%s holds the data folder", (path) => {
    expect(protectedReason(path, places)).toBe(`${path} holds the plugin's data folder (${places.dataDir})`);
  });

  it("the transcripts' folder itself holds the transcripts", () => {
    expect(protectedReason(places.transcriptDir, places)).toContain("holds the session's transcripts");
  });

  it("the session's own folder and what is in it hold its subagents' transcripts", () => {
    expect(protectedReason(places.sessionDir, places)).toContain("subagent transcripts");
    expect(protectedReason(`${places.sessionDir}/subagents`, places)).toContain("subagent transcripts");
    expect(protectedReason("/home/u/.claude/projects/-work-app/s2/subagents", places)).toBeUndefined();
    expect(protectedReason("/home/u/.claude/projects/-work-app/memory/MEMORY.md", places)).toBeUndefined();
  });
});

describe("Claude Code's configuration (SPEC §6)", () => {
  it.each([
    "/w/.claude/settings.local.json",
    "/w/.claude/settings.json",
    "/w/.claude",
    "/w/.claude/hooks/pre.sh",
    "/w/.claude/skills/x/SKILL.md",
    "/w/.claude/agents/a.md",
    "/w/.claude/commands/c.md",
    "/h/.claude/settings.json",
    "/h/.claude/plugins/cache/p/hooks/hooks.json",
    "/h/.claude/shell-snapshots/snapshot.sh",
    "/w/sub/.claude/skills/y/SKILL.md",
    "/w/.mcp.json",
    "/elsewhere/.mcp.json",
    "/h/.claude.json",
    "/w/.claude/worktrees/t/.claude/settings.json",
    "/w/.CLAUDE/settings.local.json",
    "/w/.MCP.json",
  ])("%s is configuration, in any scope's words", (path) => {
    expect(configReason(path)).toBe(
      `${path} is Claude Code's configuration, which decides what it runs (settings such as disableAllHooks, hooks, skills, agents, commands, plugins, MCP servers)`,
    );
  });

  it.each([
    "/h/.claude/projects/-w/memory/MEMORY.md",
    "/h/.claude/plans/plan.md",
    "/w/.claude/worktrees/t/src/a.ts",
    "/w/.claude/agent-memory/reviewer/notes.md",
    "/w/.claude/agent-memory-local/reviewer/notes.md",
    "/w/.claudex/settings.json",
    "/w/claude/settings.json",
    "/w/.mcp.json.bak",
    "/w/src/a.ts",
  ])("%s is not configuration", (path) => {
    expect(configReason(path)).toBeUndefined();
  });

  it("a place named as configuration guards what is in it and what holds it", () => {
    const config = ["/cfg", "/w/.claude", "/w/.mcp.json"];
    expect(configReason("/cfg/settings.json", config)).toContain("is in /cfg, Claude Code's configuration");
    expect(configReason("/cfg/projects/-w/memory/m.md", config)).toBeUndefined();
    expect(configReason("/w", config)).toContain("/w holds /w/.claude, Claude Code's configuration");
    expect(configReason("/", config)).toContain("holds /cfg");
    expect(configReason("/w/src", config)).toBeUndefined();
    expect(configReason("/cfgx/a", config)).toBeUndefined();
  });

  it("a relative path or a relative place guards nothing", () => {
    expect(configReason(".claude/settings.json")).toBeUndefined();
    expect(configReason("/w/x", ["w"])).toBeUndefined();
  });

  it("the records' reason comes before the configuration's", () => {
    const places = { dataDir: "/h/.claude/plugins/data/u", transcriptDir: "/h/.claude/projects/-w", config: ["/w/.claude"] };
    expect(guardedReason("/h/.claude/plugins/data/u/state/s.json", places)).toContain("data folder");
    expect(guardedReason("/w/.claude/settings.local.json", places)).toContain("Claude Code's configuration");
    expect(guardedReason("/w/src/a.ts", places)).toBeUndefined();
  });
});

describe("the refusal's words name the field, what it says and why", () => {
  it("a path as written is shown once", () => {
    expect(namedTargetReason({ field: "destination", value: "/d/x" }, "/d/x", "/d/x is inside …")).toBe(
      "its field `destination`: /d/x is inside …",
    );
  });

  it("a path written otherwise is shown as written, then where it points", () => {
    expect(namedTargetReason({ field: "path", value: "~/x" }, "/h/x", "/h/x is …")).toBe('its field `path` ("~/x"): /h/x is …');
  });

  it("a long value is cut", () => {
    const reason = namedTargetReason({ field: "p", value: `a/${"b".repeat(300)}` }, "/w/x", "r");
    expect(reason.length).toBeLessThan(260);
    expect(reason).toContain("…");
  });
});
