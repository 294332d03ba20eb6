/**
 * Red team 11 (class 4, around f89e2bf): an UNGATED task under
 * `max_tool_calls: 2` makes, in ONE assistant message, three Skill calls
 * whose skills run `!` shell as they load, and a Bash call. Claude Code
 * decides them one after another before any result is read. Promise (README
 * "Budgets", SPEC §12/§16): `max_tool_calls` caps the task's tool calls in
 * every scope, a shell-running Skill call counting as one: at most two of the
 * four run, the rest refused, each with one record.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { runClaude } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { id, markerDir, ran, touch } from "../gate/support.js";
import { homeWithOptions, pre, show } from "./rt10-support.js";

describe("an ungated task under max_tool_calls: 2, four calls in one message", () => {
  it("no more than two of them run", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    for (const n of [1, 2, 3]) {
      mkdirSync(join(cwd, ".claude", "skills", `sh${n}`), { recursive: true });
      writeFileSync(
        join(cwd, ".claude", "skills", `sh${n}`, "SKILL.md"),
        `---\nname: sh${n}\ndescription: Shows status ${n}.\n---\n\nStatus: !\`touch ${join(marks, `s${n}`)}\`\n`,
      );
    }
    const ids = ["rt11_sk1", "rt11_sk2", "rt11_sk3", "rt11_b1"].map((l) => id(l));
    const run = await runClaude({
      prompt: "check status",
      cwd,
      pluginDir: ROOT,
      home: homeWithOptions({ max_tool_calls: 2 }, [cwd]),
      allowedTools: ["Bash", "Read", "Skill"],
      timeoutMs: 120_000,
      whenExhausted: "end_turn",
      script: [
        [
          toolUse("Skill", { skill: "sh1" }, ids[0]),
          toolUse("Skill", { skill: "sh2" }, ids[1]),
          toolUse("Skill", { skill: "sh3" }, ids[2]),
          touch(join(marks, "b1"), ids[3]),
        ],
        [text("Done.")],
      ],
    });
    try {
      show(run);
      const done = ["s1", "s2", "s3", "b1"].filter((m) => ran(join(marks, m)));
      console.log("ran:", done);
      expect(done.length, `ran: ${done.join(", ")}`).toBeLessThanOrEqual(2);
      for (const call of ids) expect(pre(run).filter((r) => r.toolUseId === call).length, call).toBe(1);
    } finally {
      run.cleanup();
    }
  });
});
