// When a background job ends, as Claude Code records it (SPEC §7). Pure: no I/O.
//
// A background Bash or Agent counts as in between, for every later exact
// repeat, until its end is recorded: its `<task-notification>` with a status,
// a BashOutput or TaskOutput result that shows it finished, or a KillShell or
// TaskStop of it. After that it is a call that ran in between up to its end,
// no more.
import type { RanCall } from "./redundancy.js";
import { JOB_STOP_NAMES } from "./tools.js";

/** Which job: the call that launched it (tool_use id), or the id Claude Code gave it (shell id, agent id). */
export interface JobRef {
  toolUseId?: string;
  jobId?: string;
}

/** Statuses that say a job is over; "running" and "pending" (or anything unknown) do not. */
export const FINISHED_STATUSES = ["completed", "failed", "killed", "stopped", "cancelled", "canceled", "error", "interrupted"] as const;

/** The tool name of the history entry that stands for a job's end: it changed things up to there. */
export const JOB_END_TOOL = "(background job ended)";

const isFinished = (status: string | undefined) =>
  status !== undefined && (FINISHED_STATUSES as readonly string[]).includes(status.trim().toLowerCase());

/** The first `<tag>…</tag>` of `text`: Claude Code writes its own fields before any text the model chose (a description, output). */
function firstTag(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  return end < 0 ? undefined : text.slice(start + open.length, end).trim();
}

function jobRef(toolUseId: string | undefined, jobId: string | undefined): JobRef | undefined {
  if (!toolUseId && !jobId) return undefined;
  return { ...(toolUseId ? { toolUseId } : {}), ...(jobId ? { jobId } : {}) };
}

/**
 * The job a `<task-notification>` says has ended (2.1.328: `<task-id>`,
 * `<tool-use-id>`, `<status>completed</status>`, then the summary). Only the
 * text of a line whose fields mark it a notification may be given here.
 */
export function notificationEnd(text: string): JobRef | undefined {
  const start = text.indexOf("<task-notification>");
  if (start < 0) return undefined;
  const body = text.slice(start);
  if (!isFinished(firstTag(body, "status"))) return undefined;
  return jobRef(firstTag(body, "tool-use-id"), firstTag(body, "task-id"));
}

const fieldsOf = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
const stringAt = (fields: Record<string, unknown>, keys: readonly string[]) =>
  keys.map((k) => fields[k]).find((v): v is string => typeof v === "string" && v !== "");

const JOB_ID_KEYS = ["bash_id", "shell_id", "task_id", "id"] as const;

/** A result's status: a `status` field of an object (or of its `task`), or the first `<status>` of a text. */
function statusOf(result: unknown): string | undefined {
  if (typeof result === "string") return firstTag(result, "status");
  const fields = fieldsOf(result);
  if (typeof fields.status === "string") return fields.status;
  const task = fieldsOf(fields.task);
  return typeof task.status === "string" ? task.status : undefined;
}

/** A BashOutput or TaskOutput result that shows its job finished. */
export function pollEnd(tool: string, input: unknown, result: unknown): JobRef | undefined {
  if (tool !== "BashOutput" && tool !== "TaskOutput") return undefined;
  if (!isFinished(statusOf(result))) return undefined;
  return jobRef(undefined, stringAt(fieldsOf(input), JOB_ID_KEYS));
}

/** A KillShell or TaskStop that ran (its result was no error) ends the job it names. */
export function stopEnd(tool: string, input: unknown): JobRef | undefined {
  if (!isJobStop(tool)) return undefined;
  return jobRef(undefined, stringAt(fieldsOf(input), JOB_ID_KEYS));
}

/** Any end a finished call shows: a poll that saw its job finish, or a stop. */
export function callEnd(tool: string, input: unknown, result: unknown): JobRef | undefined {
  return pollEnd(tool, input, result) ?? stopEnd(tool, input);
}

const SHELL_LAUNCHED = "Command running in background with ID: ";
const AGENT_ID = "agentId: ";

/**
 * The job id in a result's text. Looked for as plain text first: results are
 * often long (a file read), and a regular expression with a word boundary
 * scans them several times slower (replay reads every result, issue 23).
 */
function launchedIdIn(text: string): string | undefined {
  const shell = text.includes(SHELL_LAUNCHED) ? /Command running in background with ID: ([A-Za-z0-9_-]+)/.exec(text)?.[1] : undefined;
  return shell ?? (text.includes(AGENT_ID) ? /\bagentId: ([A-Za-z0-9_-]+)/.exec(text)?.[1] : undefined);
}

/**
 * The id Claude Code gave a job a call launched: `backgroundTaskId` (Bash)
 * or `agentId` of an async Agent in PostToolUse's tool_response, or the same
 * ids in the result text the model got.
 */
export function launchedJobId(result: unknown): string | undefined {
  if (typeof result === "string") return launchedIdIn(result);
  const fields = fieldsOf(result);
  if (typeof fields.backgroundTaskId === "string") return fields.backgroundTaskId;
  if (fields.isAsync === true && typeof fields.agentId === "string") return fields.agentId;
  return undefined;
}

function matches(call: RanCall, end: JobRef): boolean {
  if (!(call.effect.kind === "exec" && call.effect.background === true)) return false;
  return (end.toolUseId !== undefined && call.toolUseId === end.toolUseId) || (end.jobId !== undefined && call.jobId === end.jobId);
}

/**
 * The history after job `end` ended at position `at`: the call that launched
 * it no longer runs in the background, and an entry for its end stands where
 * the end was recorded (what it changed up to there is in between for any
 * repeat across it). A job not in the history (aged out, another scope's, or
 * ended already) changes nothing.
 */
export function endJob(history: readonly RanCall[], end: JobRef, at: number): RanCall[] {
  const index = history.findIndex((call) => matches(call, end));
  if (index < 0) return [...history];
  const launched = history[index]!;
  const ended: RanCall = { ...launched, effect: { kind: "exec" } };
  const marker: RanCall = {
    tool: JOB_END_TOOL,
    digest: "",
    effect: { kind: "exec" },
    at,
    ...(launched.toolUseId ? { toolUseId: launched.toolUseId } : {}),
  };
  return [...history.slice(0, index), ended, ...history.slice(index + 1), marker];
}

const STOP_TOOLS: readonly string[] = JOB_STOP_NAMES;
const POLL_TOOLS = ["BashOutput", "TaskOutput"];

/** A call that stops the job it names: its result, when no error, ends that job. */
export function isJobStop(tool: string): boolean {
  return STOP_TOOLS.includes(tool);
}

/** The job a stop or poll names, from its input; undefined for any other tool. */
export function jobOfCall(tool: string, input: unknown): string | undefined {
  if (!STOP_TOOLS.includes(tool) && !POLL_TOOLS.includes(tool)) return undefined;
  return stringAt(fieldsOf(input), JOB_ID_KEYS);
}

/** Whether a result (object or the text the model got) shows its job finished. */
export function resultShowsFinished(result: unknown): boolean {
  return isFinished(statusOf(result));
}
