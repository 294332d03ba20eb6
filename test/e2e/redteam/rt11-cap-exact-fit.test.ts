/**
 * Red team 11 (class 5 and 4): an UNGATED session under `max_tool_calls: 3`
 * makes exactly three calls in ONE message (three Reads, which Claude Code
 * runs side by side), then a planning call (TodoWrite), then one Bash call.
 * Promise: nothing is refused before the budget is spent (the three Reads all
 * run, the planning call goes on), and nothing past it runs (the Bash is
 * refused budget_spent).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { runClaude } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { id, markerDir, ran, touch } from "../gate/support.js";
import { byId, homeWithOptions, show } from "./rt10-support.js";

describe("max_tool_calls 3, three parallel Reads then a Bash", () => {
  it("runs the three Reads and refuses the Bash", async () => {
    const cwd = markerDir();
    const marks = markerDir();
    for (const n of [1, 2, 3]) writeFileSync(join(cwd, `f${n}.txt`), `file ${n}\n`);
    const reads = [1, 2, 3].map((n) => id(`rt11_fit_r${n}`));
    const todo = id("rt11_fit_todo");
    const bash = id("rt11_fit_b");
    const run = await runClaude({
      prompt: "read the three files",
      cwd,
      pluginDir: ROOT,
      home: homeWithOptions({ max_tool_calls: 3 }, [cwd]),
      allowedTools: ["Bash", "Read", "TodoWrite"],
      timeoutMs: 120_000,
      whenExhausted: "end_turn",
      script: [
        reads.map((r, i) => toolUse("Read", { file_path: join(cwd, `f${i + 1}.txt`) }, r)),
        [toolUse("TodoWrite", { todos: [{ content: "sum up", status: "pending", activeForm: "summing up" }] }, todo)],
        [touch(join(marks, "b"), bash)],
        [text("Done.")],
      ],
    });
    try {
      show(run);
      for (const r of reads) expect(byId(run, r)?.decision, r).toBe("observed");
      expect(byId(run, todo)?.decision ?? "none", "the planning call").not.toBe("refused");
      expect(byId(run, bash)).toMatchObject({ decision: "refused", rule: "budget_spent" });
      expect(ran(join(marks, "b"))).toBe(false);
    } finally {
      run.cleanup();
    }
  });
});
