/**
 * Issue 18, items 1, 2, 3 and 8, in the real client (SPEC §6: a call is
 * judged by what it can do, not by its name). A project skill whose body runs
 * its arguments (`` !`$ARGUMENTS` ``), one that forks (`context: fork`), the
 * Workflow tool, and an agent whose gated definition has a YAML comment after
 * its name. In a gated scope each needs the report that permits it; in an
 * ungated one nothing is refused.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { routeByPrompt, text, toolUse } from "../support/scripted-model.js";
import { activate, expectPassed, expectRefused, gateRun, id, logOf, markerDir, ok, preRecords, ran, touch } from "./support.js";

const SHELL_SKILL = "---\nname: sh\ndescription: runs its arguments\n---\nOut: !`$ARGUMENTS`\n";
const FORK_SKILL = "---\nname: forked\ndescription: runs apart\ncontext: fork # in a subagent\n---\nFORKED-TASK: say done.\n";
const COMMENTED_AGENT = "---\nname: gated-helper # the gated one\ndescription: gated from its start\nutility_gated: true\n---\nHelp.\n";

/** A working folder holding the test's project skills and agents. */
function project(): string {
  const cwd = markerDir();
  const put = (rel: string, body: string) => {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true });
    writeFileSync(join(cwd, rel), body);
  };
  put(".claude/skills/sh/SKILL.md", SHELL_SKILL);
  put(".claude/skills/forked/SKILL.md", FORK_SKILL);
  put(".claude/agents/helper.md", COMMENTED_AGENT);
  return cwd;
}

describe("a gated scope: a skill that runs shell as it loads (issue 18 item 1)", () => {
  const marks = markerDir();
  const ids = { bare: id("sh_bare"), reported: id("sh_reported") };
  let run: RunClaudeResult;
  beforeAll(async () => {
    run = await gateRun({
      prompt: "run it",
      cwd: project(),
      script: [
        [activate()],
        [toolUse("Skill", { skill: "sh", args: `touch ${join(marks, "bare")}` }, ids.bare)],
        [
          text(ok("tool_call", "The skill runs the command.")),
          toolUse("Skill", { skill: "sh", args: `touch ${join(marks, "reported")}` }, ids.reported),
        ],
        [text("Done.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("a report-less Skill call is refused, and its command never ran", () => {
    expect(expectRefused(run, ids.bare, "Skill", "no_report")).toMatch(
      /skill "sh" runs shell commands when it loads .* so it counts as tool_call/,
    );
    expect(ran(join(marks, "bare"))).toBe(false);
  });

  it("under a tool_call report it passes, counts a step, and the command runs", () => {
    expect(expectPassed(run, ids.reported)).toMatchObject({ tool: "Skill", step: 1 });
    expect(ran(join(marks, "reported"))).toBe(true);
  });
});

describe("a gated scope: a forked skill needs a delegate report (issue 18 item 2)", () => {
  const ids = { asTool: id("fork_tool"), asDelegate: id("fork_delegate") };
  let run: RunClaudeResult;
  beforeAll(async () => {
    run = await gateRun({
      prompt: "fork it",
      cwd: project(),
      script: [
        [activate()],
        [text(ok("tool_call", "Load the skill.")), toolUse("Skill", { skill: "forked" }, ids.asTool)],
        [text(ok("delegate", "The skill runs in a subagent.")), toolUse("Skill", { skill: "forked" }, ids.asDelegate)],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([["FORKED-TASK", [[text("forked done")]]]]),
    });
  });
  afterAll(() => run?.cleanup());

  it("a tool_call report does not permit it, and no subagent starts", () => {
    expect(expectRefused(run, ids.asTool, "Skill", "tool_not_permitted")).toMatch(/runs in a forked subagent .* so it counts as delegate/);
  });

  it("a delegate report does, and the subagent runs, counted as a launch", () => {
    expectPassed(run, ids.asDelegate);
    expect(run.model.subagentRequests().length).toBe(1);
  });
});

describe("a gated scope: Workflow launches agents (issue 18 item 3)", () => {
  const ids = { flow: id("workflow") };
  let run: RunClaudeResult;
  beforeAll(async () => {
    run = await gateRun({
      prompt: "use a workflow",
      cwd: project(),
      script: [
        [activate()],
        [
          text(ok("tool_call", "Run a workflow.")),
          toolUse("Workflow", { script: "export const meta = { name: 'w', description: 'w' }\nawait agent('WF-AGENT: hi')\n" }, ids.flow),
        ],
        [text("Done.")],
      ],
      subagentScript: [[text("workflow agent done")]],
    });
  });
  afterAll(() => run?.cleanup());

  it("is refused under a tool_call report, and starts no agent", () => {
    expect(expectRefused(run, ids.flow, "Workflow", "tool_not_permitted")).toMatch(
      /Action tool_call does not permit Workflow.*Workflow fits delegate/,
    );
    expect(run.model.subagentRequests()).toEqual([]);
  });
});

describe("an agent whose gated definition has a YAML comment after its name (issue 18 item 8)", () => {
  const marks = markerDir();
  const ids = { agent: id("yaml_agent"), bare: id("yaml_bare") };
  let run: RunClaudeResult;
  beforeAll(async () => {
    run = await gateRun({
      prompt: "ask the helper",
      cwd: project(),
      script: [
        [
          toolUse(
            "Agent",
            { subagent_type: "gated-helper", description: "Help", prompt: "YAML-HELPER: touch it", run_in_background: false },
            ids.agent,
          ),
        ],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([
        ["YAML-HELPER", [[text("Touching it."), touch(join(marks, "bare"), ids.bare)], [text("Could not.")]]],
      ]),
    });
  });
  afterAll(() => run?.cleanup());

  it("runs gated: its report-less call is refused and never runs", () => {
    assertRunOk(run);
    const rec = logOf(run).find((r) => r.event === "PreToolUse" && r.toolUseId === ids.bare);
    expect(rec).toMatchObject({ decision: "refused", rule: "no_report", gated: true, agentType: "gated-helper" });
    expect(ran(join(marks, "bare"))).toBe(false);
  });
});

describe("an ungated scope is never refused for any of this", () => {
  const marks = markerDir();
  const ids = { sh: id("ungated_sh"), fork: id("ungated_fork") };
  let run: RunClaudeResult;
  beforeAll(async () => {
    run = await gateRun({
      prompt: "run them",
      cwd: project(),
      script: [
        [toolUse("Skill", { skill: "sh", args: `touch ${join(marks, "ungated")}` }, ids.sh)],
        [toolUse("Skill", { skill: "forked" }, ids.fork)],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([["FORKED-TASK", [[text("forked done")]]]]),
    });
  });
  afterAll(() => run?.cleanup());

  it("the shell skill runs its command and the forked one its subagent, with no report and no refusal", () => {
    const result = assertRunOk(run);
    expect(result.permission_denials).toEqual([]);
    expect(ran(join(marks, "ungated"))).toBe(true);
    expect(run.model.subagentRequests().length).toBe(1);
    expect(preRecords(run, "Skill")).toEqual([]);
  });
});
