/**
 * One report covers the tool calls of its assistant message (SPEC §4, §6):
 * each parallel call is checked on its own, each that passes is one step,
 * and the one whose tool the action does not permit is refused while its
 * siblings run.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunClaudeResult } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, expectPassed, expectRefused, gateRun, id, markerDir, ok, preRecords, ran, recordOf, stateOf, touch } from "./support.js";

describe("parallel calls under one report", () => {
  const marks = markerDir();
  const ids = { a: id("par_a"), b: id("par_b"), bash: id("par_bash") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    const cwd = markerDir();
    writeFileSync(join(cwd, "a.txt"), "A\n");
    writeFileSync(join(cwd, "b.txt"), "B\n");
    run = await gateRun({
      prompt: "read both",
      cwd,
      script: [
        [activate()],
        [
          text(ok("retrieve", "Read both files.")),
          toolUse("Read", { file_path: join(cwd, "a.txt") }, ids.a),
          toolUse("Read", { file_path: join(cwd, "b.txt") }, ids.b),
          touch(join(marks, "bash"), ids.bash),
        ],
        [text("Both read.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("checks each call: the reads pass, the Bash call does not fit retrieve", () => {
    expectPassed(run, ids.a);
    expectPassed(run, ids.b);
    const said = expectRefused(run, ids.bash, "Bash", "tool_not_permitted");
    expect(said).toContain("Action retrieve does not permit Bash");
    expect(ran(join(marks, "bash"))).toBe(false);
  });

  it("counts each passed call as one step, under the same report", () => {
    expect([recordOf(run, ids.a).step, recordOf(run, ids.b).step].sort()).toEqual([1, 2]);
    for (const call of [ids.a, ids.b, ids.bash])
      expect(recordOf(run, call).report).toMatchObject({ action: "retrieve", rationale: "Read both files." });
    expect(preRecords(run)).toHaveLength(3);
    expect(stateOf(run).main).toMatchObject({ step: 2, refusals: 1 });
  });
});
