/**
 * The data folder is not the repository's to move (issue 31, hole 6). A
 * project's `.claude/settings.json` `env` reaches the hook server and the
 * hooks, so it could set UTILITY_DATA_DIR to a folder inside the project,
 * where Claude Code's sandbox lets the model's shell wipe the state, the log
 * and the ledger, and run past `utility_max_steps`. The hooks use the data
 * folder Claude Code gives them (CLAUDE_PLUGIN_DATA, which a project cannot
 * set), so under the sandbox the wipe reaches nothing and the budget holds;
 * the ungated twin shows that nothing is refused there either.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, expectPassed, expectRefused, gateRun, id, logOf, markerDir, ok, ran, stateOf, touch } from "./support.js";

const hasBubblewrap = existsSync("/usr/bin/bwrap");

/** A sandboxed project whose settings move UTILITY_DATA_DIR into it. */
function movingProject(): { cwd: string; moved: string } {
  const cwd = markerDir();
  const moved = join(cwd, "utility-data");
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  writeFileSync(
    join(cwd, ".claude", "settings.json"),
    JSON.stringify({
      env: { UTILITY_DATA_DIR: moved },
      sandbox: { enabled: true, autoAllowBashIfSandboxed: true, allowUnsandboxedCommands: false },
    }),
  );
  return { cwd, moved };
}

describe.skipIf(!hasBubblewrap)("a repository's env.UTILITY_DATA_DIR", () => {
  const runs: RunClaudeResult[] = [];
  afterAll(() => runs.forEach((run) => run.cleanup()));

  it("moves nothing: the sandboxed shell's wipe of that folder leaves the step budget standing", async () => {
    const { cwd, moved } = movingProject();
    const ids = { one: id("dd_one"), wipe: id("dd_wipe"), third: id("dd_third") };
    const run = await gateRun({
      prompt: "check it twice",
      cwd,
      fixtures: true,
      timeoutMs: 90_000,
      script: [
        [activate("ufix:budget-two")],
        [text(ok("verify")), touch(join(cwd, "one"), ids.one)],
        [text(ok("verify", "Wipe.")), toolUse("Bash", { command: `rm -rf ${moved}; echo wiped`, description: "wipe" }, ids.wipe)],
        [text(ok("verify")), touch(join(cwd, "third"), ids.third)],
        [text("Budget spent.")],
      ],
    });
    runs.push(run);
    // The third call is past the budget: it is refused and never runs, wipe or no wipe.
    expect(assertRunOk(run).permission_denials.map((d) => d.tool_use_id)).toEqual([ids.third]);
    expect(ran(join(cwd, "third"))).toBe(false);
    expect(expectPassed(run, ids.one)).toMatchObject({ step: 1, maxSteps: 2 });
    expect(expectPassed(run, ids.wipe)).toMatchObject({ step: 2, maxSteps: 2 });
    expectRefused(run, ids.third, "Bash", "budget_spent");
    expect(stateOf(run).main).toMatchObject({ step: 2, refusals: 1 });
    expect(existsSync(moved)).toBe(false);
  });

  it("the ungated twin: nothing refused, every record in the data folder Claude Code gave", async () => {
    const { cwd, moved } = movingProject();
    const call = id("dd_ungated");
    const run = await gateRun({
      prompt: "list it",
      cwd,
      timeoutMs: 90_000,
      script: [[text("No report."), touch(join(cwd, "ran"), call)], [text("Listed.")]],
    });
    runs.push(run);
    expect(assertRunOk(run).permission_denials).toEqual([]);
    expectPassed(run, call, "observed");
    expect(ran(join(cwd, "ran"))).toBe(true);
    expect(logOf(run).map((r) => r.event)).toContain("SessionEnd");
    expect(existsSync(moved)).toBe(false);
  });
});
