/**
 * Red team 2 (class 5): "A gated skill with a bad value refuses calls with
 * that message instead of silently opening" (README, "Opt a skill in"). A
 * skill whose author meant to opt in, spelled in ways YAML or editors allow:
 * YAML 1.1 booleans, a quoted string, a duplicate key, CRLF line ends, a
 * byte-order mark, under `metadata:`. Promise: after loading it, a report-less
 * Bash call is refused (gated, or refused for the bad value) and does not run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lastToolResults, text, toolUse } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ran, touch } from "../gate/support.js";

const fm = (lines: string) => `---\nname: optin\ndescription: opt-in spelling test\n${lines}---\n\nInvestigate the failure.\n`;
const SPELLINGS: Array<[string, string]> = [
  ["plain true (control)", fm("utility_gated: true\n")],
  ["yes", fm("utility_gated: yes\n")],
  ["True", fm("utility_gated: True\n")],
  ["quoted", fm('utility_gated: "true"\n')],
  ["on", fm("utility_gated: on\n")],
  ["duplicate false then true", fm("utility_gated: false\nutility_gated: true\n")],
  ["CRLF", fm("utility_gated: true\n").replace(/\n/g, "\r\n")],
  ["BOM", `\uFEFF${fm("utility_gated: true\n")}`],
  ["metadata", fm("metadata:\n  utility_gated: true\n")],
  ["tag", fm("utility_gated: !!bool true\n")],
  ["flow mapping metadata", fm("metadata: {utility_gated: true}\n")],
];

describe.each(SPELLINGS)("opt-in spelled: %s", (name, content) => {
  it("a report-less Bash after loading the skill is refused and does not run", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "skills", "optin"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "skills", "optin", "SKILL.md"), content);
    const calls = { load: id("rt2_optin_load"), bare: id("rt2_optin_bare") };
    const run = await gateRun({
      prompt: "why does it fail?",
      cwd,
      projectSkills: [],
      allowedTools: ["Bash", "Read", "Skill"],
      script: [[toolUse("Skill", { skill: "optin" }, calls.load)], [touch(join(marks, "bare"), calls.bare)], [text("Done.")]],
    });
    try {
      const loaded = lastToolResults(run.model.mainRequests()[1]!)[0]!;
      const rec = logOf(run).find((r) => r.toolUseId === calls.bare && r.event === "PreToolUse");
      console.log(
        JSON.stringify(name),
        "load:",
        loaded.is_error,
        loaded.text.slice(0, 60),
        "| bare:",
        rec?.decision,
        rec?.rule,
        (rec?.reason ?? "").slice(0, 100),
        "ran:",
        ran(join(marks, "bare")),
      );
      if (!loaded.is_error) expect({ decision: rec?.decision, ran: ran(join(marks, "bare")) }).toEqual({ decision: "refused", ran: false });
    } finally {
      run.cleanup();
    }
  });
});
