/**
 * Issue 31, hole 9, in the real client: one `delegate` step of a gated scope
 * launches `Agent{subagent_type: "fork"}`, a subagent that carries the whole
 * conversation, the gated skill included (Claude Code 2.1.328 calls it agent
 * type `fork`, docs/claude-code-facts.md). The fork is gated as its launcher
 * was: its report-less call is refused, and its steps go on from the
 * launcher's count, so it stops at the skill's `utility_max_steps`. The
 * ungated twin: the same fork in a session nothing gates refuses nothing.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunClaudeResult } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { expectPassed, gateRun, id, markerDir, ok, ran, recordOf, resultFor, stateOf, touch } from "./support.js";

/**
 * The gate refused the fork's call: its record, and the refusal the fork was
 * told (a background fork's denials are not in `-p`'s permission_denials).
 */
function expectForkRefused(run: RunClaudeResult, toolUseId: string, rule: string): void {
  expect(recordOf(run, toolUseId)).toMatchObject({
    decision: "refused",
    rule,
    tool: "Bash",
    gated: true,
    scope: "subagent",
    agentType: "fork",
  });
  const seen = resultFor(run.model.subagentRequests(), toolUseId);
  expect(seen.is_error).toBe(true);
  expect(seen.text.startsWith("PreToolUse:Bash hook error: utility gate: ")).toBe(true);
}

const forkCall = (callId: string) =>
  toolUse("Agent", { subagent_type: "fork", description: "look deeper", prompt: "Look into the failing test." }, callId);

describe("a fork launched by a gated skill's delegate step (issue 31, hole 9)", () => {
  const marks = markerDir();
  const [launch, bare, one, two] = [id("fork_launch"), id("fork_bare"), id("fork_one"), id("fork_two")];
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "why does test_parse fail?",
      fixtures: true,
      script: [
        [toolUse("Skill", { skill: "ufix:budget-two" })],
        [text(ok("delegate", "A fork looks deeper.")), forkCall(launch)],
        [text("Waiting for the fork.")],
        [text("The fork is done.")],
      ],
      subagentScript: [
        [touch(join(marks, "bare"), bare)],
        [text(ok("verify", "Run it.")), touch(join(marks, "one"), one)],
        [text(ok("verify", "Run it again.")), touch(join(marks, "two"), two)],
        [text("Fork done.")],
      ],
      timeoutMs: 90_000,
    });
  }, 120_000);
  afterAll(() => run?.cleanup());

  it("the launch is a delegate step of the gated main scope", () => {
    expect(recordOf(run, launch)).toMatchObject({ decision: "passed", step: 1, scope: "self", gated: true });
  });

  it("the fork's report-less call is refused by the launcher's gate", () => {
    expectForkRefused(run, bare, "no_report");
    expect(ran(join(marks, "bare"))).toBe(false);
  });

  it("its steps go on from the launcher's: step 2 of 2 runs, the next is refused", () => {
    expect(expectPassed(run, one, "passed", run.model.subagentRequests())).toMatchObject({ step: 2, maxSteps: 2 });
    expect(ran(join(marks, "one"))).toBe(true);
    expectForkRefused(run, two, "budget_spent");
    expect(ran(join(marks, "two"))).toBe(false);
  });

  it("the fork's scope names the launch it came from", () => {
    const agents = Object.values(stateOf(run).agents) as Array<{ agentType?: string; forkOf?: string }>;
    expect(agents.map((a) => [a.agentType, a.forkOf])).toEqual([["fork", launch]]);
    expect(stateOf(run).forks).toBeUndefined();
  });
});

describe("the same fork in a session nothing gates (ungated twin)", () => {
  const marks = markerDir();
  const [launch, bare, one] = [id("twin_launch"), id("twin_bare"), id("twin_one")];
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "why does test_parse fail?",
      script: [[forkCall(launch)], [text("Waiting for the fork.")], [text("The fork is done.")]],
      subagentScript: [[touch(join(marks, "bare"), bare)], [touch(join(marks, "one"), one)], [text("Fork done.")]],
      timeoutMs: 90_000,
    });
  }, 120_000);
  afterAll(() => run?.cleanup());

  it("refuses nothing: the launch and both of the fork's report-less calls run", () => {
    expectPassed(run, launch, "observed");
    expectPassed(run, bare, "observed", run.model.subagentRequests());
    expectPassed(run, one, "observed", run.model.subagentRequests());
    expect(ran(join(marks, "bare"))).toBe(true);
    expect(ran(join(marks, "one"))).toBe(true);
  });
});
