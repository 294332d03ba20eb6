import type { PromptOutcome } from "../engine/session/reduce.js";
import type { LogRecord } from "../log/record.js";
import type { HookContext } from "./context.js";
import { baseRecord, type RecordScope } from "./records.js";

/** What the log says of a switch: `loggedSwitches` (src/state/log-file.ts) reads it back when the state file is gone or unreadable. */
export const switchReason = (switched: "on" | "off") => `/utility ${switched}`;

/** One record per switch a typed prompt's line made, written by the hook that saw the line. */
export function logSwitches(
  ctx: HookContext,
  event: LogRecord["event"],
  where: RecordScope,
  outcomes: readonly PromptOutcome[],
  started: number,
): void {
  for (const outcome of outcomes) {
    if (!outcome.switched) continue;
    ctx.appendLog(where.input.session_id, {
      ...baseRecord(ctx, event, { ...where, ref: { ...where.ref, kind: "main", key: "main" } }, started),
      decision: "observed",
      reason: switchReason(outcome.switched),
      switched: outcome.switched,
    });
  }
}
