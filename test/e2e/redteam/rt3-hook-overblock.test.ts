/**
 * Red team 3 (over-blocking, medium): src/engine/hook-commands.ts guards every
 * file-like word of a hook's / status line's / MCP server's command, and the
 * guard is "in or above" (src/engine/protected.ts). Ordinary formatter hooks
 * and servers name a source folder (`prettier --write "$CLAUDE_PROJECT_DIR"/src`,
 * `--root ./src`). Promise (docs/limits.md: Write, Edit are not affected by
 * the target guard beyond configuration): a gated, reported Write of an
 * ordinary source file is let through.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, markerDir, ok, recordOf } from "../gate/support.js";

const FORMS = [
  {
    name: 'PostToolUse formatter hook naming "$CLAUDE_PROJECT_DIR"/src',
    files: {
      ".claude/settings.json": {
        hooks: {
          PostToolUse: [
            { matcher: "Write|Edit", hooks: [{ type: "command", command: 'npx prettier --write "$CLAUDE_PROJECT_DIR"/src || true' }] },
          ],
        },
      },
    },
  },
  {
    name: "lint hook naming src/ and 2>/dev/null",
    files: {
      ".claude/settings.json": {
        hooks: { PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "eslint --fix src/ 2>/dev/null || true" }] }] },
      },
    },
  },
  {
    name: "status line naming the src folder",
    files: { ".claude/settings.json": { statusLine: { type: "command", command: "git -C src status --short | wc -l" } } },
  },
  {
    name: "MCP server started with --root ./src",
    files: { ".mcp.json": { mcpServers: { fsx: { command: "node", args: ["no-such-server.js", "--root", "./src"] } } } },
  },
];

describe.each(FORMS)("$name", ({ files }) => {
  it.each(["gated", "ungated"])("%s: a reported Write of src/app.ts is let through", async (mode) => {
    const cwd = markerDir();
    const home = makeScratchHome([cwd]);
    mkdirSync(join(cwd, "src"), { recursive: true });
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    writeFileSync(join(cwd, "src", "app.ts"), "export const a = 1;\n");
    for (const [rel, body] of Object.entries(files)) writeFileSync(join(cwd, rel), JSON.stringify(body));
    const call = id("rt3_overblock");
    const target = join(cwd, "src", "app.ts");
    const write = toolUse("Write", { file_path: target, content: "export const a = 2;\n" }, call);
    const run = await gateRun({
      prompt: "bump the constant",
      cwd,
      home,
      timeoutMs: 90_000,
      allowedTools: ["Bash", "Read", "Skill", "Write"],
      script:
        mode === "gated"
          ? [
              [activate()],
              [text(ok("retrieve", "Read it.")), toolUse("Read", { file_path: target })],
              [text(ok("tool_call", "Bump it.")), write],
              [text("Done.")],
            ]
          : [[write], [text("Done.")]],
    });
    try {
      const rec = recordOf(run, call);
      console.log(mode, "write:", rec.decision, rec.rule, (rec.reason ?? "").slice(0, 200));
      expect({ decision: rec.decision, content: readFileSync(target, "utf8") }).toEqual({
        decision: mode === "gated" ? "passed" : "observed",
        content: "export const a = 2;\n",
      });
    } finally {
      run.cleanup();
    }
  });
});
