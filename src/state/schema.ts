import * as z from "zod/mini";
import { ActionSchema } from "../engine/actions.js";
import { ConfigSchema } from "../engine/signals.js";

/** Everything the hooks remember between calls, per session (SPEC §8: the log is telemetry, this is state). */

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
  at: z.number(),
  toolUseId: z.optional(z.string()),
  /** The id of a background job it launched (shell id, agent id): its end is matched on it (SPEC §7). */
  jobId: z.optional(z.string()),
  /** It came back with an error: it counts as in between, never as the original of a repeat. */
  failed: z.optional(z.boolean()),
});

/** What gates a scope and with which settings: resolved from a skill's or agent's frontmatter, or /utility on. */
export const GateSourceSchema = z.object({
  file: z.string(),
  gated: z.boolean(),
  scope: z.enum(["self", "dispatch"]),
  config: ConfigSchema,
  extraTools: z.record(z.string(), z.array(z.string())),
  /** An invalid opt-in: under the gate, every checked call is refused with this. */
  problem: z.optional(z.string()),
});
export type GateSource = z.infer<typeof GateSourceSchema>;

export const ScopeStateSchema = z.object({
  task: z.number(),
  /** Steps taken in this task (tool calls that passed or were observed). */
  step: z.number(),
  refusals: z.number(),
  /** Bytes of the scope's transcript already scanned for activations and compactions. */
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
  /** The Stop hook blocked once this task (it blocks at most once). */
  stopBlocked: z.optional(z.boolean()),
  /** A subagent's type and, when its definition opts in, that definition. */
  agentType: z.optional(z.string()),
  definition: z.optional(GateSourceSchema),
  ended: z.optional(z.boolean()),
});
export type ScopeState = z.infer<typeof ScopeStateSchema>;

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
});
export type SessionState = z.infer<typeof SessionStateSchema>;

export function newScope(task = 1): ScopeState {
  return { task, step: 0, refusals: 0, offset: 0, sources: [], pending: {}, history: [] };
}

export function newSession(sessionId: string): SessionState {
  return { version: 1, sessionId, manualGate: false, main: newScope(), agents: {} };
}
