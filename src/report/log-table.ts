// A session's records as a readable table (`utility log`). Pure.
import type { LogRecord } from "../log/record.js";
import { terminalSafe as safe } from "./text.js";

export const LOG_COLUMNS = ["#", "time", "scope", "task", "step", "event", "tool", "decision", "rule", "action", "U", "repeat", "ms"] as const;

function time(iso: string): string {
  const match = /T(\d\d:\d\d:\d\d)/.exec(iso);
  return match ? match[1]! : iso;
}


export function scopeCell(record: Pick<LogRecord, "agentId" | "scope">): string {
  return record.agentId !== undefined ? `agent ${record.agentId}` : record.scope;
}

/** One row of cells per record, in the order of LOG_COLUMNS. */
export function logRow(record: LogRecord, index: number): string[] {
  return [
    String(index + 1),
    time(record.time),
    scopeCell(record),
    String(record.task),
    `${record.step}/${record.maxSteps}`,
    record.event,
    record.tool ?? "",
    record.decision,
    record.rule ?? "",
    record.report?.action ?? "",
    record.report ? record.report.utility.toFixed(2) : "",
    record.repeat ? `of ${record.repeat.ofStep}` : "",
    String(record.latencyMs),
  ].map(safe);
}

/** The records as an aligned text table, with the reasons of refusals and blocks under their rows. */
export function renderLogTable(records: readonly LogRecord[]): string {
  if (records.length === 0) return "no records\n";
  const rows = [LOG_COLUMNS.map(String), ...records.map(logRow)];
  const widths = LOG_COLUMNS.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const numeric = new Set([0, 3, 10, 12]);
  const out: string[] = [];
  rows.forEach((row, i) => {
    out.push(row.map((cell, col) => (numeric.has(col) ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!))).join("  ").trimEnd());
    const record = i > 0 ? records[i - 1] : undefined;
    if (record?.reason && (record.decision === "refused" || record.decision === "blocked")) {
      const reason = safe(record.reason);
      out.push(`${" ".repeat(widths[0]! + 2)}↳ ${reason.length > 160 ? `${reason.slice(0, 159)}…` : reason}`);
    }
  });
  return `${out.join("\n")}\n`;
}
