import * as z from "zod/mini";
import { ActionSchema, OptInScopeSchema } from "../vocabulary.js";
import { ConfigSchema } from "../signals.js";
import { SpendSchema, TokenCountsSchema } from "../spend.js";
import { BudgetsSchema } from "../budget.js";

/**
 * A scope's state: what the reducer (./reducer.ts) computes from the scope's
 * events. The hooks keep it in a state file as a cache of that result; replay
 * computes it from a recorded transcript. One shape, one set of rules.
 */

const EffectSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("read"), paths: z.array(z.string()) }),
  z.object({ kind: z.literal("write"), paths: z.array(z.string()) }),
  z.object({ kind: z.literal("exec"), background: z.optional(z.boolean()) }),
  z.object({ kind: z.literal("poll") }),
  z.object({ kind: z.literal("neutral") }),
]);

export const RanCallSchema = z.object({
  tool: z.string(),
  digest: z.string(),
  effect: EffectSchema,
  /** The step it was in its task (0: it took none). */
  at: z.number(),
  toolUseId: z.optional(z.string()),
  /** The id of a background job it launched (shell id, agent id): its end is matched on it (SPEC §7). */
  jobId: z.optional(z.string()),
  /** The job a stop or poll of it names (TaskStop, KillShell, TaskOutput, BashOutput): its result may end that job. */
  jobOf: z.optional(z.string()),
  /** It came back with an error: it counts as in between, never as the original of a repeat. */
  failed: z.optional(z.boolean()),
  /** When it was let through, epoch ms: its outcome's duration is measured from here. */
  startedAt: z.optional(z.number()),
  /** The usage of the assistant message that made the call, once read from the transcript. */
  tokens: z.optional(TokenCountsSchema),
});

/** What gates a scope and with which settings: resolved from a skill's or agent's frontmatter, or /utility on. */
export const GateSourceSchema = z.object({
  file: z.string(),
  gated: z.boolean(),
  scope: OptInScopeSchema,
  config: ConfigSchema,
  extraTools: z.record(z.string(), z.array(z.string())),
  /** An invalid opt-in: under the gate, every checked call is refused with this. */
  problem: z.optional(z.string()),
  /** Spend budgets the file sets (SPEC §12); they apply while the scope is gated. */
  budgets: z.optional(BudgetsSchema),
});
export type GateSource = z.infer<typeof GateSourceSchema>;

export const ScopeStateSchema = z.object({
  task: z.number(),
  /** Steps taken in this task (tool calls that passed or were observed). */
  step: z.number(),
  refusals: z.number(),
  /** Bytes of the scope's transcript already read into events. */
  offset: z.number(),
  /** Skills and definitions seen in this task, oldest first. */
  sources: z.array(GateSourceSchema),
  /** Calls let through and not yet seen finishing, by tool_use_id. */
  pending: z.record(z.string(), RanCallSchema),
  /** Calls that ran since the last compaction, oldest first (bounded). */
  history: z.array(RanCallSchema),
  /** The action of the last report that let a call through, this task. */
  lastAction: z.optional(ActionSchema),
  /** A skill may have been activated (Skill tool ran, or a slash command was typed) and its lines may not be written yet. */
  awaitingActivation: z.optional(z.boolean()),
  /** Set with awaitingActivation by a prompt that is no slash command: its key. Once that prompt's line is written, nothing more is awaited. */
  awaitingPrompt: z.optional(z.string()),
  /** The Stop hook blocked once this task (it blocks at most once). */
  stopBlocked: z.optional(z.boolean()),
  /** A subagent's type and, when its definition opts in, that definition. */
  agentType: z.optional(z.string()),
  definition: z.optional(GateSourceSchema),
  ended: z.optional(z.boolean()),
  /** What this scope spent in this task (a subagent: in its life), SPEC §12; absent: nothing yet. */
  spend: z.optional(SpendSchema),
  /** A subagent: the main scope's task it was launched in, whose spend it counts toward. */
  rootTask: z.optional(z.number()),
  /** Usage already counted for the newest assistant messages, by message id (a message spans several lines). */
  messages: z.optional(z.record(z.string(), TokenCountsSchema)),
  /** The model of each of those messages (`message.model`), so a call's spend can be priced. */
  messageModels: z.optional(z.record(z.string(), z.string())),
  /** Which of those messages made each call seen in them, by tool_use_id (a call's line may be read before the call is decided). */
  callMessages: z.optional(z.record(z.string(), z.string())),
});
export type ScopeState = z.infer<typeof ScopeStateSchema>;
export type RanCallState = z.infer<typeof RanCallSchema>;

export function newScope(task = 1): ScopeState {
  return { task, step: 0, refusals: 0, offset: 0, sources: [], pending: {}, history: [] };
}
