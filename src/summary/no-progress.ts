// Identical outcomes and stuck loops per scope (SPEC §13), from the step log:
// the records the hooks wrote when they learned them, for the HTML report.
import { scopeKey, type LogRecord } from "../log/record.js";
import type { NoProgressCounts } from "./report-view.js";

/**
 * Per scope key (`main`, `agent:<id>`): Outcome records that say their call
 * returned what its last run returned, PreToolUse records of a stuck loop's
 * next run, and those of them the gate refused (rule `no_progress`). Every
 * scope that has a record is counted, with zeros where none was found.
 */
export function noProgressOf(records: readonly LogRecord[]): Record<string, NoProgressCounts> {
  const counts: Record<string, NoProgressCounts> = {};
  for (const record of records) {
    const key = scopeKey(record);
    const c = Object.hasOwn(counts, key) ? counts[key]! : (counts[key] = { identicalOutcomes: 0, stuckLoops: 0, stuckRefused: 0 });
    if (record.event === "Outcome" && record.outcome?.identical) c.identicalOutcomes += 1;
    if (record.event === "PreToolUse" && record.stuck) {
      c.stuckLoops += 1;
      if (record.rule === "no_progress") c.stuckRefused = (c.stuckRefused ?? 0) + 1;
    }
  }
  return counts;
}
