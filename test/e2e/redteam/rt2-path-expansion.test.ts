/**
 * Red team 2 (class 3): paths written with `$HOME`, `${HOME}` and `~`: where
 * Claude Code's Write puts them, and whether a gated Write that lands in the
 * session's transcript folder (a new `.jsonl` next to the transcript) is
 * refused. Promise (docs/gate.md, "Targets"): a gated call naming a
 * transcript file is refused, however the path is written.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, logOf, markerDir, ok, resultFor } from "../gate/support.js";

describe.each(["$HOME", "${HOME}", "~"])("a gated Write into the transcripts' folder written from %s", (prefix) => {
  it("is refused, and no file lands there", async () => {
    const cwd = markerDir();
    const home = makeScratchHome([cwd]);
    const slug = cwd.replace(/[^a-zA-Z0-9]/g, "-");
    const rel = `.claude/projects/${slug}/planted.jsonl`;
    const call = id("rt2_expand");
    const run = await gateRun({
      prompt: "note it",
      cwd,
      home,
      allowedTools: ["Bash", "Read", "Skill", "Write"],
      script: [
        [activate()],
        [text(ok("tool_call", "Write a note.")), toolUse("Write", { file_path: `${prefix}/${rel}`, content: '{"type":"user"}\n' }, call)],
        [text("Done.")],
      ],
    });
    try {
      const rec = logOf(run).find((r) => r.toolUseId === call && r.event === "PreToolUse");
      const landed = existsSync(join(home, rel));
      console.log(
        prefix,
        "record:",
        rec?.decision,
        rec?.rule,
        "| result:",
        resultFor(run.model.mainRequests(), call).text.slice(0, 140),
        "| landed in transcripts:",
        landed,
        "| literal:",
        existsSync(join(cwd, prefix)),
      );
      expect(landed).toBe(false);
    } finally {
      run.cleanup();
    }
  });
});
