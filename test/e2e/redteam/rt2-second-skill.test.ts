/**
 * Red team 2 (class 1/2): a gated task loads a second skill. (a) one that
 * says `utility_gated: false`: "Gating lasts to the end of the task"
 * (docs/gate.md), so a report-less call after it is still refused. (b) a
 * second gated skill with a larger `utility_max_steps` (the gated example, 10)
 * after `ufix:budget-two` (2) spent its steps: the budget is the task's, so a
 * third step is refused (medium: a budget promise).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, logOf, markerDir, ok, ran, touch } from "../gate/support.js";

describe("a gated task that loads a skill saying utility_gated: false", () => {
  it("a report-less call after it is still refused", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "skills", "loose"), { recursive: true });
    writeFileSync(
      join(cwd, ".claude", "skills", "loose", "SKILL.md"),
      "---\nname: loose\ndescription: loose\nutility_gated: false\n---\n\nNo gate here.\n",
    );
    const bare = id("rt2_second_bare");
    const run = await gateRun({
      prompt: "why does test_parse fail?",
      cwd,
      allowedTools: ["Bash", "Read", "Skill"],
      script: [[activate()], [toolUse("Skill", { skill: "loose" })], [touch(join(marks, "bare"), bare)], [text("Done.")]],
    });
    try {
      const rec = logOf(run).find((r) => r.toolUseId === bare && r.event === "PreToolUse");
      console.log("after loose:", rec?.decision, rec?.rule, "ran:", ran(join(marks, "bare")));
      expect({ decision: rec?.decision, ran: ran(join(marks, "bare")) }).toEqual({ decision: "refused", ran: false });
    } finally {
      run.cleanup();
    }
  });
});

describe("ufix:budget-two's steps spent, then the gated example (10 steps) loaded", () => {
  it("a third step is refused", async () => {
    const marks = markerDir();
    const third = id("rt2_second_third");
    const run = await gateRun({
      prompt: "why does test_parse fail?",
      fixtures: true,
      allowedTools: ["Bash", "Read", "Skill"],
      script: [
        [activate("ufix:budget-two")],
        [text(ok("verify", "One.")), touch(join(marks, "one"))],
        [text(ok("verify", "Two.")), touch(join(marks, "two"))],
        [activate("gated-example")],
        [text(ok("verify", "Three.")), touch(join(marks, "three"), third)],
        [text("Done.")],
      ],
    });
    try {
      const rec = logOf(run).find((r) => r.toolUseId === third && r.event === "PreToolUse");
      console.log("third:", rec?.decision, rec?.rule, rec?.step, rec?.maxSteps, rec?.gatedBy, "ran:", ran(join(marks, "three")));
      expect({ decision: rec?.decision, ran: ran(join(marks, "three")) }).toEqual({ decision: "refused", ran: false });
    } finally {
      run.cleanup();
    }
  });
});
