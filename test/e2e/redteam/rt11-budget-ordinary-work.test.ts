/**
 * Red team 11 (class 5): an UNGATED session with only budgets set
 * (`max_tool_calls: 12`, `token_budget`, `session_max_tool_calls`) doing
 * ordinary work: Glob, Grep, Read, Write, Read of what it wrote, Edit, Bash,
 * a Read and a Grep side by side in one message, and the same Read again
 * after the file changed and once more unchanged (an exact repeat, which an
 * ungated scope only hints at). Promise: an ungated scope is never blocked by
 * the plugin before its budget is spent; every call of the eleven runs, and
 * each leaves one record, none refused.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { runClaude } from "../support/claude.js";
import { allToolResults, text, toolUse } from "../support/scripted-model.js";
import { id, markerDir } from "../gate/support.js";
import { homeWithOptions, pre, show } from "./rt10-support.js";

describe("an ungated session under budgets doing ordinary work", () => {
  it("has none of its eleven calls refused", async () => {
    const cwd = markerDir();
    writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\n");
    const made = join(cwd, "made.txt");
    const ids = Array.from({ length: 11 }, (_, n) => id(`rt11_ow${n}`));
    const run = await runClaude({
      prompt: "tidy the notes",
      cwd,
      pluginDir: ROOT,
      home: homeWithOptions({ max_tool_calls: 12, token_budget: 2_000_000, session_max_tool_calls: 40 }, [cwd]),
      allowedTools: ["Bash", "Read", "Grep", "Glob", "Write", "Edit"],
      timeoutMs: 150_000,
      whenExhausted: "end_turn",
      script: [
        [toolUse("Glob", { pattern: "*.txt" }, ids[0])],
        [toolUse("Grep", { pattern: "beta", path: cwd }, ids[1])],
        [toolUse("Read", { file_path: join(cwd, "notes.txt") }, ids[2])],
        [toolUse("Write", { file_path: made, content: "one\n" }, ids[3])],
        [toolUse("Read", { file_path: made }, ids[4])],
        [toolUse("Edit", { file_path: made, old_string: "one", new_string: "two" }, ids[5])],
        [toolUse("Bash", { command: `cat ${made}`, description: "show" }, ids[6])],
        [toolUse("Read", { file_path: join(cwd, "notes.txt") }, ids[7]), toolUse("Grep", { pattern: "alpha", path: cwd }, ids[8])],
        [toolUse("Read", { file_path: made }, ids[9])],
        [toolUse("Read", { file_path: made }, ids[10])],
        [text("Done.")],
      ],
    });
    try {
      show(run);
      expect(readFileSync(made, "utf8")).toBe("two\n");
      const results = allToolResults(run.model.mainRequests().at(-1)!);
      for (const call of ids) {
        const recs = pre(run).filter((r) => r.toolUseId === call);
        expect(recs.length, `${call} records`).toBe(1);
        expect(recs[0]!.decision, `${call}: ${(recs[0] as any).reason ?? ""}`).not.toBe("refused");
        const result = results.find((r) => r.tool_use_id === call);
        expect(result?.is_error ?? false, `${call} result: ${JSON.stringify(result).slice(0, 200)}`).toBe(false);
      }
    } finally {
      run.cleanup();
    }
  });
});
