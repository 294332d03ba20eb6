/**
 * Subagent and dispatch scopes (SPEC §2, §5, §6): a main scope gated by a
 * `utility_scope: dispatch` skill delegates with a report; the plugin agent
 * it starts (`ufix:gated-helper`, loaded with --plugin-dir) is gated from its
 * start by its definition's frontmatter, has no `delegate`, and keeps its own
 * steps and log records.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { routeByPrompt, text, toolUse } from "../support/scripted-model.js";
import {
  activate,
  expectPassed,
  expectRefused,
  FIXTURE_PLUGIN,
  gateRun,
  id,
  logOf,
  markerDir,
  ok,
  ran,
  recordOf,
  stateOf,
  touch,
} from "./support.js";

describe("a gated subagent under a dispatch scope", () => {
  const marks = markerDir();
  const ids = { agent: id("agent"), bare: id("sub_bare"), delegate: id("sub_delegate"), valid: id("sub_valid") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "split the work",
      fixtures: true,
      script: [
        [activate("ufix:dispatch")],
        [
          text(ok("delegate", "A helper can run the check.")),
          toolUse(
            "Agent",
            {
              subagent_type: "ufix:gated-helper",
              description: "Run the check",
              prompt: "SUBTASK-CHECK: run the check",
              run_in_background: false,
            },
            ids.agent,
          ),
        ],
        [text("The helper reported back.")],
      ],
      subagentScript: routeByPrompt([
        [
          "SUBTASK-CHECK",
          [
            [text("Running it."), touch(join(marks, "bare"), ids.bare)],
            [
              text(ok("delegate", "Hand it on.")),
              toolUse(
                "Agent",
                { subagent_type: "general-purpose", description: "Deeper", prompt: "NESTED: go", run_in_background: false },
                ids.delegate,
              ),
            ],
            [text(ok("verify", "Run the check.")), touch(join(marks, "valid"), ids.valid)],
            [text("SUB-FINAL: the check ran.")],
          ],
        ],
      ]),
    });
  });
  afterAll(() => run?.cleanup());

  it("the dispatch scope permits delegate with Agent", () => {
    expect(expectPassed(run, ids.agent)).toMatchObject({
      scope: "dispatch",
      step: 1,
      gatedBy: join(FIXTURE_PLUGIN, "skills", "dispatch", "SKILL.md"),
      report: { action: "delegate" },
    });
    expect(assertRunOk(run).result).toBe("The helper reported back.");
  });

  it("the subagent is gated from its first call by its definition", () => {
    const sub = run.model.subagentRequests();
    expectRefused(run, ids.bare, "Bash", "no_report", sub);
    expect(ran(join(marks, "bare"))).toBe(false);
    expect(recordOf(run, ids.bare)).toMatchObject({
      scope: "subagent",
      agentType: "ufix:gated-helper",
      gatedBy: join(FIXTURE_PLUGIN, "agents", "gated-helper.md"),
    });
  });

  it("delegate is not an action of a subagent: refused by name, listing the subagent's actions", () => {
    const said = expectRefused(run, ids.delegate, "Agent", "unknown_action", run.model.subagentRequests());
    expect(said).toContain(
      "Action delegate is not available in subagent scope; the actions here are respond, retrieve, tool_call, verify, stop.",
    );
    expect(run.model.subagentRequests().filter((r) => JSON.stringify(r.body?.messages?.[0] ?? "").includes("NESTED"))).toEqual([]);
  });

  it("a valid report passes in the subagent, with its own steps and agent id", () => {
    const rec = expectPassed(run, ids.valid, "passed", run.model.subagentRequests());
    expect(ran(join(marks, "valid"))).toBe(true);
    expect(rec).toMatchObject({ scope: "subagent", step: 1, agentType: "ufix:gated-helper" });
    const agentId = rec.agentId!;
    expect(agentId).toMatch(/^a[0-9a-f]+$/);
    expect(recordOf(run, ids.bare).agentId).toBe(agentId);
    const state = stateOf(run);
    expect(state.agents[agentId]).toMatchObject({ step: 1, refusals: 2, ended: true });
    expect(state.main).toMatchObject({ step: 1, refusals: 0 });
    const subStop = logOf(run).find((r) => r.event === "SubagentStop")!;
    expect(subStop).toMatchObject({ agentId, scope: "subagent", decision: "observed", gated: true });
  });
});
