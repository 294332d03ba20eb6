import * as z from "zod/mini";
import { ScopeStateSchema, newScope } from "../engine/scope-state/state.js";
import { BudgetsSchema } from "../engine/budget.js";

/** Everything the hooks remember between calls, per session (SPEC §8: the log is telemetry, this is state). */
export { GateSourceSchema, RanCallSchema, ScopeStateSchema, newScope, type GateSource, type ScopeState } from "../engine/scope-state/state.js";

export const SessionStateSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  /** /utility on: gate the main scope until /utility off. */
  manualGate: z.boolean(),
  main: ScopeStateSchema,
  agents: z.record(z.string(), ScopeStateSchema),
  /** The user's budgets (userConfig) as the last PreToolUse saw them: `/utility status` runs without that environment. */
  userBudgets: z.optional(BudgetsSchema),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

export function newSession(sessionId: string): SessionState {
  return { version: 1, sessionId, manualGate: false, main: newScope(), agents: {} };
}
