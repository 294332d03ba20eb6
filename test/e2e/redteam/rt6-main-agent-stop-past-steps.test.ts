/**
 * Red team 6 (class 5 x 2): the main thread run as a gated agent whose definition sets
 * utility_max_steps: 1. Its one step starts a background job; the next reported Bash is
 * refused (steps spent). Promise (README): past any spent budget, TaskStop needs no
 * report and is never refused for a budget; the job is stopped.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { lastToolResults, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ok, resultFor } from "../gate/support.js";

const AGENT = `---\nname: gated-main\ndescription: A gated reviewer.\ntools: Bash, Read, TaskStop, ToolSearch\nutility_gated: true\nutility_max_steps: 1\n---\n\nYou are a gated reviewer.\n`;

describe("gated main agent past its steps", () => {
  it("TaskStop goes on and stops the job", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "agents", "gated-main.md"), AGENT);
    const home = makeScratchHome([cwd]);
    const ids = { job: id("rt6_sp_job"), spend: id("rt6_sp_spend"), search: id("rt6_sp_search"), stop: id("rt6_sp_stop") };
    let job = "";
    const run = await gateRun({
      prompt: "start the job, then stop it",
      cwd,
      home,
      timeoutMs: 90_000,
      extraArgs: ["--agent", "gated-main"],
      allowedTools: ["Bash", "Read", "TaskStop", "ToolSearch"],
      script: [
        [
          text(ok("tool_call", "Start.")),
          toolUse("Bash", { command: `sleep 25; touch ${join(marks, "job")}`, description: "job", run_in_background: true }, ids.job),
        ],
        (req: RecordedRequest) => {
          job = /with ID: (\w+)/.exec(lastToolResults(req)[0]?.text ?? "")?.[1] ?? "none";
          return [
            text(ok("verify", "More.")),
            toolUse("Bash", { command: `touch ${join(marks, "spend")}`, description: "spend" }, ids.spend),
          ];
        },
        [toolUse("ToolSearch", { query: "select:TaskStop" }, ids.search)],
        () => [toolUse("TaskStop", { task_id: job }, ids.stop)],
        [text("Stopped.")],
      ],
    });
    try {
      const f = (c: string) => logOf(run).find((r) => r.event === "PreToolUse" && r.toolUseId === c);
      const said = resultFor(run.model.mainRequests(), ids.stop);
      console.log(
        "job:",
        job,
        f(ids.job)?.decision,
        "| spend:",
        f(ids.spend)?.decision,
        f(ids.spend)?.rule,
        "| search:",
        f(ids.search)?.decision,
        f(ids.search)?.rule,
        "| stop:",
        f(ids.stop)?.decision,
        f(ids.stop)?.rule,
        "| said:",
        said?.text?.slice(0, 120),
        "| gated:",
        f(ids.stop)?.gated,
      );
      expect(f(ids.spend)?.decision).toBe("refused");
      expect(f(ids.stop)?.decision).not.toBe("refused");
      expect(said?.text ?? "").toContain("Successfully stopped task");
    } finally {
      run.cleanup();
    }
  }, 120_000);
});
