/**
 * Red team 4 (over-blocking, medium): since 9bb84b3 an MCP tool's string is
 * split at every word end and each word "with a folder part or a leading ~"
 * is checked, with the guard "in or above" Claude Code's configuration. A
 * lone `/` or `~` in ordinary text (a ratio, an estimate) becomes a word that
 * names the root or the home folder, which hold ~/.claude. Promise
 * (docs/limits.md: refused is a string that "reads as a path into .claude/, or
 * names the project's folder"): a gated, reported MCP call writing a note
 * with such text to notes.txt is let through and runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../support/paths.js";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, markerDir, ok, recordOf } from "../gate/support.js";

const SERVER = join(FIXTURES, "e2e", "mcp-exec", "server.mjs");

const forms = [
  { name: "a lone / (read / write ratio)", cmd: "echo 'read / write ratio is 3' > notes.txt", note: "read / write ratio is 3\n" },
  { name: "a lone ~ (eta ~ 5 min)", cmd: "echo 'eta ~ 5 min' > notes.txt", note: "eta ~ 5 min\n" },
];

describe.each(forms)("gated MCP shell tool, $name", ({ cmd, note }) => {
  it("the reported call is let through and writes notes.txt", async () => {
    const cwd = markerDir();
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { ex: { command: "node", args: [SERVER] } } }));
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "settings.local.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
    const home = makeScratchHome([cwd]);
    const call = id("rt4_mcp_prose");
    const run = await gateRun({
      prompt: "write the note",
      cwd,
      home,
      timeoutMs: 90_000,
      allowedTools: ["Bash", "Read", "Skill", "mcp__ex"],
      script: [
        [activate()],
        [text(ok("tool_call", "Write the note.")), toolUse("mcp__ex__run_command", { command: cmd }, call)],
        [text("Done.")],
      ],
    });
    try {
      const rec = recordOf(run, call);
      let written = "";
      try {
        written = readFileSync(join(cwd, "notes.txt"), "utf8");
      } catch {
        // not written
      }
      console.log(`[${cmd}]`, rec.decision, rec.rule, (rec.reason ?? "").slice(0, 200), "| notes:", JSON.stringify(written));
      expect({ decision: rec.decision, written }).toEqual({ decision: "passed", written: note });
    } finally {
      run.cleanup();
    }
  });
});
