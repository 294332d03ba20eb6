// The hooks' part of "protect by target, not by tool name" (SPEC §6, issue 31
// holes 5 and 7): the paths a gated call names, resolved from its working
// folder and the home folder, as written and through symbolic links (a link
// into the data folder, or a link to nothing there, that a write would
// create), checked against the data folder, the transcripts and Claude
// Code's configuration, on a real file system.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { protectedTargetOf } from "../../src/hooks/protected.js";
import { scopeOf } from "../../src/hooks/scope.js";

const root = realpathSync(mkdtempSync(join(tmpdir(), "utility-protected-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const home = join(root, "home");
const data = join(home, ".claude", "plugins", "data", "utility-inline");
const transcripts = join(home, ".claude", "projects", "-w");
const cwd = join(root, "project");
const plugin = join(root, "plugin");
for (const dir of [join(data, "state"), transcripts, join(cwd, ".claude"), join(cwd, "src"), plugin]) mkdirSync(dir, { recursive: true });
writeFileSync(join(data, "state", "s1.json"), "{}");
const env = { HOME: home, CLAUDE_PLUGIN_ROOT: plugin };

function check(tool: string, toolInput: unknown, extra: Record<string, string> = {}): string | undefined {
  const input = {
    session_id: "s1",
    transcript_path: join(transcripts, "s1.jsonl"),
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: toolInput,
  };
  return protectedTargetOf(input, scopeOf(input), data, { ...env, ...extra });
}

describe("a write through a symbolic link (SPEC §6)", () => {
  beforeAll(() => symlinkSync(data, join(cwd, "notes")));

  it("a Write through a link to the data folder is refused, the field and the path named", () => {
    const target = join(cwd, "notes", "state", "s1.json");
    expect(check("Write", { file_path: target, content: "{}" })).toBe(
      `its field \`file_path\`: ${join(data, "state", "s1.json")} is inside the plugin's data folder (${data}), where the gate keeps its state and step log`,
    );
  });

  it("a file through a linked folder that does not exist yet is refused too", () => {
    expect(check("Write", { file_path: join(cwd, "notes", "new", "x.json"), content: "{}" })).toContain("inside the plugin's data folder");
  });

  it("a link to nothing in the data folder, which a write would create, is refused", () => {
    symlinkSync(join(data, "state", "planted.json"), join(cwd, "planted.json"));
    expect(check("mcp__fs__write_file", { path: "planted.json", content: "{}" })).toContain("inside the plugin's data folder");
  });

  it("a loop of links ends, and the path is checked as written", () => {
    symlinkSync(join(cwd, "loop-b"), join(cwd, "loop-a"));
    symlinkSync(join(cwd, "loop-a"), join(cwd, "loop-b"));
    expect(check("Write", { file_path: join(cwd, "loop-a"), content: "x" })).toBeUndefined();
  });

  it("a link elsewhere is no reason", () => {
    symlinkSync(join(cwd, "src"), join(cwd, "source"));
    expect(check("Write", { file_path: join(cwd, "source", "a.ts"), content: "x" })).toBeUndefined();
  });
});

describe("any tool that names a path, MCP tools included (SPEC §6)", () => {
  it("an MCP tool writing into the data folder is refused, its field named", () => {
    expect(check("mcp__fs__write_file", { path: join(data, "state", "s1.json"), content: "{}" })).toMatch(
      /^its field `path`: .* is inside the plugin's data folder/,
    );
  });

  it("an MCP tool moving the data folder away is refused by its source", () => {
    expect(check("mcp__fs__move_file", { source: data, destination: join(root, "gone") })).toMatch(
      /^its field `source`: .* is inside the plugin's data folder/,
    );
  });

  it("moving a folder above the data folder is refused too", () => {
    expect(check("mcp__fs__move_file", { source: join(home, ".claude", "plugins"), destination: join(root, "gone") })).toMatch(
      /holds the plugin's data folder/,
    );
  });

  it("a relative path is taken from the call's working folder", () => {
    expect(check("mcp__fs__write_file", { path: ".claude/settings.local.json", content: '{"disableAllHooks":true}' })).toBe(
      `its field \`path\` (".claude/settings.local.json"): ${join(cwd, ".claude", "settings.local.json")} is Claude Code's configuration, which decides what it runs (settings such as disableAllHooks, hooks, skills, agents, commands, plugins, MCP servers)`,
    );
  });

  it("a relative path is taken from the project's folder too, where an MCP server starts", () => {
    const input = {
      session_id: "s1",
      transcript_path: join(transcripts, "s1.jsonl"),
      cwd: join(cwd, "src"),
      hook_event_name: "PreToolUse",
      tool_name: "mcp__fs__write_file",
      tool_input: { path: "../keep.txt", content: "x" },
    };
    const inSub = (extra: Record<string, string>) => protectedTargetOf(input, scopeOf(input), data, { ...env, ...extra });
    expect(inSub({})).toBeUndefined();
    expect(inSub({ CLAUDE_PROJECT_DIR: join(data, "state") })).toContain("inside the plugin's data folder");
  });

  it("~ is the home folder of the hook's environment", () => {
    expect(check("mcp__fs__write_file", { path: "~/.claude/settings.json", content: "{}" })).toContain(
      join(home, ".claude", "settings.json"),
    );
  });

  it("a Write of the project's settings.local.json is refused", () => {
    expect(check("Write", { file_path: join(cwd, ".claude", "settings.local.json"), content: "{}" })).toContain(
      "Claude Code's configuration",
    );
  });

  it("the user's configuration folder moved by CLAUDE_CONFIG_DIR is guarded", () => {
    const config = join(root, "cfg");
    expect(check("mcp__fs__write_file", { path: join(config, "settings.json"), content: "{}" }, { CLAUDE_CONFIG_DIR: config })).toContain(
      `is in ${config}`,
    );
    expect(check("mcp__fs__write_file", { path: join(config, "settings.json"), content: "{}" })).toBeUndefined();
  });

  it("the plugin's own folder is guarded: its hooks are what the gate runs", () => {
    expect(check("mcp__fs__write_file", { path: join(plugin, "hooks", "hooks.json"), content: "{}" })).toContain(`is in ${plugin}`);
  });

  it("the project's folder holds its configuration: an unknown tool may not name it", () => {
    expect(check("mcp__fs__move_file", { source: cwd, destination: join(root, "elsewhere") })).toContain(`holds ${join(cwd, ".claude")}`);
  });

  it("an ordinary project file, and an MCP tool's other strings, are no reason", () => {
    expect(check("mcp__fs__write_file", { path: "src/a.ts", content: "see the settings of .claude\nin the project" })).toBeUndefined();
    expect(check("Write", { file_path: join(cwd, "src", "a.ts"), content: join(data, "state", "s1.json") })).toBeUndefined();
  });

  // Issue 31, second red-team pass: an MCP tool that runs a shell command names its targets inside one string.
  it("an MCP tool's shell command: each word that reads as a path is checked, relative ones from the working folder", () => {
    const run = (command: string) => check("mcp__ex__run_command", { command });
    expect(run(`printf '{"disableAllHooks": true}' > .claude/settings.local.json`)).toMatch(
      /^its field `command` \(".claude\/settings.local.json"\): /,
    );
    expect(run("echo {} > .mcp.json")).toMatch(/\.mcp\.json is Claude Code's configuration/);
    expect(run(`rm -rf ${data}/state`)).toBeDefined();
    expect(run("ls src/a.ts && cat README.md")).toBeUndefined();
  });

  it("a text that reads as a path into .claude is taken as one: the gate cannot tell text from a path (Write names its path in one field)", () => {
    const text = "Set it in ~/.claude/settings.json";
    expect(check("mcp__fs__write_file", { path: "README.md", content: text })).toContain("its field `content`");
    expect(check("Write", { file_path: join(cwd, "README.md"), content: text })).toBeUndefined();
  });

  it("a tool known to only read, and Bash, name nothing", () => {
    expect(check("Read", { file_path: join(data, "state", "s1.json") })).toBeUndefined();
    expect(check("Bash", { command: `rm -rf ${data}` })).toBeUndefined();
  });

  it("an input too large to check says so", () => {
    const many = Array.from({ length: 1001 }, (_, i) => `f${i}`);
    expect(check("mcp__fs__read_multiple_files", { paths: many })).toContain("more than 1000 strings");
  });
});

describe("the scripts Claude Code runs by itself, from its settings and MCP servers", () => {
  const hook = (script: string) => JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: `sh tools/${script}` }] }] } });
  const write = (path: string) => check("Write", { file_path: join(cwd, path), content: "x" });

  it("a settings file changed between two calls is read again, even at the same size (the warm server keeps what it parsed)", () => {
    writeFileSync(join(cwd, ".claude", "settings.local.json"), hook("a.sh"));
    expect(write("tools/a.sh")).toMatch(/a command Claude Code runs by itself .* runs it/);
    expect(write("tools/b.sh")).toBeUndefined();
    writeFileSync(join(cwd, ".claude", "settings.local.json"), hook("b.sh"));
    expect(write("tools/b.sh")).toMatch(/a command Claude Code runs by itself .* runs it/);
    expect(write("tools/a.sh")).toBeUndefined();
    rmSync(join(cwd, ".claude", "settings.local.json"));
    expect(write("tools/b.sh")).toBeUndefined();
  });

  // Fifth red-team pass: a settings file with a byte-order mark (Claude Code reads it), a hook started after a `cd`, git's config.
  it("a settings file that starts with a byte-order mark is read", () => {
    writeFileSync(join(cwd, ".claude", "settings.local.json"), `\ufeff${hook("a.sh")}`);
    expect(write("tools/a.sh")).toMatch(/runs it/);
    rmSync(join(cwd, ".claude", "settings.local.json"));
  });

  it("a hook's relative script is guarded below any folder the shell may move to", () => {
    writeFileSync(join(cwd, ".claude", "settings.local.json"), hook("a.sh"));
    expect(write("sub/tools/a.sh")).toMatch(/ends in tools\/a.sh/);
    expect(write("sub/tools/b.sh")).toBeUndefined();
    rmSync(join(cwd, ".claude", "settings.local.json"));
  });

  it("git's config and hooks, which a hook's `git status` runs", () => {
    expect(write(".git/config")).toMatch(/configuration/);
    expect(write(".git/hooks/pre-commit")).toMatch(/configuration/);
    expect(write(".gitignore")).toBeUndefined();
    // Red team 8: git reads the config a .git/commondir names, and a nested repository's own.
    expect(write(".git/commondir")).toMatch(/git's configuration/);
    expect(write("sub/.git/config")).toMatch(/git's configuration/);
    expect(write(".github/workflows/ci.yml")).toBeUndefined();
  });

  it("the folder git's core.hooksPath names (red team 8)", () => {
    mkdirSync(join(cwd, ".git"), { recursive: true });
    writeFileSync(join(cwd, ".git", "config"), "[core]\n\thooksPath = .githooks\n");
    expect(write(".githooks/pre-commit")).toMatch(/configuration/);
    rmSync(join(cwd, ".git", "config"));
    expect(write(".githooks/pre-commit")).toBeUndefined();
  });

  it("an MCP server's script in the project's .mcp.json", () => {
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { x: { command: "node", args: ["tools/server.mjs"] } } }));
    expect(write("tools/server.mjs")).toMatch(/a command Claude Code runs by itself .* runs it/);
    rmSync(join(cwd, ".mcp.json"));
  });
});
