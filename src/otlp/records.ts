// The OTLP log records a step row and a task row become (SPEC §17): one
// `utility.step` per step-log record, and beside it a `utility.refusal`, a
// `utility.budget_stop`, a `utility.identical_outcome` or a
// `utility.stuck_loop` when the record is one; one `utility.task_spend` per
// task at its end. Each carries the attributes Claude Code's own OpenTelemetry
// events carry (`session.id`, `prompt.id`, `tool_use_id`, `model`) under the
// same names, so a team joins them. Pure: rows in, records out.
import type { StepRow, TaskRow } from "../export/rows.js";
import type { OtlpRecord } from "./types.js";

/** Refusals that stop a task or a subagent for what it spent (docs/team.md, budgets_hit). */
export const BUDGET_RULES: ReadonlySet<string> = new Set(["budget_spent", "agents_exhausted", "loop_ended"]);

export const EVENT_NAMES = {
  step: "utility.step",
  refusal: "utility.refusal",
  budgetStop: "utility.budget_stop",
  identical: "utility.identical_outcome",
  stuck: "utility.stuck_loop",
  taskSpend: "utility.task_spend",
} as const;

type Attributes = OtlpRecord["attributes"];

/** Leaves out empty strings: an attribute a hook did not know is absent, not "". */
function present(values: Record<string, string | number | boolean | null>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(values)) if (value !== "" && value !== null) out[key] = value;
  return out;
}

/** What joins a record to Claude Code's own events and to the other records. */
function joinAttributes(row: { session_id: string; prompt_id: string; project: string; developer: string; scope: string; task: number }) {
  return {
    "session.id": row.session_id,
    "prompt.id": row.prompt_id,
    project: row.project,
    developer: row.developer,
    "utility.scope": row.scope,
    "utility.task": row.task,
  };
}

function stepAttributes(row: StepRow): Attributes {
  return present({
    ...joinAttributes(row),
    tool_use_id: row.tool_use_id,
    tool_name: row.tool,
    model: row.model,
    message_id: row.message_id,
    "utility.record_id": row.id,
    "utility.hook_event": row.event,
    "utility.agent_type": row.agent_type,
    "utility.step": row.step,
    "utility.decision": row.decision,
    "utility.rule": row.rule,
    "utility.reason": row.reason,
    "utility.gated": row.gated === 1,
    "utility.action": row.action,
    "utility.utility": row.utility,
    "utility.repeat": row.repeat === 1,
    "utility.outcome": row.outcome,
    "utility.latency_ms": row.latency_ms,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    cache_creation_tokens: row.cache_creation_tokens,
    cache_read_tokens: row.cache_read_tokens,
  });
}

function record(eventName: string, timeMs: number, body: string, attributes: Attributes): OtlpRecord {
  return { eventName, timeMs, body, attributes: { "event.name": eventName, ...attributes } };
}

function what(row: StepRow): string {
  return row.tool ? `${row.event} ${row.tool}` : row.event;
}

/** The records of one step row: the step itself, then what it was besides. */
export function stepRecords(row: StepRow): OtlpRecord[] {
  const attributes = stepAttributes(row);
  const out = [record(EVENT_NAMES.step, row.time_ms, `${what(row)}: ${row.decision}`, attributes)];
  const refused = row.event === "PreToolUse" && row.decision === "refused";
  if (refused)
    out.push(record(EVENT_NAMES.refusal, row.time_ms, `${what(row)} refused (${row.rule || "unknown"}): ${row.reason}`, attributes));
  if (refused && BUDGET_RULES.has(row.rule))
    out.push(
      record(EVENT_NAMES.budgetStop, row.time_ms, `task ${row.task} of ${row.scope} stopped (${row.rule}): ${row.reason}`, attributes),
    );
  if (row.identical === 1)
    out.push(record(EVENT_NAMES.identical, row.time_ms, `${what(row)}: outcome identical to an earlier one`, attributes));
  if (row.stuck === 1) out.push(record(EVENT_NAMES.stuck, row.time_ms, `${what(row)}: stuck loop`, attributes));
  return out;
}

/** A task's spend at its end. */
export function taskRecord(row: TaskRow): OtlpRecord {
  const attributes = present({
    ...joinAttributes(row),
    "utility.task_id": row.id,
    "utility.started_ms": row.started * 1000,
    "utility.steps": row.steps,
    "utility.refusals": row.refusals,
    tokens: row.tokens,
    cost_usd: row.cost_usd,
    model: row.models.join(","),
  });
  const cost = `$${row.cost_usd.toFixed(4)}`;
  return record(
    EVENT_NAMES.taskSpend,
    row.ended * 1000,
    `task ${row.task} of ${row.scope}: ${row.tokens} tokens, ${cost}, ${row.steps} steps, ${row.refusals} refused`,
    attributes,
  );
}
