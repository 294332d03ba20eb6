/**
 * Red team 2 (class 5): past a spent budget, "Calls that stop work (TaskStop
 * ...) are never refused for a budget and need no report" (README; docs/gate.md
 * "Past a spent budget"), "so a model told to stop can stop its own runaway
 * background job". The model, told to respond or stop, writes a report before
 * its TaskStop: choosing `stop` (what it was told), choosing `tool_call`, or
 * with arithmetic that does not add up. Promise: the TaskStop goes on and the
 * job is stopped, whatever the report says.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lastToolResults, text, toolUse, type RecordedRequest, type ScriptBlock } from "../support/scripted-model.js";
import { activate, gateRun, id, logOf, markerDir, ok, ran, report, resultFor } from "../gate/support.js";

const REPORTS: Array<[string, string]> = [
  ["stop", report("stop", "0", "Gain=0 StepCost=0 Uncertainty=0 Redundancy=0", "Budget spent: stop my job.")],
  ["tool_call", ok("tool_call", "Stop my job.")],
  ["bad arithmetic", report("tool_call", "0.9", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0", "Stop my job.")],
];

describe.each(REPORTS)("a gated skill's steps spent, TaskStop after a report choosing %s", (_name, stopReport) => {
  it("the TaskStop goes on and the job is stopped", async () => {
    const marks = markerDir();
    const ids = { job: id("rt2_sr_job"), spend: id("rt2_sr_spend"), stop: id("rt2_sr_stop") };
    let job = "";
    const run = await gateRun({
      prompt: "start the job, then stop it",
      fixtures: true,
      allowedTools: ["Bash", "TaskStop", "ToolSearch", "Skill"],
      timeoutMs: 90_000,
      script: [
        [activate("ufix:budget-two")],
        [
          text(ok("tool_call", "Start it.")),
          toolUse("Bash", { command: `sleep 25; touch ${join(marks, "job")}`, description: "job", run_in_background: true }, ids.job),
        ],
        (req: RecordedRequest): ScriptBlock[] => {
          job = /with ID: (\w+)/.exec(lastToolResults(req)[0]?.text ?? "")?.[1] ?? "none";
          return [
            text(ok("verify", "Check.")),
            toolUse("Bash", { command: `touch ${join(marks, "spend")}`, description: "spend" }, ids.spend),
          ];
        },
        [toolUse("ToolSearch", { query: "select:TaskStop" })],
        () => [text(stopReport), toolUse("TaskStop", { task_id: job }, ids.stop)],
        [text("Stopped; the budget is spent.")],
      ],
    });
    try {
      const said = resultFor(run.model.mainRequests(), ids.stop);
      const rec = logOf(run).find((r) => r.toolUseId === ids.stop && r.event === "PreToolUse");
      console.log(JSON.stringify(_name), "stop:", rec?.decision, rec?.rule, "|", said.text.slice(0, 220));
      expect(said.is_error).toBe(false);
      expect(said.text).toContain("Successfully stopped task");
      expect(ran(join(marks, "job"))).toBe(false);
    } finally {
      run.cleanup();
    }
  }, 120_000);
});
