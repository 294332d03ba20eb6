import * as z from "zod/mini";
import { ActionSchema, DecisionScopeSchema, LambdasSchema, RuleSchema } from "../engine/vocabulary.js";
import { SpendSchema, TokenCountsSchema } from "../engine/spend.js";
import { BudgetsSchema } from "../engine/budget.js";
import { SessionBudgetsSchema } from "../engine/session-budget.js";

/**
 * One line of a session's step log (SPEC §8). It is telemetry for people and
 * tools, and the selection record (strategy, candidate count, chosen action);
 * the gate never reads a report back from it as evidence.
 */

/** Hook events, and `Outcome`: a step's outcome, written by whichever hook learned it first (SPEC §8). */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "SubagentStart",
  "SessionEnd",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "Outcome",
  "error",
] as const;
export const DECISIONS = ["refused", "passed", "observed", "blocked", "error"] as const;

export const LoggedReportSchema = z.object({
  action: ActionSchema,
  utility: z.number(),
  gain: z.number(),
  stepCost: z.number(),
  uncertainty: z.number(),
  redundancy: z.number(),
  rationale: z.string(),
  /** The high-gain override that kept the loop going, if any. */
  override: z.optional(z.object({ action: ActionSchema, gain: z.number() })),
});
export type LoggedReport = z.infer<typeof LoggedReportSchema>;

/** The usage of the assistant message that made a call (SPEC §8, §12), as the transcript reports it. */
export const RecordSpendSchema = z.object({
  /** `message.id`: the calls of one message share its tokens, counted once. */
  messageId: z.optional(z.string()),
  model: z.optional(z.string()),
  tokens: TokenCountsSchema,
});
export type RecordSpend = z.infer<typeof RecordSpendSchema>;

export const LogRecordSchema = z.object({
  v: z.literal(1),
  time: z.string(),
  event: z.enum(HOOK_EVENTS),
  session: z.string(),
  scope: DecisionScopeSchema,
  agentId: z.optional(z.string()),
  agentType: z.optional(z.string()),
  task: z.number(),
  /** Steps taken in the task when this record was written (a passed call counts itself). */
  step: z.number(),
  maxSteps: z.number(),
  floor: z.optional(z.number()),
  lambdas: LambdasSchema,
  report: z.optional(LoggedReportSchema),
  tool: z.optional(z.string()),
  toolUseId: z.optional(z.string()),
  /** src/engine/redundancy.ts callDigest: what the call does, its tool's cosmetic fields (a Bash description, a timeout) left out. */
  inputDigest: z.optional(z.string()),
  decision: z.enum(DECISIONS),
  rule: z.optional(RuleSchema),
  reason: z.optional(z.string()),
  gated: z.boolean(),
  gatedBy: z.optional(z.string()),
  /** An exact repeat the code proved: where the earlier identical call ran. */
  repeat: z.optional(z.object({ ofStep: z.number(), toolUseId: z.optional(z.string()) })),
  /** A stuck loop (SPEC §13): the steps of the call's last runs, which all returned the same result. */
  stuck: z.optional(z.object({ steps: z.array(z.number()) })),
  /** The gate left the decision to the user (SPEC §14: Claude Code asked them); `reason` says why. */
  fallback: z.optional(z.literal("user")),
  selection: z.optional(
    z.object({
      strategy: z.enum(["reported", "computed"]),
      candidates: z.number(),
      chosen: ActionSchema,
    }),
  ),
  /** UserPromptSubmit, UserPromptExpansion: the prompt's key (a digest of the id its transcript line carries, src/ingest/prompts.ts promptKey), and the `/utility on|off` it asks for (`on` applies at once; `off` once that line shows it typed). */
  promptId: z.optional(z.string()),
  switch: z.optional(z.enum(["on", "off"])),
  /** The `/utility on|off` a hook applied when it saw the typed prompt's line: what the log says of the gate when the state is gone. */
  switched: z.optional(z.enum(["on", "off"])),
  /** At a stop: calls let through that never ran (refused by Claude Code's permissions, interrupted), taken off the step count. */
  uncounted: z.optional(z.number()),
  /** The budgets in force for this record's task (SPEC §12), when any is set: the report draws them against its spend. */
  budgets: z.optional(BudgetsSchema),
  /** The user's session and window budgets, when any is set, with the whole session's spend as the session machine counts it (SPEC §12). */
  sessionBudgets: z.optional(z.object({ budgets: SessionBudgetsSchema, spent: SpendSchema })),
  /** What the assistant message behind this record spent, when the hook knows it. */
  spend: z.optional(RecordSpendSchema),
  /**
   * What the record's scope has spent in its task so far, as the session
   * machine counts it (each message once, its final usage). Spend only grows
   * within a task, so `utility report` takes the largest per scope and task:
   * every surface shows the machine's numbers (SPEC §15).
   */
  scopeSpend: z.optional(SpendSchema),
  /** An Outcome record: how the step with this toolUseId ended, joined to its PreToolUse record by toolUseId. */
  outcome: z.optional(
    z.object({
      /** denied: Claude Code's own permissions refused it after the gate let it through; it never ran and took no step. */
      result: z.enum(["ran", "failed", "denied"]),
      resultBytes: z.number(),
      durationMs: z.optional(z.number()),
      /** The usage of the assistant message that made the call. */
      tokens: z.optional(TokenCountsSchema),
      /** The hook that learned it (from its own input, or the transcript's tail). */
      learnedBy: z.enum(HOOK_EVENTS),
      /** An identical outcome (SPEC §13): it returned byte for byte what the same call returned at this earlier step; `retry`: that run had failed. */
      identical: z.optional(z.object({ ofStep: z.number(), toolUseId: z.optional(z.string()), retry: z.optional(z.literal(true)) })),
    }),
  ),
  latencyMs: z.number(),
});
export type LogRecord = z.infer<typeof LogRecordSchema>;

/** `main`, or `agent:<id>` for a subagent: how reports key a record's scope. */
export function scopeKey(record: Pick<LogRecord, "agentId">): string {
  return record.agentId !== undefined ? `agent:${record.agentId}` : "main";
}
