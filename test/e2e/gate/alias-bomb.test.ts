/**
 * Issue 31, hole 10: a 1 KB YAML alias bomb in a repo skill's `utility_floor`
 * was expanded when the plugin described the bad value (about 25 s and
 * 1.2 GB): PreToolUse timed out and an ungated call was blocked. Now every
 * YAML block the plugin reads is bounded (src/engine/bounded-value.ts): the
 * bomb is refused as `utility_floor`, unexpanded.
 *
 * - Ungated: the session loads the skill (Claude Code itself ignores this
 *   frontmatter, "Excessive aliasing", and loads the body) and runs a
 *   report-less Bash: both calls are answered, nothing is refused, and
 *   `utility check` reports the key once as invalid.
 * - Gated: the same bomb beside `utility_gated: true` gates with the problem:
 *   even a call with a valid report is refused, naming the field, what was
 *   found and what is expected.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_ROOT } from "../../support/paths.js";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { expectPassed, expectRefused, gateRun, id, logOf, markerDir, ok, ran, resultFor, touch } from "./support.js";

/** A billion laughs in 1 KB: nine lists of nine aliases of the list before, the last under utility_floor. */
function aliasBomb(): string {
  let yaml = `a0: &a0 [${Array(9).fill('"lol"').join(", ")}]\n`;
  for (let i = 1; i <= 8; i++)
    yaml += `a${i}: &a${i} [${Array(9)
      .fill(`*a${i - 1}`)
      .join(", ")}]\n`;
  return `${yaml}utility_floor: *a8\n`;
}

/** A project in a fresh folder with the skill `bomb`, gated or not; returns the folder and the skill's file. */
function projectWithBomb(gated: boolean): { cwd: string; skill: string } {
  const cwd = markerDir();
  const dir = join(cwd, ".claude", "skills", "bomb");
  mkdirSync(dir, { recursive: true });
  const skill = join(dir, "SKILL.md");
  const optIn = gated ? "utility_gated: true\n" : "";
  writeFileSync(skill, `---\nname: bomb\ndescription: Checks the parser.\n${optIn}${aliasBomb()}---\nCheck the parser.\n`);
  return { cwd, skill };
}

describe("an ungated session with an alias bomb in a repo skill's utility_floor", () => {
  const marks = markerDir();
  const ids = { skill: id("bomb_skill"), bare: id("bomb_bare") };
  const project = projectWithBomb(false);
  let run: RunClaudeResult;

  beforeAll(async () => {
    expect(Buffer.byteLength(aliasBomb())).toBeLessThan(1_100);
    run = await gateRun({
      prompt: "check the parser",
      cwd: project.cwd,
      allowedTools: ["Bash", "Skill"],
      script: [
        [toolUse("Skill", { skill: "bomb" }, ids.skill)],
        [text("Running."), touch(join(marks, "bare"), ids.bare)],
        [text("Checked.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("answers the Skill call and the report-less call: nothing is refused, both are observed", () => {
    expect(assertRunOk(run).permission_denials).toEqual([]);
    expect(resultFor(run.model.mainRequests(), ids.skill)).toMatchObject({ is_error: false, text: "Launching skill: bomb" });
    expectPassed(run, ids.bare, "observed");
    expect(ran(join(marks, "bare"))).toBe(true);
    // An ungated Skill call only loads text: it leaves no record; the Bash after it does, ungated.
    const pre = logOf(run).filter((r) => r.event === "PreToolUse");
    expect(pre.map((r) => [r.toolUseId, r.gated])).toEqual([[ids.bare, false]]);
    expect(assertRunOk(run).result).toBe("Checked.");
  });

  it("utility check reports the key once as invalid, with what was found and what is expected", () => {
    const cli = spawnSync(process.execPath, [join(PLUGIN_ROOT, "dist", "cli.js"), "check", project.skill], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(cli.status).toBe(1);
    const lines = cli.stdout.trim().split("\n");
    expect(lines).toEqual([
      `${project.skill}: utility_floor: found YAML whose aliases expand past 262,144 values and characters; expected at most 262,144 values and characters once aliases are expanded (a plain value, not an alias bomb)`,
      "checked 1 file, 1 problem in 1 file",
    ]);
  });
});

describe("the same bomb in a skill that asks for the gate", () => {
  const marks = markerDir();
  const ids = { valid: id("bomb_valid") };
  const project = projectWithBomb(true);
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "check the parser",
      cwd: project.cwd,
      allowedTools: ["Bash", "Skill"],
      script: [
        [toolUse("Skill", { skill: "bomb" })],
        [text(ok("verify", "Run the check.")), touch(join(marks, "valid"), ids.valid)],
        [text("The skill is misconfigured.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("gates with the problem: a call with a valid report is refused, naming the field, what was found and what is expected", () => {
    const said = expectRefused(run, ids.valid, "Bash", "optin_invalid");
    expect(said).toContain(
      `${project.skill}: utility_floor is YAML whose aliases expand past 262,144 values and characters; expected at most 262,144 values and characters once aliases are expanded`,
    );
    expect(ran(join(marks, "valid"))).toBe(false);
  });
});
