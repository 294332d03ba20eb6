import * as z from "zod/mini";
import { ActionSchema } from "../vocabulary.js";
import { TokenCountsSchema } from "../spend.js";
import { RanCallSchema } from "./state.js";

/**
 * What can happen to a scope, as the reducer sees it. The hooks make these
 * from their own input and from the transcript's tail since their stored
 * offset; replay makes them from a recorded transcript from its start.
 */

const call = RanCallSchema.shape;

export const ScopeEventSchema = z.discriminatedUnion("kind", [
  /** A prompt reached the scope. Only one the user typed starts a task; notifications, wakeups, Stop-hook feedback do not. */
  z.object({ kind: z.literal("prompt"), typed: z.boolean() }),
  /** The gate decided a tool call (neutral tools are no step; refused calls are counted apart and never run). */
  z.object({
    kind: z.literal("call"),
    decision: z.enum(["passed", "observed", "refused", "neutral"]),
    tool: call.tool,
    digest: call.digest,
    effect: call.effect,
    toolUseId: z.optional(z.string()),
    /** The action of the report that let it through. */
    action: z.optional(ActionSchema),
    startedAt: z.optional(z.number()),
    /** The background job a stop or poll of it names (SPEC §7). */
    jobOf: z.optional(z.string()),
    /** What the call was judged as when not by its tool's name (a Skill call that runs shell or forks, SPEC §6). */
    actsAs: z.optional(z.enum(["tool_call", "delegate"])),
    /** It is an exact repeat (SPEC §7): its result, the same, is no identical outcome (SPEC §13). */
    exactRepeat: z.optional(z.boolean()),
    /** A planning or stopping call let through past a spent budget: the task's wind-down calls are capped (SPEC §12). */
    pastBudget: z.optional(z.boolean()),
  }),
  /** A call's result came back (PostToolUse, or its tool_result line in the transcript). */
  z.object({
    kind: z.literal("result"),
    toolUseId: z.string(),
    failed: z.boolean(),
    bytes: z.number(),
    endedAt: z.optional(z.number()),
    durationMs: z.optional(z.number()),
    /** The id Claude Code gave a background job the call launched (shell id, agent id). */
    jobId: z.optional(z.string()),
    /** The result shows the job it polled has finished. */
    finished: z.optional(z.boolean()),
    /** The digest of the result's text (SPEC §13); absent when the result held more than text (an image). */
    digest: z.optional(z.string()),
  }),
  /** A line says Claude Code refused a call the gate had let through (its own permissions). A shell could have written it: see ./scope-reducer.ts. */
  z.object({ kind: z.literal("denied"), toolUseId: z.string() }),
  /** A hook read the own line of a call in message `messageId`: every earlier message's results are written (./scope-reducer.ts). */
  z.object({ kind: z.literal("confirmed"), messageId: z.string() }),
  /** A call ran that the gate never let through (replay of a recording made without the gate): remembered, no step. */
  z.object({
    kind: z.literal("ran_unchecked"),
    tool: call.tool,
    digest: call.digest,
    effect: call.effect,
    toolUseId: z.optional(z.string()),
    failed: z.boolean(),
    /** The digest of its result (SPEC §13), as `result` carries it. */
    result: z.optional(z.string()),
  }),
  /** The context was compacted: nothing before is a repeat any more (SPEC §7). */
  z.object({ kind: z.literal("compact") }),
  /** A background Bash or Agent has ended, as its task-notification records it (the call that started it, or the job's id): it no longer blocks repeats. */
  z.object({ kind: z.literal("background_ended"), toolUseId: z.optional(z.string()), jobId: z.optional(z.string()) }),
  /** An assistant message's line: its usage (each message counted once, however many lines) and the calls it made. */
  z.object({
    kind: z.literal("usage"),
    messageId: z.string(),
    model: z.string(),
    tokens: TokenCountsSchema,
    toolUseIds: z.array(z.string()),
  }),
  /** A subagent scope begins, launched in the main scope's task `rootTask`. */
  z.object({ kind: z.literal("subagent_started"), rootTask: z.number() }),
  /** The model was told what is left of its budgets in task `task` (SPEC §16): each budget's level as told. */
  z.object({ kind: z.literal("budget_told"), task: z.number(), levels: z.record(z.string(), z.number()) }),
  /** The scope's loop ended (Stop, SubagentStop): what is still pending never ran. */
  z.object({ kind: z.literal("turn_end"), subagent: z.boolean() }),
]);
export type ScopeEvent = z.infer<typeof ScopeEventSchema>;
export type CallEvent = Extract<ScopeEvent, { kind: "call" }>;
