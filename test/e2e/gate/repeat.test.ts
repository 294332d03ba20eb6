/**
 * SPEC §6 "exact repeat but Redundancy < 1" and §7: under the gate, a call
 * identical to one that already ran, with nothing in between, is refused
 * unless its report scores Redundancy 1; the refusal gives U with Redundancy 1.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunClaudeResult } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, expectPassed, expectRefused, gateRun, id, markerDir, ok, report } from "./support.js";

describe("an exact repeat under the gate", () => {
  const ids = { first: id("first"), again: id("again"), honest: id("honest") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    const cwd = markerDir();
    const file = join(cwd, "test_parse.py");
    writeFileSync(file, "def test_parse():\n    assert parse('1') == 1\n");
    const read = (call: string) => toolUse("Read", { file_path: file }, call);
    run = await gateRun({
      prompt: "why does test_parse fail?",
      cwd,
      script: [
        [activate()],
        [text(ok("retrieve", "Read the test.")), read(ids.first)],
        [text(ok("retrieve", "Read it again.")), read(ids.again)],
        [
          text(report("retrieve", "0.20", "Gain=1 StepCost=0 Uncertainty=0 Redundancy=1", "An exact repeat, scored as one.")),
          read(ids.honest),
        ],
        [text("Done.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("refuses the repeat scored with Redundancy 0, giving U with Redundancy 1", () => {
    expectPassed(run, ids.first);
    const said = expectRefused(run, ids.again, "Read", "exact_repeat");
    expect(said).toContain(
      "This Read call is an exact repeat of one that ran at step 1 with nothing in between that could change its result, so Redundancy is 1, not 0. With Redundancy=1: 0.7 − 1.0·0.12 − 0.5·0.6 − 0.8·1.0 = -0.52.",
    );
  });

  it("lets the same call through when the report scores Redundancy 1, and logs the repeat", () => {
    const rec = expectPassed(run, ids.honest);
    expect(rec).toMatchObject({ step: 2, repeat: { ofStep: 1, toolUseId: ids.first }, report: { redundancy: 1, utility: 0.2 } });
  });
});
