// A session's records as a readable table (`utility log`). Pure.
import type { LogRecord } from "../log/record.js";
import { terminalSafe as safe } from "./text.js";

/** The columns of `utility log`; "hook ms" is the time the plugin's hook took to decide (the record's latencyMs), not the tool's. */
export const LOG_COLUMNS = [
  "#",
  "time",
  "scope",
  "task",
  "step",
  "event",
  "tool",
  "decision",
  "rule",
  "action",
  "U",
  "repeat",
  "outcome",
  "hook ms",
] as const;

/** A call that took a step and whose outcome no hook has learned (yet, or ever: SPEC §8). */
export const NO_OUTCOME = "never arrived";

function time(iso: string): string {
  const match = /T(\d\d:\d\d:\d\d)/.exec(iso);
  return match ? match[1]! : iso;
}

export function scopeCell(record: Pick<LogRecord, "agentId" | "scope">): string {
  return record.agentId !== undefined ? `agent ${record.agentId}` : record.scope;
}

function bytes(n: number): string {
  return n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`;
}

/** The outcome of a step, from its Outcome record (joined by tool_use_id); empty for what takes no step. */
export function outcomeCell(record: LogRecord, outcomes: ReadonlyMap<string, LogRecord>): string {
  if (record.event !== "PreToolUse" || (record.decision !== "passed" && record.decision !== "observed")) return "";
  const found = record.toolUseId !== undefined ? outcomes.get(record.toolUseId)?.outcome : undefined;
  if (!found) return NO_OUTCOME;
  return [found.result, bytes(found.resultBytes), ...(found.durationMs !== undefined ? [`${found.durationMs} ms`] : [])].join(" ");
}

/** Outcome records by the tool_use_id they answer (the first one wins: an outcome is learned once). */
export function outcomesById(records: readonly LogRecord[]): Map<string, LogRecord> {
  const byId = new Map<string, LogRecord>();
  for (const r of records) if (r.event === "Outcome" && r.toolUseId !== undefined && !byId.has(r.toolUseId)) byId.set(r.toolUseId, r);
  return byId;
}

/** One row of cells per record, in the order of LOG_COLUMNS. */
export function logRow(record: LogRecord, index: number, outcomes: ReadonlyMap<string, LogRecord> = new Map()): string[] {
  return [
    String(index + 1),
    time(record.time),
    scopeCell(record),
    // Task numbers count typed prompts from 1; a record before the first prompt's line has none yet.
    record.task > 0 ? String(record.task) : "–",
    record.gated ? `${record.step}/${record.maxSteps}` : String(record.step),
    record.event,
    record.tool ?? "",
    record.decision,
    record.rule ?? "",
    record.report?.action ?? "",
    record.report ? record.report.utility.toFixed(2) : "",
    record.repeat ? `of ${record.repeat.ofStep}` : "",
    outcomeCell(record, outcomes),
    String(record.latencyMs),
  ].map(safe);
}

/** The records as an aligned text table, with the reasons of refusals and blocks under their rows; outcomes join their steps' rows. */
export function renderLogTable(all: readonly LogRecord[]): string {
  const outcomes = outcomesById(all);
  const records = all.filter((r) => r.event !== "Outcome");
  if (records.length === 0) return "no records\n";
  const rows = [LOG_COLUMNS.map(String), ...records.map((r, i) => logRow(r, i, outcomes))];
  const widths = LOG_COLUMNS.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const numeric = new Set([0, 3, 10, 13]);
  const out: string[] = [];
  rows.forEach((row, i) => {
    out.push(
      row
        .map((cell, col) => (numeric.has(col) ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!)))
        .join("  ")
        .trimEnd(),
    );
    const record = i > 0 ? records[i - 1] : undefined;
    if (record?.reason && (record.decision === "refused" || record.decision === "blocked")) {
      const reason = safe(record.reason);
      out.push(`${" ".repeat(widths[0]! + 2)}↳ ${reason.length > 160 ? `${reason.slice(0, 159)}…` : reason}`);
    }
  });
  return `${out.join("\n")}\n`;
}
