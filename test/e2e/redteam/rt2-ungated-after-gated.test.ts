/**
 * Red team 2 (class 5): "Ungated scopes must never be blocked by the plugin's
 * own trouble"; gating lasts to the end of the task. Task 1 is gated by the
 * example skill (and ends with the gated example's report in the last
 * message); task 2, resumed in the same session with a new typed prompt and
 * no skill, makes report-less calls (Bash, Write). Promise: nothing in task 2
 * is refused.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, logOf, markerDir, ok, ran, touch } from "../gate/support.js";

describe("an ungated task after a skill-gated one in the same session", () => {
  it("refuses nothing", async () => {
    const marks = markerDir();
    const first = await gateRun({
      prompt: "why does test_parse fail?",
      allowedTools: ["Bash", "Read", "Skill"],
      script: [[activate()], [text(ok("verify", "Run.")), touch(join(marks, "one"))], [text(ok("respond", "Answer."))]],
    });
    const calls = { bash: id("rt2_after_bash"), write: id("rt2_after_write") };
    const second = await gateRun({
      prompt: "thanks; now write a note",
      cwd: first.cwd,
      home: first.home,
      extraArgs: ["--resume", first.sessionId!],
      allowedTools: ["Bash", "Read", "Skill", "Write"],
      script: [
        [touch(join(marks, "two"), calls.bash)],
        [toolUse("Write", { file_path: join(first.cwd, "note.txt"), content: "note\n" }, calls.write)],
        [text("Done.")],
      ],
    });
    try {
      const recs = logOf(second)
        .filter((r) => r.event === "PreToolUse")
        .map((r) => [r.tool, r.decision, r.rule, r.gated, r.task]);
      console.log(JSON.stringify(recs));
      expect(second.result?.permission_denials ?? "no result").toEqual([]);
      expect(ran(join(marks, "two"))).toBe(true);
      expect(readFileSync(join(first.cwd, "note.txt"), "utf8")).toBe("note\n");
    } finally {
      second.cleanup();
      first.cleanup();
    }
  });
});
