// The rows `utility export` writes: one per step-log record (utility_steps)
// and one per task's spend (utility_tasks), with the attributes Claude Code's
// own OpenTelemetry events carry (session.id, prompt.id, tool_use_id, the
// model) and who and where (developer, project), so a team joins them (SPEC §17).
// Pure: records in, rows out.
import * as z from "zod/mini";
import { scopeKey, type LogRecord } from "../log/record.js";
import { summarizeSpend, type TaskSpend } from "../summary/spend.js";
import type { PriceTable } from "../engine/prices.js";

export const StepRowSchema = z.object({
  id: z.string(),
  time: z.number(),
  time_ms: z.number(),
  developer: z.string(),
  project: z.string(),
  session_id: z.string(),
  prompt_key: z.string(),
  prompt_id: z.string(),
  scope: z.string(),
  agent_type: z.string(),
  task: z.number(),
  step: z.number(),
  event: z.string(),
  tool: z.string(),
  tool_use_id: z.string(),
  decision: z.string(),
  rule: z.string(),
  reason: z.string(),
  gated: z.number(),
  action: z.string(),
  utility: z.nullable(z.number()),
  model: z.string(),
  message_id: z.string(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_creation_tokens: z.number(),
  cache_read_tokens: z.number(),
  repeat: z.number(),
  stuck: z.number(),
  identical: z.number(),
  outcome: z.string(),
  latency_ms: z.number(),
});
export type StepRow = z.infer<typeof StepRowSchema>;

export const TaskRowSchema = z.object({
  id: z.string(),
  version: z.number(),
  started: z.number(),
  ended: z.number(),
  developer: z.string(),
  project: z.string(),
  session_id: z.string(),
  prompt_id: z.string(),
  scope: z.string(),
  task: z.number(),
  steps: z.number(),
  refusals: z.number(),
  tokens: z.number(),
  cost_usd: z.number(),
  models: z.array(z.string()),
});
export type TaskRow = z.infer<typeof TaskRowSchema>;

/** Who and where a session ran, and what is known of its prompts. */
export interface SessionContext {
  developer: string;
  project: string;
  /** A prompt's key in the log (src/ingest/prompts.ts promptKey) → Claude Code's own prompt id, from the transcript. */
  promptIds: ReadonlyMap<string, string>;
}

/** One log line and the record it holds. */
export interface LoggedLine {
  line: string;
  record: LogRecord;
}

/** Milliseconds since the epoch of an ISO time; 0 when it is not one. */
function epochMs(time: string): number {
  const ms = Date.parse(time);
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * Each record's prompt key: the last UserPromptSubmit's before it, in the
 * log's order, subagents included. Claude Code gives the calls of a turn,
 * its subagents' too, the prompt id of the prompt that started it.
 */
function promptKeysInOrder(records: readonly LogRecord[]): string[] {
  let key = "";
  return records.map((r) => {
    if (r.event === "UserPromptSubmit" && r.agentId === undefined && r.promptId) key = r.promptId;
    return key;
  });
}

/** The call and what the gate decided of it. */
function callFields(r: LogRecord) {
  return {
    tool: r.tool ?? "",
    tool_use_id: r.toolUseId ?? "",
    decision: r.decision,
    rule: r.rule ?? "",
    reason: r.reason ?? "",
    gated: r.gated ? 1 : 0,
  };
}

/** The report's action and U, and what the checks found of the call and its outcome. */
function checkFields(r: LogRecord) {
  const outcome = r.outcome;
  return {
    action: r.report?.action ?? "",
    utility: r.report?.utility ?? null,
    repeat: r.repeat ? 1 : 0,
    stuck: r.stuck ? 1 : 0,
    identical: outcome?.identical ? 1 : 0,
    outcome: outcome?.result ?? "",
  };
}

const NO_TOKENS = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };

/** What the message behind the record spent, when the hook knew it. */
function spendFields(r: LogRecord) {
  const spend = r.spend ?? { tokens: NO_TOKENS };
  return {
    model: spend.model ?? "",
    message_id: spend.messageId ?? "",
    input_tokens: spend.tokens.input,
    output_tokens: spend.tokens.output,
    cache_creation_tokens: spend.tokens.cacheCreation,
    cache_read_tokens: spend.tokens.cacheRead,
  };
}

/** One record's step row, given the prompt key in force where it was written. */
export function stepRow(entry: LoggedLine, ctx: SessionContext, promptKey: string, sha256: (text: string) => string): StepRow {
  const r = entry.record;
  const ms = epochMs(r.time);
  return {
    id: sha256(`${r.session}\n${entry.line}`),
    time: Math.floor(ms / 1000),
    time_ms: ms,
    developer: ctx.developer,
    project: ctx.project,
    session_id: r.session,
    prompt_key: promptKey,
    prompt_id: ctx.promptIds.get(promptKey) ?? "",
    scope: scopeKey(r),
    agent_type: r.agentType ?? "",
    task: r.task,
    step: r.step,
    event: r.event,
    ...callFields(r),
    ...checkFields(r),
    ...spendFields(r),
    latency_ms: r.latencyMs,
  };
}

/** A session's step rows, one per record; ids are digests of the session and the line, so a line exported twice has one id. */
export function stepRows(lines: readonly LoggedLine[], ctx: SessionContext, sha256: (text: string) => string): StepRow[] {
  const keys = promptKeysInOrder(lines.map((l) => l.record));
  return lines.map((entry, i) => stepRow(entry, ctx, keys[i]!, sha256));
}

interface TaskAcc {
  /** The prompt key of the task's first record. */
  promptKey: string;
  started: number;
  ended: number;
  records: number;
  steps: number;
  refusals: number;
}

function taskAccs(records: readonly LogRecord[]): Map<string, TaskAcc> {
  const accs = new Map<string, TaskAcc>();
  const keys = promptKeysInOrder(records);
  for (const [i, r] of records.entries()) {
    const key = `${scopeKey(r)}\n${r.task}`;
    const ms = epochMs(r.time);
    const acc = accs.get(key) ?? { promptKey: keys[i]!, started: ms, ended: ms, records: 0, steps: 0, refusals: 0 };
    acc.started = Math.min(acc.started, ms);
    acc.ended = Math.max(acc.ended, ms);
    acc.records += 1;
    acc.steps = Math.max(acc.steps, r.step);
    if (r.event === "PreToolUse" && r.decision === "refused") acc.refusals += 1;
    accs.set(key, acc);
  }
  return accs;
}

/**
 * A session's tasks with what each spent, as `utility report` counts it
 * (src/summary/spend.ts). `version` is how many records the task had: a task
 * exported again after it grew replaces its row (ReplacingMergeTree).
 */
export function taskRows(records: readonly LogRecord[], ctx: SessionContext, prices: PriceTable): TaskRow[] {
  const session = records.find((r) => r.session)?.session ?? "";
  const spent = new Map<string, TaskSpend>();
  for (const scope of summarizeSpend(records, prices).scopes) for (const t of scope.tasks) spent.set(`${scope.key}\n${t.task}`, t);
  return [...taskAccs(records).entries()].map(([key, acc]) => {
    const [scope = "", taskText = "0"] = key.split("\n");
    const task = Number(taskText);
    const spend = spent.get(key);
    return {
      id: `${session}/${scope}/${task}`,
      version: acc.records,
      started: Math.floor(acc.started / 1000),
      ended: Math.floor(acc.ended / 1000),
      developer: ctx.developer,
      project: ctx.project,
      session_id: session,
      prompt_id: ctx.promptIds.get(acc.promptKey) ?? "",
      scope,
      task,
      steps: acc.steps,
      refusals: acc.refusals,
      tokens: spend?.total ?? 0,
      cost_usd: spend?.costUsd ?? 0,
      models: Object.keys(spend?.byModel ?? {}).sort(),
    };
  });
}
