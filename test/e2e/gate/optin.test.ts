/**
 * SPEC §5 and §10: a skill that asks for the gate with an invalid value
 * (`utility_gated: "true"`, a string) gates with the problem: every checked
 * call is refused with the file, the key, what was found and what is expected.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunClaudeResult } from "../support/claude.js";
import { systemMessageTexts, text } from "../support/scripted-model.js";
import { activate, expectRefused, FIXTURE_PLUGIN, gateRun, id, markerDir, ok, ran, recordOf, touch } from "./support.js";
import { skillFolder } from "./skill-fixtures.js";

describe("an invalid opt-in", () => {
  const marks = markerDir();
  const call = id("call");
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "go",
      fixtures: true,
      script: [[activate("ufix:bad-optin")], [text(ok("verify")), touch(join(marks, "x"), call)], [text("The skill is misconfigured.")]],
    });
  });
  afterAll(() => run?.cleanup());

  it("refuses even a valid report, naming the file, the key and the expected type", () => {
    const file = join(FIXTURE_PLUGIN, "skills", "bad-optin", "SKILL.md");
    const said = expectRefused(run, call, "Bash", "optin_invalid");
    expect(said).toContain("utility gate: The skill that gates this scope has an invalid opt-in, so no tool call can be checked:");
    expect(said).toContain(file);
    expect(said).toContain("utility_gated");
    expect(said).toMatch(/boolean/);
    expect(said).toContain('"true"');
    expect(recordOf(run, call)).toMatchObject({ gatedBy: file, step: 0 });
    expect(ran(join(marks, "x"))).toBe(false);
  });
});

describe("a misspelled opt-in key (issue 34): `utility_gate: true`", () => {
  const marks = markerDir();
  const call = id("misspelled");
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "go",
      projectSkills: [skillFolder("misspelled-gate", "utility_gate: true\n")],
      script: [[activate("misspelled-gate")], [text(ok("verify")), touch(join(marks, "x"), call)], [text("The skill is misconfigured.")]],
    });
  });
  afterAll(() => run?.cleanup());

  it("warns once at session start, before anything runs, naming the file, the key and the one meant", () => {
    const told = systemMessageTexts(run.model.mainRequests()[0]!).filter((t) => t.includes("SessionStart hook additional context"));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("utility: a skill or agent has an opt-in the gate cannot read");
    expect(told[0]).toMatch(/misspelled-gate\/SKILL\.md: utility_gate: found an unknown key \(did you mean utility_gated\?\)/);
  });

  it("gates with the problem instead of silently not at all, and says which key was meant", () => {
    const said = expectRefused(run, call, "Bash", "optin_invalid");
    expect(said).toContain("utility_gate");
    expect(said).toContain("did you mean utility_gated?");
    expect(ran(join(marks, "x"))).toBe(false);
  });
});
