import * as z from "zod/mini";
import { ScopeStateSchema, newScope } from "../engine/scope-state/state.js";
import { BudgetsSchema } from "../engine/budget.js";

/** Everything the hooks remember between calls, per session (SPEC §8: the log is telemetry, this is state). */
export {
  GateSourceSchema,
  RanCallSchema,
  ScopeStateSchema,
  newScope,
  type GateSource,
  type ScopeState,
} from "../engine/scope-state/state.js";

/**
 * A prompt a UserPromptSubmit saw and no transcript line has matched yet
 * (SPEC §2). Claude Code runs UserPromptSubmit alike for typed prompts,
 * notifications and wakeups; the line it then writes with the same prompt id
 * tells which, and only a typed one starts a task or switches the gate.
 */
export const VouchedPromptSchema = z.object({
  /** `/utility on|off`: switches the main scope's gate once the line shows it was typed. */
  switch: z.optional(z.enum(["on", "off"])),
  /** A `/utility …` prompt: a question about the current task, not a new one. */
  own: z.boolean(),
});
export type VouchedPrompt = z.infer<typeof VouchedPromptSchema>;

/** How many unmatched prompts are remembered (a prompt whose line never came ages out). */
export const VOUCHED_PROMPTS_LIMIT = 32;

export const SessionStateSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  /** /utility on: gate the main scope until /utility off. */
  manualGate: z.boolean(),
  main: ScopeStateSchema,
  agents: z.record(z.string(), ScopeStateSchema),
  /** Prompts vouched for by UserPromptSubmit, by prompt id, not yet matched to their line. */
  prompts: z.optional(z.record(z.string(), VouchedPromptSchema)),
  /** The user's budgets (userConfig) as the last PreToolUse saw them: `/utility status` runs without that environment. */
  userBudgets: z.optional(BudgetsSchema),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

export function newSession(sessionId: string): SessionState {
  return { version: 1, sessionId, manualGate: false, main: newScope(), agents: {} };
}
