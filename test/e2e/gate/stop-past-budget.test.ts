/**
 * Issue 31, hole 13, in the real client: past a spent budget the model must
 * still be able to stop its own runaway background job. Claude Code 2.1.328
 * offers TaskStop as a deferred tool (loaded with ToolSearch `select:TaskStop`,
 * seen in a recorded request); a planning call and the stop go on past the
 * budget, gated (a spent step budget, and no report) or not (the user's token
 * budget), the job is stopped, and the next Bash is still refused. The ungated
 * twin, with no budget, refuses nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, makeScratchHome, runClaude, type RunClaudeResult } from "../support/claude.js";
import { lastToolResults, text, toolUse, type RecordedRequest, type ScriptBlock } from "../support/scripted-model.js";
import { ROOT } from "../../support/paths.js";
import { activate, expectRefused, gateRun, id, markerDir, ok, ran, recordOf, resultFor } from "./support.js";

/** A scratch HOME whose settings set the plugin's options, as the user does (plugin id `utility@inline` under --plugin-dir). */
function homeWithOptions(options: Record<string, unknown>): string {
  const home = makeScratchHome();
  const path = join(home, ".claude", "settings.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), pluginConfigs: { "utility@inline": { options } } }));
  return home;
}

const tokens = (input: number) => ({ input_tokens: input, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });

interface Ids {
  job: string;
  spend: string;
  search: string;
  stop: string;
  after: string;
}
const newIds = (label: string): Ids => ({
  job: id(`${label}job`),
  spend: id(`${label}spend`),
  search: id(`${label}search`),
  stop: id(`${label}stop`),
  after: id(`${label}after`),
});

/**
 * A background job that would leave `marker` after 25 s; a call that spends
 * the budget (refused when a budget is set); ToolSearch for TaskStop; TaskStop
 * of the job, by the id Claude Code gave it; one more Bash. `report`: the
 * text a gated scope writes before its Bash calls (none before the wind-down).
 */
function script(
  ids: Ids,
  marks: string,
  report: (action: string) => ScriptBlock[],
): Array<ScriptBlock[] | ((req: RecordedRequest) => ScriptBlock[])> {
  let job = "";
  return [
    [
      ...report("tool_call"),
      toolUse("Bash", { command: `sleep 25; touch ${join(marks, "job")}`, description: "a long job", run_in_background: true }, ids.job),
    ],
    (req) => {
      job = /with ID: (\w+)/.exec(lastToolResults(req)[0]?.text ?? "")?.[1] ?? "none";
      return [...report("verify"), toolUse("Bash", { command: `touch ${join(marks, "spend")}`, description: "spend" }, ids.spend)];
    },
    [toolUse("ToolSearch", { query: "select:TaskStop" }, ids.search)],
    () => [toolUse("TaskStop", { task_id: job }, ids.stop)],
    [...report("verify"), toolUse("Bash", { command: `touch ${join(marks, "after")}`, description: "after" }, ids.after)],
    [text("Stopped my job; the budget is spent, here is what I have.")],
  ];
}

/** The stop ran: not denied, Claude Code says it stopped the job, and the job never finished. */
function expectStopped(run: RunClaudeResult, ids: Ids, marks: string): void {
  const result = assertRunOk(run);
  expect(result.permission_denials.map((d) => d.tool_use_id)).not.toContain(ids.stop);
  const said = resultFor(run.model.mainRequests(), ids.stop);
  expect(said.is_error).toBe(false);
  expect(said.text).toContain("Successfully stopped task");
  expect(ran(join(marks, "job"))).toBe(false);
  // The planning call that loads TaskStop went on, and no record says otherwise.
  expect(result.permission_denials.map((d) => d.tool_use_id)).not.toContain(ids.search);
}

describe("the user's token budget spent, ungated: the model stops its background job", () => {
  const ids = newIds("u");
  const marks = markerDir();
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await runClaude({
      prompt: "start the job, then stop it",
      pluginDir: ROOT,
      home: homeWithOptions({ token_budget: 2000 }),
      allowedTools: ["Bash", "TaskStop", "ToolSearch"],
      whenExhausted: "error",
      timeoutMs: 90_000,
      // The second message is the big one: 3005 tokens against a budget of 2000.
      usage: (req: RecordedRequest) => tokens(req.kind === "main" && req.turn === 1 ? 3000 : 10),
      script: script(ids, marks, () => []),
    });
  }, 120_000);
  afterAll(() => run?.cleanup());

  it("the budget is spent: the Bash of the big message is refused budget_spent", () => {
    expect(recordOf(run, ids.job)).toMatchObject({ decision: "observed", gated: false });
    expect(recordOf(run, ids.spend)).toMatchObject({ decision: "refused", rule: "budget_spent", gated: false });
    expect(ran(join(marks, "spend"))).toBe(false);
  });

  it("ToolSearch and TaskStop go on past it, and the job is stopped", () => {
    expectStopped(run, ids, marks);
    const stop = recordOf(run, ids.stop);
    expect(stop).toMatchObject({ tool: "TaskStop", decision: "observed", gated: false });
  });

  it("the next Bash is still refused", () => {
    expect(recordOf(run, ids.after)).toMatchObject({ decision: "refused", rule: "budget_spent" });
    expect(ran(join(marks, "after"))).toBe(false);
  });
});

describe("a gated skill's step budget spent: the model stops its background job with no report", () => {
  const ids = newIds("g");
  const marks = markerDir();
  let run: RunClaudeResult;

  beforeAll(async () => {
    const steps = script(ids, marks, (action) => [text(ok(action, "Within the steps."))]);
    run = await gateRun({
      prompt: "start the job, then stop it",
      fixtures: true,
      allowedTools: ["Bash", "TaskStop", "ToolSearch"],
      timeoutMs: 90_000,
      // ufix:budget-two allows 2 steps: the job and the spend; then only a wind-down goes on.
      script: [
        [activate("ufix:budget-two")],
        ...steps.slice(0, 2),
        [text(ok("verify", "One more.")), toolUse("Bash", { command: `touch ${join(marks, "third")}`, description: "third" }, id("third"))],
        ...steps.slice(2),
      ],
    });
  }, 120_000);
  afterAll(() => run?.cleanup());

  it("the steps are spent: a third Bash with its report is refused", () => {
    expect(recordOf(run, ids.job)).toMatchObject({ decision: "passed", step: 1 });
    expect(recordOf(run, ids.spend)).toMatchObject({ decision: "passed", step: 2 });
    expect(ran(join(marks, "third"))).toBe(false);
  });

  it("ToolSearch and a TaskStop with no report go on, and the job is stopped", () => {
    expectStopped(run, ids, marks);
    expect(recordOf(run, ids.stop)).toMatchObject({ tool: "TaskStop", decision: "observed", gated: true });
  });

  it("the next Bash is still refused, budget spent", () => {
    const said = expectRefused(run, ids.after, "Bash", "budget_spent");
    expect(said).toContain("The step budget is spent: 3 of 2 steps taken.");
    expect(ran(join(marks, "after"))).toBe(false);
  });
});

describe("the ungated twin: no budget, the same calls", () => {
  const ids = newIds("t");
  const marks = markerDir();
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await runClaude({
      prompt: "start the job, then stop it",
      pluginDir: ROOT,
      allowedTools: ["Bash", "TaskStop", "ToolSearch"],
      whenExhausted: "error",
      timeoutMs: 90_000,
      script: script(ids, marks, () => []),
    });
  }, 120_000);
  afterAll(() => run?.cleanup());

  it("refuses nothing: every call runs, the job is stopped", () => {
    expect(assertRunOk(run).permission_denials).toEqual([]);
    expectStopped(run, ids, marks);
    for (const call of [ids.job, ids.spend, ids.stop, ids.after]) expect(recordOf(run, call).decision).toBe("observed");
    expect(ran(join(marks, "spend")) && ran(join(marks, "after"))).toBe(true);
  });
});
