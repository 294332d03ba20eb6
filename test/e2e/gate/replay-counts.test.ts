/**
 * Issue 34, item 6, in the real client: replay counts what the hooks count.
 * One session, four prompts (each resumed in `-p`): a task with a subagent;
 * a task whose background job's end comes back as a `<task-notification>`
 * turn; `/compact` (the scripted model answers the compaction request); a
 * task with a second subagent. Then `utility replay --json` (the transcript,
 * and the history of its folder) against what the hooks kept (the step log,
 * the state, `utility report --json`): the same three tasks, the same
 * subagent in task 1 and in task 3, and no subagent for the compaction.
 * Before the change, the hooks took the compaction's SubagentStop (agent_type
 * "", no SubagentStart) for a second subagent of task 2, and replay took
 * `/compact`'s own line for a typed prompt (tasks 1, 2, 4 against 1, 2, 3).
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReplayReport } from "../../../src/replay/types.js";
import { PLUGIN_ROOT } from "../../support/paths.js";
import { runClaude, type RunClaudeOptions, type RunClaudeResult } from "../support/claude.js";
import { requestText, routeByPrompt, text, toolUse, type RecordedRequest, type ScriptBlock } from "../support/scripted-model.js";
import { dataDirOf, id, logOf, stateOf } from "./support.js";

const COMPACTION = /Your task is to create a detailed summary of the conversation so far/;
const isCompaction = (req: RecordedRequest) => COMPACTION.test(requestText(req));
const SUMMARY = "<summary>1. Primary Request: check the files.</summary>";

/** Subagent turns: the compaction request gets its summary, each SUBTASK agent its one answer. */
async function subagentTurn(req: RecordedRequest, index: number): Promise<ScriptBlock[]> {
  if (isCompaction(req)) return [text(SUMMARY)];
  return routeByPrompt([["SUBTASK", [[text("SUB-DONE")]]]])(req, index);
}

function cli(run: RunClaudeResult, args: string[]): string {
  const out = spawnSync(process.execPath, [join(PLUGIN_ROOT, "dist", "cli.js"), ...args], {
    encoding: "utf8",
    env: { ...process.env, HOME: run.home, CLAUDE_PLUGIN_DATA: dataDirOf(run) },
  });
  expect(out.stderr).toBe("");
  return out.stdout;
}

describe("a session with subagents, a background job's notification and /compact, replayed", () => {
  const ids = { echo: id("rc_echo"), agent1: id("rc_agent1"), bg: id("rc_bg"), agent3: id("rc_agent3") };
  const agent = (callId: string) =>
    toolUse(
      "Agent",
      { subagent_type: "general-purpose", description: "Check", prompt: "SUBTASK: check", run_in_background: false },
      callId,
    );
  let runs: RunClaudeResult[] = [];
  let last: RunClaudeResult;

  beforeAll(async () => {
    const base: Omit<RunClaudeOptions, "prompt" | "script"> = {
      pluginDir: PLUGIN_ROOT,
      allowedTools: ["Bash", "Agent"],
      whenExhausted: "error",
      classify: (req) => (isCompaction(req) ? "subagent" : undefined),
      subagentScript: subagentTurn,
      timeoutMs: 60_000,
    };
    const first = await runClaude({
      ...base,
      prompt: "first task",
      script: [[toolUse("Bash", { command: "echo one", description: "one" }, ids.echo)], [agent(ids.agent1)], [text("Done 1.")]],
    });
    runs = [first];
    const resumed = (prompt: string, script: RunClaudeOptions["script"]) =>
      runClaude({ ...base, prompt, script, home: first.home, cwd: first.cwd, extraArgs: ["--resume", first.sessionId!] });
    runs.push(
      await resumed("second task", [
        [toolUse("Bash", { command: "sleep 1; echo two", description: "two", run_in_background: true }, ids.bg)],
        [text("Started.")],
        [text("The job ended.")],
      ]),
    );
    runs.push(await resumed("/compact", []));
    runs.push(await resumed("third task", [[agent(ids.agent3)], [text("Done 3.")]]));
    last = runs.at(-1)!;
  }, 240_000);
  afterAll(() => runs[0]?.cleanup());

  it("the session ran as scripted: the compaction was requested and answered, the job's end came back as a turn", () => {
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    expect(runs[2]!.requests.filter(isCompaction)).toHaveLength(1);
    expect(runs[1]!.model.mainRequests().some((req) => requestText(req).includes("<task-notification>"))).toBe(true);
    expect(last.transcript().some((line) => line.isCompactSummary === true)).toBe(true);
  });

  it("the hooks count three tasks and one subagent in task 1 and one in task 3, none for the compaction", () => {
    const main = logOf(last).filter((r) => r.event === "PreToolUse" && !r.agentId);
    expect(main.map((r) => [r.toolUseId, r.task])).toEqual([
      [ids.echo, 1],
      [ids.agent1, 1],
      [ids.bg, 2],
      [ids.agent3, 3],
    ]);
    const agents = Object.values(stateOf(last).agents as Record<string, { rootTask: number; agentType?: string }>);
    expect(agents.map((a) => [a.rootTask, a.agentType])).toEqual([
      [1, "general-purpose"],
      [3, "general-purpose"],
    ]);
    const report = JSON.parse(cli(last, ["report", "--json", last.sessionId!])) as { scopes: Array<{ key: string }> };
    expect(report.scopes.filter((s) => s.key !== "main")).toHaveLength(2);
  });

  it("replay --json finds the same tasks and the same subagents per task", () => {
    const replay = JSON.parse(cli(last, ["replay", "--json", last.transcriptPath!])) as ReplayReport;
    const scopes = replay.files.flatMap((file) => file.scopes);
    const main = scopes.find((s) => s.scope === "main")!;
    expect(main.decided.map((d) => [d.toolUseId, d.task])).toEqual(
      logOf(last)
        .filter((r) => r.event === "PreToolUse" && !r.agentId)
        .map((r) => [r.toolUseId, r.task]),
    );
    const live = Object.entries(stateOf(last).agents as Record<string, { rootTask: number }>).map(([agentId, a]) => [
      `agent:${agentId}`,
      a.rootTask,
    ]);
    const replayed = scopes.filter((s) => s.scope !== "main").map((s) => [s.id, s.rootTask]);
    expect(replayed.sort()).toEqual(live.sort());
  });

  it("the history of the session's folder: three tasks, their agents as the hooks counted them", () => {
    const history = JSON.parse(cli(last, ["replay", "--json", dirname(last.transcriptPath!)])) as {
      tasks: Array<{ task: number; agents: number }>;
    };
    expect(history.tasks.map((t) => [t.task, t.agents])).toEqual([
      [1, 1],
      [2, 0],
      [3, 1],
    ]);
  });
});
