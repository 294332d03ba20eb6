/**
 * Issue 31, hole 12: a gated agent definition whose frontmatter repeats a key
 * (`description` twice) ran ungated. Claude Code 2.1.328 accepts the YAML and
 * takes the last value (docs/claude-code-facts.md, "Repeated keys, aliases and
 * size"); the plugin's reader refused it, the type's file was not found, and
 * the lookup failed open. Now the plugin reads a repeated key as Claude Code
 * does: the project agent, launched through the Agent tool from an ungated
 * session, is gated from its first call, and its report-less call is refused.
 * Its ungated twin (the same repeated key, no opt-in) is refused nothing.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { routeByPrompt, text, toolUse } from "../support/scripted-model.js";
import { expectPassed, expectRefused, gateRun, id, logOf, markerDir, ran, recordOf, touch } from "./support.js";

/** An agent definition that writes `description` twice, gated or not. */
function definition(gated: boolean): string {
  const optIn = gated ? "utility_gated: true\n" : "";
  return `---\nname: dup-helper\ndescription: Runs the check (first)\n${optIn}description: Runs the check\n---\nYou run the check.\n`;
}

function runWith(gated: boolean, marker: string, ids: { agent: string; bare: string }): Promise<RunClaudeResult> {
  const cwd = markerDir();
  mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
  writeFileSync(join(cwd, ".claude", "agents", "dup-helper.md"), definition(gated));
  return gateRun({
    prompt: "run the check",
    cwd,
    script: [
      [
        toolUse(
          "Agent",
          { subagent_type: "dup-helper", description: "Run the check", prompt: "SUBTASK-DUP: run the check", run_in_background: false },
          ids.agent,
        ),
      ],
      [text("The helper reported back.")],
    ],
    subagentScript: routeByPrompt([["SUBTASK-DUP", [[text("Running."), touch(marker, ids.bare)], [text("SUB-FINAL: done.")]]]]),
  });
}

describe("a gated agent whose frontmatter repeats a key", () => {
  const marks = markerDir();
  const ids = { agent: id("dup_agent"), bare: id("dup_bare") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await runWith(true, join(marks, "bare"), ids);
  });
  afterAll(() => run?.cleanup());

  it("is gated from its first call: the report-less call is refused and does not run", () => {
    expectRefused(run, ids.bare, "Bash", "no_report", run.model.subagentRequests());
    expect(ran(join(marks, "bare"))).toBe(false);
    expect(recordOf(run, ids.bare)).toMatchObject({
      scope: "subagent",
      agentType: "dup-helper",
      gatedBy: join(run.cwd, ".claude", "agents", "dup-helper.md"),
    });
  });

  it("the ungated main conversation that launched it is refused nothing", () => {
    expectPassed(run, ids.agent, "observed");
    expect(assertRunOk(run).result).toBe("The helper reported back.");
  });
});

describe("its ungated twin: the same repeated key, no opt-in", () => {
  const marks = markerDir();
  const ids = { agent: id("twin_agent"), bare: id("twin_bare") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await runWith(false, join(marks, "bare"), ids);
  });
  afterAll(() => run?.cleanup());

  it("is refused nothing: the call runs, and every record is observed and ungated", () => {
    expect(assertRunOk(run).permission_denials).toEqual([]);
    expectPassed(run, ids.bare, "observed", run.model.subagentRequests());
    expect(ran(join(marks, "bare"))).toBe(true);
    const pre = logOf(run).filter((r) => r.event === "PreToolUse");
    expect(pre.map((r) => [r.toolUseId, r.decision, r.gated])).toEqual([
      [ids.agent, "observed", false],
      [ids.bare, "observed", false],
    ]);
  });
});
