/**
 * Protect by target, not by tool name (issue 31, holes 7 and 5; SPEC §6), in
 * the real client. An MCP filesystem server from the project's `.mcp.json`
 * (test/fixtures/e2e/mcp-fs/server.mjs) in a gated scope may not write into
 * the plugin's data folder, move it away, or write Claude Code's settings; a
 * Write through a symbolic link into the data folder is refused too. Its
 * ungated twin: the same tools, in a session not gated, are refused nothing.
 * In the TUI, a gated Write of `.claude/settings.local.json` with
 * `disableAllHooks` is refused, and the next prompt is still gated.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE_SKILL, FIXTURES, PLUGIN_ROOT } from "../../support/paths.js";
import { makeScratchHome } from "../support/claude.js";
import { lastToolResults, text, toolUse } from "../support/scripted-model.js";
import { startClaudeTui, tmuxAvailable } from "../support/tmux.js";
import { activate, expectPassed, expectRefused, gateRun, id, markerDir, ok, ran, touch } from "./support.js";

const MCP_SERVER = join(FIXTURES, "e2e", "mcp-fs", "server.mjs");
const ENABLE_MCP = `${JSON.stringify({ enableAllProjectMcpServers: true })}\n`;
const HOOKS_OFF = '{"disableAllHooks": true}\n';

/** A project whose `.mcp.json` starts the fixture server (`mcp__fs__write_file`, `mcp__fs__move_file`), approved in its local settings; a scratch HOME whose data folder holds `keep.txt`. */
function mcpProject() {
  const cwd = markerDir();
  writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { fs: { command: "node", args: [MCP_SERVER] } } }));
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  writeFileSync(join(cwd, ".claude", "settings.local.json"), ENABLE_MCP);
  mkdirSync(join(cwd, "src"));
  const home = makeScratchHome([cwd]);
  const data = join(home, ".claude", "plugins", "data", "utility-inline");
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, "keep.txt"), "original\n");
  return { cwd, home, data };
}

const write = (path: string, content: string, callId: string) => toolUse("mcp__fs__write_file", { path, content }, callId);
const move = (source: string, destination: string, callId: string) => toolUse("mcp__fs__move_file", { source, destination }, callId);

describe("an MCP filesystem tool in a gated scope (issue 31, hole 7)", () => {
  it("may not write into the data folder, move it away or write Claude Code's settings; a Write through a link is refused; an ordinary file is written", async () => {
    const { cwd, home, data } = mcpProject();
    symlinkSync(data, join(cwd, "notes"));
    const calls = { into: id("mcp_into"), away: id("mcp_away"), link: id("link"), settings: id("mcp_settings"), plain: id("mcp_plain") };
    const run = await gateRun({
      prompt: "tidy the project",
      cwd,
      home,
      allowedTools: ["Bash", "Read", "Skill", "Write", "mcp__fs"],
      script: [
        [activate()],
        [text(ok("tool_call")), write(join(data, "keep.txt"), "overwritten\n", calls.into)],
        [text(ok("tool_call")), move(data, join(cwd, "moved"), calls.away)],
        [
          text(ok("tool_call")),
          toolUse("Write", { file_path: join(cwd, "notes", "planted.txt"), content: "through a link\n" }, calls.link),
        ],
        [text(ok("tool_call")), write(".claude/settings.local.json", HOOKS_OFF, calls.settings)],
        [text(ok("tool_call")), write(join(cwd, "src", "out.txt"), "fine\n", calls.plain)],
        [text("Done.")],
      ],
    });
    try {
      expect(expectRefused(run, calls.into, "mcp__fs__write_file", "protected_target")).toContain(
        `its field \`path\`: ${join(data, "keep.txt")} is inside the plugin's data folder`,
      );
      expect(expectRefused(run, calls.away, "mcp__fs__move_file", "protected_target")).toContain("its field `source`");
      expect(expectRefused(run, calls.link, "Write", "protected_target")).toContain(
        `${join(data, "planted.txt")} is inside the plugin's data folder`,
      );
      expect(existsSync(join(data, "planted.txt"))).toBe(false);
      const settings = expectRefused(run, calls.settings, "mcp__fs__write_file", "protected_target");
      expect(settings).toContain(`${join(cwd, ".claude", "settings.local.json")} is Claude Code's configuration`);
      expect(settings).toContain("may name the gate's records or Claude Code's configuration");
      expect(readFileSync(join(data, "keep.txt"), "utf8")).toBe("original\n");
      expect(existsSync(join(cwd, "moved"))).toBe(false);
      expect(readdirSync(join(data, "sessions"))).toContain(`${run.sessionId}.jsonl`);
      expect(readFileSync(join(cwd, ".claude", "settings.local.json"), "utf8")).toBe(ENABLE_MCP);
      expectPassed(run, calls.plain);
      expect(readFileSync(join(cwd, "src", "out.txt"), "utf8")).toBe("fine\n");
    } finally {
      run.cleanup();
    }
  });

  it("ungated twin: the same tools write and move files in a session not gated, and nothing is refused", async () => {
    const { cwd, home } = mcpProject();
    const calls = { plain: id("free_write"), away: id("free_move") };
    const run = await gateRun({
      prompt: "tidy the project",
      cwd,
      home,
      allowedTools: ["Bash", "Read", "mcp__fs"],
      script: [
        [write(join(cwd, "src", "out.txt"), "fine\n", calls.plain)],
        [move(join(cwd, "src", "out.txt"), join(cwd, "out.txt"), calls.away)],
        [text("Done.")],
      ],
    });
    try {
      expectPassed(run, calls.plain, "observed");
      expectPassed(run, calls.away, "observed");
      expect(run.result!.permission_denials).toEqual([]);
      expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("fine\n");
    } finally {
      run.cleanup();
    }
  });
});

describe.skipIf(!tmuxAvailable())("settings that turn hooks off, in the TUI (issue 31, hole 5)", () => {
  it("a gated Write of .claude/settings.local.json with disableAllHooks is refused, and the next prompt is still gated", async () => {
    const marks = markerDir();
    const calls = { settings: id("hooks_off"), later: id("later") };
    const tui = await startClaudeTui({
      pluginDir: PLUGIN_ROOT,
      projectSkills: [EXAMPLE_SKILL],
      allowedTools: ["Bash", "Skill", "Write"],
      script: [
        [activate()],
        [text(ok("tool_call")), toolUse("Write", { file_path: ".claude/settings.local.json", content: HOOKS_OFF }, calls.settings)],
        [text("First task over.")],
        [activate()],
        [text("Running."), touch(join(marks, "later"), calls.later)],
        [text("Second task over.")],
      ],
    });
    try {
      await tui.waitForPrompt();
      await tui.type("why does test_parse fail?");
      // Without the rule, Claude Code asks before writing in .claude/: the user says yes, as one would to a trusted task.
      if ((await tui.waitFor(/First task over\.|Do you want to create settings\.local\.json/)).includes("Do you want")) await tui.keys("1");
      await tui.waitFor("First task over.");
      await tui.waitForPrompt();
      await tui.type("and test_render?");
      await tui.waitFor("Second task over.");
      const [refused] = lastToolResults(tui.model.mainRequests()[2]!);
      expect(refused).toMatchObject({ tool_use_id: calls.settings, is_error: true });
      expect(refused!.text).toContain("utility gate: This Write call is refused: its field `file_path`");
      expect(refused!.text).toContain("settings.local.json is Claude Code's configuration");
      expect(existsSync(join(tui.cwd, ".claude", "settings.local.json"))).toBe(false);
      const [later] = lastToolResults(tui.model.mainRequests()[5]!);
      expect(later).toMatchObject({ tool_use_id: calls.later, is_error: true });
      expect(later!.text).toContain("utility gate: No action report");
      expect(ran(join(marks, "later"))).toBe(false);
    } finally {
      await tui.stop();
    }
    tui.cleanup();
  });
});
