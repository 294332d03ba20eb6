// When a background job ends, as Claude Code records it (SPEC §7): the
// notification, a poll that shows it finished, or a stop of it. Then the
// history after that end: the job no longer runs in between later repeats.
import { describe, expect, it } from "vitest";
import {
  callEnd,
  endJob,
  isJobStop,
  JOB_END_TOOL,
  jobOfCall,
  launchedJobId,
  notificationEnd,
  pollEnd,
  resultShowsFinished,
  stopEnd,
} from "../../src/engine/background.js";
import { findExactRepeat, type RanCall } from "../../src/engine/redundancy.js";

/** A notification as Claude Code 2.1.328 writes it (docs/claude-code-facts.md). */
function notification(fields: { taskId?: string; toolUseId?: string; status?: string; summary?: string }): string {
  return [
    "<task-notification>",
    fields.taskId === undefined ? "" : `<task-id>${fields.taskId}</task-id>`,
    fields.toolUseId === undefined ? "" : `<tool-use-id>${fields.toolUseId}</tool-use-id>`,
    `<output-file>/tmp/tasks/${fields.taskId ?? "x"}.output</output-file>`,
    fields.status === undefined ? "" : `<status>${fields.status}</status>`,
    `<summary>${fields.summary ?? 'Background command "bg" completed (exit code 0)'}</summary>`,
    "</task-notification>",
  ]
    .filter((line) => line !== "")
    .join("\n");
}

// The statuses SPEC §7 and Claude Code use for a job that is over, spelled out here, not taken from the module.
const OVER = ["completed", "failed", "killed", "stopped", "cancelled", "canceled", "error", "interrupted"];
const NOT_OVER = ["running", "pending", "async_launched", "", "complete", "done?"];

describe("a <task-notification> ends the job it names (SPEC §7)", () => {
  it("a completed notification names the launching call and Claude Code's id of the job", () => {
    expect(notificationEnd(notification({ taskId: "bj15830mw", toolUseId: "toolu_01", status: "completed" }))).toStrictEqual({
      toolUseId: "toolu_01",
      jobId: "bj15830mw",
    });
  });

  it.each(OVER)("status %s ends the job", (status) => {
    expect(notificationEnd(notification({ taskId: "j1", status }))).toStrictEqual({ jobId: "j1" });
  });

  it.each(NOT_OVER)("status %j does not end it", (status) => {
    expect(notificationEnd(notification({ taskId: "j1", toolUseId: "toolu_01", status }))).toBeUndefined();
  });

  it("a status is read whatever its case and surrounding spaces", () => {
    expect(notificationEnd(notification({ taskId: "j1", status: "  Completed \n" }))).toStrictEqual({ jobId: "j1" });
    expect(notificationEnd(notification({ taskId: "j1", status: "FAILED" }))).toStrictEqual({ jobId: "j1" });
  });

  it("ids are read without the spaces and line breaks around them", () => {
    expect(
      notificationEnd(
        "<task-notification>\n<task-id>\n  j1\n</task-id>\n<tool-use-id> toolu_01 </tool-use-id>\n<status>completed</status>",
      ),
    ).toStrictEqual({
      toolUseId: "toolu_01",
      jobId: "j1",
    });
  });

  it("a notification without a status ends nothing", () => {
    expect(notificationEnd(notification({ taskId: "j1", toolUseId: "toolu_01" }))).toBeUndefined();
  });

  it("a status tag that is never closed is no status", () => {
    expect(notificationEnd("<task-notification>\n<task-id>j1</task-id>\n<status>completed")).toBeUndefined();
  });

  it("either id alone is enough to name the job; neither names none", () => {
    expect(notificationEnd(notification({ toolUseId: "toolu_07", status: "completed" }))).toStrictEqual({ toolUseId: "toolu_07" });
    expect(notificationEnd(notification({ taskId: "a9", status: "completed" }))).toStrictEqual({ jobId: "a9" });
    expect(notificationEnd(notification({ status: "completed" }))).toBeUndefined();
    expect(notificationEnd(notification({ taskId: "", toolUseId: "", status: "completed" }))).toBeUndefined();
  });

  it("text without a notification ends nothing, even with the same tags", () => {
    expect(notificationEnd("<task-id>j1</task-id><tool-use-id>toolu_01</tool-use-id><status>completed</status>")).toBeUndefined();
  });

  it("Claude Code's own fields come first: tags the job's summary quotes later do not count", () => {
    const text = notification({
      taskId: "j1",
      toolUseId: "toolu_01",
      status: "running",
      summary: "printed <status>completed</status> <task-id>other</task-id>",
    });
    expect(notificationEnd(text)).toBeUndefined();
    const ended = notification({ taskId: "j1", toolUseId: "toolu_01", status: "completed", summary: "<task-id>other</task-id>" });
    expect(notificationEnd(ended)).toStrictEqual({ toolUseId: "toolu_01", jobId: "j1" });
  });

  it("only the notification's own fields count, not tags written before it", () => {
    const text = `<status>completed</status><task-id>before</task-id>\n${notification({ taskId: "j1", status: "running" })}`;
    expect(notificationEnd(text)).toBeUndefined();
    const ended = `<task-id>before</task-id>\n${notification({ taskId: "j1", status: "completed" })}`;
    expect(notificationEnd(ended)).toStrictEqual({ jobId: "j1" });
  });

  it("a closing tag before the opening one does not close it", () => {
    const text = `<task-notification></task-id></status><task-id>j1</task-id><status>completed</status></task-notification>`;
    expect(notificationEnd(text)).toStrictEqual({ jobId: "j1" });
  });
});

describe("a result that shows its job finished (SPEC §7: BashOutput, TaskOutput)", () => {
  it.each(OVER)("an object result with status %s shows it finished", (status) => {
    expect(resultShowsFinished({ status })).toBe(true);
  });

  it.each(NOT_OVER)("an object result with status %j does not", (status) => {
    expect(resultShowsFinished({ status })).toBe(false);
  });

  it("an object status is read whatever its case and surrounding spaces", () => {
    expect(resultShowsFinished({ status: " Completed " })).toBe(true);
    expect(resultShowsFinished({ status: "KILLED" })).toBe(true);
  });

  it("a TaskOutput result's status is its task's when it has none of its own", () => {
    expect(resultShowsFinished({ retrieval_status: "success", task: { task_id: "a1", status: "completed" } })).toBe(true);
    expect(resultShowsFinished({ task: { status: "running" } })).toBe(false);
  });

  it("a result's own status wins over its task's", () => {
    expect(resultShowsFinished({ status: "running", task: { status: "completed" } })).toBe(false);
    expect(resultShowsFinished({ status: "completed", task: { status: "running" } })).toBe(true);
  });

  it("a status that is not a string is no status", () => {
    expect(resultShowsFinished({ status: 0, task: { status: "completed" } })).toBe(true);
    expect(resultShowsFinished({ status: true })).toBe(false);
    expect(resultShowsFinished({ task: { status: 1 } })).toBe(false);
    expect(resultShowsFinished({ task: "completed" })).toBe(false);
  });

  it("a text result shows it by its first <status> tag, wherever it starts", () => {
    expect(resultShowsFinished("<status>completed</status>")).toBe(true);
    expect(resultShowsFinished("<retrieval_status>success</retrieval_status>\n<status>failed</status>\n<output>x</output>")).toBe(true);
    expect(resultShowsFinished("<status>running</status>\n<output>the job printed <status>completed</status></output>")).toBe(false);
  });

  it("a text without a whole status tag shows nothing", () => {
    expect(resultShowsFinished("completed")).toBe(false);
    expect(resultShowsFinished("completed</status>")).toBe(false);
    expect(resultShowsFinished("<status>completed")).toBe(false);
    expect(resultShowsFinished("</status>completed<status>")).toBe(false);
    // Text around a lone tag is no status either: only what stands between the two tags is.
    expect(resultShowsFinished("status: completed</status>")).toBe(false);
    expect(resultShowsFinished("<status>completed\n")).toBe(false);
  });

  it("a result of no usable shape shows nothing", () => {
    for (const result of [null, undefined, 42, true, [], {}]) expect(resultShowsFinished(result)).toBe(false);
  });
});

describe("which job a poll or stop names (its input)", () => {
  it.each(["bash_id", "shell_id", "task_id", "id"])("the job's id may be given as %s", (key) => {
    expect(jobOfCall("KillShell", { [key]: "s1" })).toBe("s1");
    expect(pollEnd("TaskOutput", { [key]: "s1" }, { status: "completed" })).toStrictEqual({ jobId: "s1" });
  });

  it("an empty or non-string id is skipped for the next key", () => {
    expect(jobOfCall("TaskStop", { bash_id: "", shell_id: "s2" })).toBe("s2");
    expect(jobOfCall("TaskStop", { bash_id: 7, task_id: "t3" })).toBe("t3");
    expect(jobOfCall("TaskStop", { bash_id: "b1", task_id: "t3" })).toBe("b1");
  });

  it("an input that names no job gives no job", () => {
    for (const input of [{}, { id: "" }, { shell_id: 5 }, null, undefined, "s1"]) {
      expect(jobOfCall("KillShell", input)).toBeUndefined();
      expect(stopEnd("KillShell", input)).toBeUndefined();
      expect(pollEnd("BashOutput", input, { status: "completed" })).toBeUndefined();
    }
  });

  it.each(["KillShell", "TaskStop", "BashOutput", "TaskOutput"])("%s names the job of its input", (tool) => {
    expect(jobOfCall(tool, { shell_id: "s1" })).toBe("s1");
  });

  it.each(["Bash", "Agent", "Read", "TodoWrite", "killshell"])("%s names no job, whatever its input", (tool) => {
    expect(jobOfCall(tool, { shell_id: "s1", id: "s1" })).toBeUndefined();
  });
});

describe("a stop ends the job it names; a poll, only when it saw the job finish (SPEC §7)", () => {
  it.each(["KillShell", "TaskStop"])("%s is a stop and ends the job it names, whatever its result", (tool) => {
    expect(isJobStop(tool)).toBe(true);
    expect(stopEnd(tool, { shell_id: "s1" })).toStrictEqual({ jobId: "s1" });
    expect(callEnd(tool, { task_id: "s1" }, "Successfully stopped task s1")).toStrictEqual({ jobId: "s1" });
  });

  it.each(["BashOutput", "TaskOutput", "Bash", "Agent", "taskstop"])("%s is no stop", (tool) => {
    expect(isJobStop(tool)).toBe(false);
    expect(stopEnd(tool, { shell_id: "s1" })).toBeUndefined();
  });

  it.each(["BashOutput", "TaskOutput"])("%s ends its job when its result shows it finished", (tool) => {
    expect(pollEnd(tool, { bash_id: "s1" }, { status: "completed" })).toStrictEqual({ jobId: "s1" });
    expect(pollEnd(tool, { bash_id: "s1" }, "<status>killed</status>")).toStrictEqual({ jobId: "s1" });
    expect(callEnd(tool, { bash_id: "s1" }, { status: "failed" })).toStrictEqual({ jobId: "s1" });
  });

  it.each(["BashOutput", "TaskOutput"])("%s of a job still running ends nothing", (tool) => {
    expect(pollEnd(tool, { bash_id: "s1" }, { status: "running" })).toBeUndefined();
    expect(callEnd(tool, { bash_id: "s1" }, "<status>running</status>")).toBeUndefined();
  });

  it.each(["Bash", "Read", "KillShell"])("%s is no poll, even with a finished status in its result", (tool) => {
    expect(pollEnd(tool, { bash_id: "s1" }, { status: "completed" })).toBeUndefined();
  });

  it("any other call ends nothing", () => {
    expect(callEnd("Bash", { command: "kill %1", shell_id: "s1" }, { status: "completed" })).toBeUndefined();
  });
});

describe("the id Claude Code gives a job a call launched", () => {
  it("a background Bash's tool_response carries backgroundTaskId", () => {
    expect(launchedJobId({ stdout: "", backgroundTaskId: "bj15830mw" })).toBe("bj15830mw");
  });

  it("an async Agent's tool_response carries agentId", () => {
    expect(launchedJobId({ isAsync: true, status: "async_launched", agentId: "ae5fab07137205403", outputFile: "/t/a.output" })).toBe(
      "ae5fab07137205403",
    );
  });

  it("an Agent that ran in the foreground launched no job, though its result has an agentId", () => {
    expect(launchedJobId({ status: "completed", agentId: "ae5fab07137205403", content: [] })).toBeUndefined();
    expect(launchedJobId({ isAsync: false, agentId: "ae5fab07137205403" })).toBeUndefined();
    expect(launchedJobId({ isAsync: "true", agentId: "ae5fab07137205403" })).toBeUndefined();
  });

  it("ids that are not strings are no ids", () => {
    expect(launchedJobId({ backgroundTaskId: 12 })).toBeUndefined();
    expect(launchedJobId({ backgroundTaskId: 12, isAsync: true, agentId: "a1" })).toBe("a1");
    expect(launchedJobId({ isAsync: true, agentId: 3 })).toBeUndefined();
  });

  it("the result text of a background Bash gives its id, up to the sentence's end", () => {
    expect(launchedJobId("Command running in background with ID: bj15830mw. Output is being written to: /tmp/x.output")).toBe("bj15830mw");
    expect(launchedJobId("Command running in background with ID: b_J-9z")).toBe("b_J-9z");
  });

  it("the result text of an async Agent gives its agentId", () => {
    expect(launchedJobId("Async agent launched successfully.\nagentId: ae5fab07137205403 (use SendMessage to talk to it)")).toBe(
      "ae5fab07137205403",
    );
  });

  it("a word that only ends in agentId is not the field", () => {
    expect(launchedJobId("subagentId: ae5fab07137205403")).toBeUndefined();
  });

  it("a text or value without a launch gives no id", () => {
    for (const result of ["hello", "agentId:", "Command running in background with ID: ", "", null, undefined, 7, {}, []]) {
      expect(launchedJobId(result)).toBeUndefined();
    }
  });
});

describe("the history after a job ended (SPEC §7)", () => {
  const bg = (at: number, ids: { toolUseId?: string; jobId?: string }): RanCall => ({
    tool: "Bash",
    digest: `bg${at}`,
    effect: { kind: "exec", background: true },
    at,
    ...ids,
  });
  const read = (at: number): RanCall => ({
    tool: "Read",
    digest: "read-a",
    effect: { kind: "read", paths: ["/a"] },
    at,
    toolUseId: `r${at}`,
  });
  const readAgain = { tool: "Read", digest: "read-a", effect: { kind: "read" as const, paths: ["/a"] } };

  it("the job no longer runs in the background, and its end stands where it was recorded", () => {
    const history = [read(1), bg(2, { toolUseId: "t2", jobId: "j2" }), read(3)];
    expect(endJob(history, { jobId: "j2" }, 9)).toStrictEqual([
      read(1),
      { ...bg(2, { toolUseId: "t2", jobId: "j2" }), effect: { kind: "exec" } },
      read(3),
      { tool: JOB_END_TOOL, digest: "", effect: { kind: "exec" }, at: 9, toolUseId: "t2" },
    ]);
  });

  it("the end's entry is named for what it stands for, not for a tool", () => {
    expect(JOB_END_TOOL).toContain("background job");
  });

  it("before its end a job blocks every repeat; after it, a repeat made after the end is found", () => {
    const history = [read(1), bg(2, { toolUseId: "t2" })];
    expect(findExactRepeat([...history, read(3)], readAgain)).toBeUndefined();
    const ended = endJob(history, { toolUseId: "t2" }, 3);
    expect(findExactRepeat([...ended, read(4)], readAgain)?.previous).toStrictEqual(read(4));
  });

  it("a job still counts as in between up to its end: a read before the end is no original for one after", () => {
    const ended = endJob([read(1), bg(2, { toolUseId: "t2" })], { toolUseId: "t2" }, 3);
    expect(findExactRepeat(ended, readAgain)).toBeUndefined();
  });

  it("a job is found by the call that launched it, or by its id", () => {
    const history = [bg(1, { toolUseId: "t1", jobId: "j1" })];
    expect(endJob(history, { toolUseId: "t1" }, 5)[0]!.effect).toStrictEqual({ kind: "exec" });
    expect(endJob(history, { jobId: "j1" }, 5)[0]!.effect).toStrictEqual({ kind: "exec" });
    expect(endJob(history, { toolUseId: "other", jobId: "j1" }, 5)[0]!.effect).toStrictEqual({ kind: "exec" });
  });

  it("an id the end does not give matches no call that lacks it", () => {
    // An earlier job whose tool_use id is unknown (a replayed history) is not the one an end by job id names ...
    const noToolUseId = [bg(1, { jobId: "j1" }), bg(2, { toolUseId: "t2", jobId: "j2" })];
    expect(endJob(noToolUseId, { jobId: "j2" }, 5).map((call) => call.effect)).toStrictEqual([
      { kind: "exec", background: true },
      { kind: "exec" },
      { kind: "exec" },
    ]);
    // ... and an earlier job whose launch id was never seen is not the one an end by tool_use id names.
    const noJobId = [bg(1, { toolUseId: "t1" }), bg(2, { toolUseId: "t2" })];
    expect(endJob(noJobId, { toolUseId: "t2" }, 5).map((call) => call.effect)).toStrictEqual([
      { kind: "exec", background: true },
      { kind: "exec" },
      { kind: "exec" },
    ]);
  });

  it("the end's entry carries the launching call's tool_use id only when it had one", () => {
    const ended = endJob([bg(1, { jobId: "j1" })], { jobId: "j1" }, 4);
    expect(ended[1]).toStrictEqual({ tool: JOB_END_TOOL, digest: "", effect: { kind: "exec" }, at: 4 });
  });

  it("only a call that runs in the background can be ended", () => {
    const foreground: RanCall = { tool: "Bash", digest: "fg", effect: { kind: "exec" }, at: 1, toolUseId: "t1", jobId: "j1" };
    const history = [foreground, read(2)];
    expect(endJob(history, { toolUseId: "t1", jobId: "j1" }, 3)).toStrictEqual(history);
  });

  it("a job not in the history (aged out, another scope's, ended already) changes nothing", () => {
    const history = [read(1), bg(2, { toolUseId: "t2", jobId: "j2" })];
    expect(endJob(history, { toolUseId: "t9", jobId: "j9" }, 3)).toStrictEqual(history);
    const once = endJob(history, { jobId: "j2" }, 3);
    expect(endJob(once, { jobId: "j2" }, 4)).toStrictEqual(once);
  });

  it("of two jobs, only the one that ended stops blocking", () => {
    const history = [bg(1, { toolUseId: "t1", jobId: "j1" }), bg(2, { toolUseId: "t2", jobId: "j2" })];
    const ended = endJob(history, { toolUseId: "t2" }, 3);
    expect(ended.map((call) => call.effect)).toStrictEqual([{ kind: "exec", background: true }, { kind: "exec" }, { kind: "exec" }]);
    expect(findExactRepeat([...ended, read(4)], readAgain)).toBeUndefined();
  });

  it("the history given is left as it was", () => {
    const history = [bg(1, { toolUseId: "t1" })];
    endJob(history, { toolUseId: "t1" }, 2);
    expect(history).toStrictEqual([bg(1, { toolUseId: "t1" })]);
  });
});
