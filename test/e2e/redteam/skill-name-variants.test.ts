/**
 * Red team (class 1): whether a scope is gated follows from what Claude Code
 * loaded, not from the spelling of the Skill call's name. The gated example
 * loaded under name variants Claude Code may accept (case, a leading slash,
 * blanks) must gate the task: a following report-less call is refused, or the
 * load itself is refused/unknown and nothing of the skill is in context.
 */
import { describe, expect, it } from "vitest";
import { lastToolResults, text, toolUse } from "../support/scripted-model.js";
import { gateRun, id, markerDir, ran, recordOf, touch } from "../gate/support.js";
import { join } from "node:path";

describe.each(["GATED-EXAMPLE", "/gated-example", " gated-example\n", "Gated-Example"])("Skill{skill: %j}", (name) => {
  it("either does not load the skill, or gates the task", async () => {
    const marks = markerDir();
    const calls = { load: id("rt_name_load"), bare: id("rt_name_bare") };
    const run = await gateRun({
      prompt: "why does test_parse fail?",
      allowedTools: ["Bash", "Read", "Skill"],
      script: [[toolUse("Skill", { skill: name }, calls.load)], [touch(join(marks, "bare"), calls.bare)], [text("Done.")]],
    });
    try {
      const loadResult = lastToolResults(run.model.mainRequests()[1]!)[0]!;
      const loaded = !loadResult.is_error;
      console.log(JSON.stringify(name), "loaded:", loaded, loadResult.text.slice(0, 120));
      if (loaded) {
        expect({ decision: recordOf(run, calls.bare).decision, ran: ran(join(marks, "bare")) }).toEqual({
          decision: "refused",
          ran: false,
        });
      }
    } finally {
      run.cleanup();
    }
  });
});
