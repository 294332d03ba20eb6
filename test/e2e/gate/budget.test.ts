/**
 * SPEC §6 "step ≥ max_steps": a skill with `utility_max_steps: 2` lets two
 * steps through, then refuses every call with the budget spent, whatever the
 * report says.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { activate, expectPassed, expectRefused, FIXTURE_PLUGIN, gateRun, id, markerDir, ok, ran, stateOf, touch } from "./support.js";

describe("the step budget", () => {
  const marks = markerDir();
  const ids = [id("one"), id("two"), id("three")];
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "check it twice",
      fixtures: true,
      script: [
        [activate("ufix:budget-two")],
        ...ids.map((call, i) => [text(ok("verify")), touch(join(marks, String(i)), call)]),
        [text("Budget spent; here is what I know.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("passes two steps under the skill's max_steps", () => {
    const gatedBy = join(FIXTURE_PLUGIN, "skills", "budget-two", "SKILL.md");
    expect(expectPassed(run, ids[0]!)).toMatchObject({ step: 1, maxSteps: 2, gatedBy });
    expect(expectPassed(run, ids[1]!)).toMatchObject({ step: 2, maxSteps: 2, gatedBy });
    expect(ran(join(marks, "0")) && ran(join(marks, "1"))).toBe(true);
  });

  it("refuses the third: the budget is spent, respond or stop", () => {
    const said = expectRefused(run, ids[2]!, "Bash", "budget_spent");
    expect(said).toContain("utility gate: The step budget is spent: 2 of 2 steps taken. Respond with what you have, or stop.");
    expect(ran(join(marks, "2"))).toBe(false);
    expect(stateOf(run).main).toMatchObject({ step: 2, refusals: 1 });
  });
});
