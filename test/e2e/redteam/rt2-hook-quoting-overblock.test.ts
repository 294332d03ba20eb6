/**
 * Red team 2 (class 3, the other direction): a project whose settings hook is
 * written the way Claude Code's docs show, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`
 * (the variable quoted alone). Promise (docs/gate.md, "Targets"): only
 * configuration is protected, so a gated `tool_call` Write of an ordinary
 * project file (src/out.txt) goes on. Twin: the same project with the
 * variable inside the quotes.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, markerDir, ok, recordOf } from "../gate/support.js";

describe.each([
  { name: "docs quoting", command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh` },
  { name: "cd into the project first", command: `cd "$CLAUDE_PROJECT_DIR" && npm run lint --silent` },
  { name: "quoted whole", command: `"$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh"` },
])("a settings hook written as: $name", ({ command }) => {
  it("a gated tool_call Write of an ordinary project file goes on", async () => {
    const cwd = markerDir();
    const home = makeScratchHome([cwd]);
    mkdirSync(join(cwd, ".claude", "hooks"), { recursive: true });
    mkdirSync(join(cwd, "src"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "hooks", "check.sh"), "#!/bin/sh\ncat >/dev/null\nexit 0\n", { mode: 0o755 });
    writeFileSync(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } }),
    );
    const call = id("rt2_overblock");
    const run = await gateRun({
      prompt: "write the fix",
      cwd,
      home,
      allowedTools: ["Bash", "Read", "Skill", "Write"],
      script: [
        [activate()],
        [text(ok("tool_call", "Write the fix.")), toolUse("Write", { file_path: join(cwd, "src", "out.txt"), content: "fixed\n" }, call)],
        [text("Done.")],
      ],
    });
    try {
      const rec = recordOf(run, call);
      console.log("record:", rec.decision, rec.rule, (rec.reason ?? "").slice(0, 200));
      expect(rec.decision).toBe("passed");
      expect(readFileSync(join(cwd, "src", "out.txt"), "utf8")).toBe("fixed\n");
    } finally {
      run.cleanup();
    }
  });
});
