/**
 * Red team 5 (over-blocking, medium): since 943caa3 a file a settings hook runs
 * is guarded with "is, is in or holds" it, and an MCP tool's every string is
 * checked whole as a path from the project folder. So a gated MCP call whose
 * content is an ordinary word that happens to be the name of the folder
 * holding the hook script (`tools`) is refused as "holds tools/pre-bash".
 * Promise: a gated, reported MCP call writing notes.txt (not a hook script,
 * not .claude/) with content "tools" runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../support/paths.js";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, markerDir, ok, recordOf } from "../gate/support.js";

const SERVER = join(FIXTURES, "e2e", "mcp-fs", "server.mjs");

// Over-blocking, medium, a known limit (docs/limits.md): a whole string that names a folder holding a script a hook
// runs is refused, since a move tool's bare `tools` could take that folder away and put another in its place.
// `it.fails` keeps it in view: it passes while the over-block holds.
describe("gated MCP write_file whose content is a folder's name", () => {
  it.fails("the reported call writing notes.txt runs", async () => {
    const cwd = markerDir();
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { fs: { command: "node", args: [SERVER] } } }));
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    mkdirSync(join(cwd, "tools"), { recursive: true });
    writeFileSync(join(cwd, "tools", "pre-bash"), "#!/bin/sh\ncat >/dev/null\n", { mode: 0o755 });
    writeFileSync(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "bash tools/pre-bash" }] }] } }),
    );
    writeFileSync(join(cwd, ".claude", "settings.local.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
    const home = makeScratchHome([cwd]);
    const call = id("rt5_mcp_word");
    const run = await gateRun({
      prompt: "write the note",
      cwd,
      home,
      timeoutMs: 90_000,
      allowedTools: ["Bash", "Read", "Skill", "mcp__fs"],
      script: [
        [activate()],
        [
          text(ok("tool_call", "Write the note.")),
          toolUse("mcp__fs__write_file", { path: join(cwd, "notes.txt"), content: "tools" }, call),
        ],
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
      console.log("decision", rec.decision, rec.rule, (rec.reason ?? "").slice(0, 240), "| notes:", JSON.stringify(written));
      expect({ decision: rec.decision, written }).toEqual({ decision: "passed", written: "tools" });
    } finally {
      run.cleanup();
    }
  });
});
