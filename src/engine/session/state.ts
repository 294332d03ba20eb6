import * as z from "zod/mini";
import { ActionSchema, OptInScopeSchema } from "../vocabulary.js";
import { ConfigSchema } from "../signals.js";
import { SpendSchema, TokenCountsSchema, type Spend } from "../spend.js";
import { SessionBudgetsSchema } from "../session-budget.js";
import { BudgetsSchema } from "../budget.js";
import { GuardsSchema } from "../guards.js";

/**
 * The session machine's state (SPEC §15): everything the plugin knows about a
 * session, as `reduce` (./reduce.ts) folds it from the session's events. The
 * hooks keep it in a state file (a cache of that fold, read back by the CLI);
 * replay folds it from a recorded transcript. One shape, one set of rules.
 *
 * Outside the machine the state is read-only (`SessionState`, `ScopeState`):
 * only ./reduce.ts and ./scope-reducer.ts (with ./scope-copy.ts and
 * ./scope-usage.ts) change a copy of it (the `…Draft` types), and
 * test/engine/session/ownership.test.ts fails when code elsewhere assigns a field.
 */

/** Read-only fields, and read-only lists and maps in them: the state as every surface outside the machine sees it. */
type Sealed<T> = {
  readonly [K in keyof T]: T[K] extends (infer U)[]
    ? readonly U[]
    : T[K] extends Record<string, infer V>
      ? Readonly<Record<string, V>>
      : T[K];
};

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
  /** That task (the history outlives tasks: a step of another task is named with it). */
  task: z.optional(z.number()),
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
  /** A transcript line says Claude Code refused it; a line a shell could have written, so it refunds nothing until confirmed (./scope-reducer.ts). */
  deniedSeen: z.optional(z.boolean()),
  /** It was an exact repeat when decided (SPEC §7): the same result from it is no identical outcome (SPEC §13). */
  exactRepeat: z.optional(z.boolean()),
  /** The digest of the result it returned (SPEC §13: only a digest is kept); absent until it came back, or when it held more than text. */
  result: z.optional(z.string()),
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
  /** The runaway guards the file sets (SPEC §13, §14); they apply while the scope is gated. */
  guards: z.optional(GuardsSchema),
});
export type GateSource = z.infer<typeof GateSourceSchema>;

/** What a Skill call let through loads when it runs: the opt-in of a skill that gates, and the file of one that registers hooks. */
export const SkillCallSchema = z.object({ source: z.optional(GateSourceSchema), hooks: z.optional(z.string()) });
export type SkillCall = z.infer<typeof SkillCallSchema>;

export const ScopeStateSchema = z.object({
  task: z.number(),
  /** Steps taken in this task (tool calls that passed or were observed). */
  step: z.number(),
  refusals: z.number(),
  /** Bytes of the scope's transcript already read into events. */
  offset: z.number(),
  /** Which file those bytes were read from (device and inode): another file in its place is read again from a safe point. */
  transcriptId: z.optional(z.string()),
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
  /** Skill calls let through whose result is not seen yet, by tool_use_id: what each will load once its result says it ran. */
  skillCalls: z.optional(z.record(z.string(), SkillCallSchema)),
  /** Set with awaitingActivation by a prompt that is no slash command: its key. Once that prompt's line is written, nothing more is awaited. */
  awaitingPrompt: z.optional(z.string()),
  /** Planning and stopping calls let through this task while a budget was spent, oldest first: their number is capped (SPEC §12, src/engine/gate-budgets.ts). */
  windDown: z.optional(z.array(z.object({ tool: z.string(), digest: z.string(), toolUseId: z.optional(z.string()) }))),
  /** The Stop hook blocked once this task (it blocks at most once). */
  stopBlocked: z.optional(z.boolean()),
  /** A subagent's type (or the main conversation's, run as an agent definition) and, when its definition opts in, that definition. */
  agentType: z.optional(z.string()),
  definition: z.optional(GateSourceSchema),
  /** A fork (`Agent{subagent_type: "fork"}`): the launching call it was matched to, "" for none gated (./fork.ts). */
  forkOf: z.optional(z.string()),
  ended: z.optional(z.boolean()),
  /** What this scope spent in this task (a subagent: in its life), SPEC §12; absent: nothing yet. */
  spend: z.optional(SpendSchema),
  /** A subagent: the main scope's task it was launched in, whose spend it counts toward. */
  rootTask: z.optional(z.number()),
  /** A subagent: how many subagents of its root task had started before it, plus one (SPEC §12: agent budgets count what starts). */
  ordinal: z.optional(z.number()),
  /** What the model was told of its budgets (SPEC §16), in which task: each budget's level then (src/engine/budget-view.ts). */
  budgetTold: z.optional(z.object({ task: z.number(), levels: z.record(z.string(), z.number()) })),
  /** Usage already counted for the newest assistant messages, by message id (a message spans several lines). */
  messages: z.optional(z.record(z.string(), TokenCountsSchema)),
  /** The model of each of those messages (`message.model`), so a call's spend can be priced. */
  messageModels: z.optional(z.record(z.string(), z.string())),
  /** Which of those messages made each call seen in them, by tool_use_id (a call's line may be read before the call is decided). */
  callMessages: z.optional(z.record(z.string(), z.string())),
});
export type ScopeDraft = z.infer<typeof ScopeStateSchema>;
export type RanCallDraft = z.infer<typeof RanCallSchema>;
export type RanCallState = Readonly<RanCallDraft>;
type SealedSpend = Readonly<{
  tokens: Readonly<Spend["tokens"]>;
  byModel: Readonly<Record<string, Readonly<Spend["tokens"]>>>;
  toolCalls: number;
  agentsLaunched: number;
}>;
export type ScopeState = Sealed<Omit<ScopeDraft, "pending" | "history" | "spend">> & {
  readonly pending: Readonly<Record<string, RanCallState>>;
  readonly history: readonly RanCallState[];
  readonly spend?: SealedSpend;
};

export function newScope(task = 1): ScopeState {
  return { task, step: 0, refusals: 0, offset: 0, sources: [], pending: {}, history: [] };
}

/** `/utility on` and `/utility off`. */
export const SWITCHES = ["on", "off"] as const;
export const SwitchSchema = z.enum(SWITCHES);
export type Switch = z.infer<typeof SwitchSchema>;

/**
 * A prompt a UserPromptSubmit saw and no transcript line has matched yet
 * (SPEC §2). Claude Code runs UserPromptSubmit alike for typed prompts,
 * notifications and wakeups; the line it then writes with the same prompt id
 * tells which, and only a typed one starts a task or switches the gate off.
 */
export const VouchedPromptSchema = z.object({
  /** `/utility on|off`. `on` only tightens, so it takes effect at once; `off` once the line shows it was typed. */
  switch: z.optional(SwitchSchema),
  /** A `/utility …` prompt: a question about the current task, not a new one. */
  own: z.boolean(),
  /** The order it was vouched in: a switch applies only over an older one. */
  seq: z.optional(z.number()),
  /** Vouched twice, with different texts: one of the calls was not Claude Code's own, and the prompt switches nothing off. */
  contested: z.optional(z.literal(true)),
});
export type VouchedPrompt = z.infer<typeof VouchedPromptSchema>;

/**
 * A `/utility off` the plugin answered through UserPromptExpansion, waiting
 * for Claude Code's own evidence: the line it writes when a hook blocks a
 * typed command ("UserPromptExpansion operation blocked by hook:" and the
 * answer), the first of its kind after `after` bytes of the transcript
 * `transcriptId`. A hook call no typed command made leaves no such line.
 */
export const PendingOffSchema = z.object({
  key: z.string(),
  seq: z.number(),
  after: z.number(),
  transcriptId: z.optional(z.string()),
  /** When the hook answered (epoch ms): a line Claude Code made before then and wrote after `after` is an older one flushed late. */
  at: z.optional(z.number()),
});
export type PendingOff = z.infer<typeof PendingOffSchema>;

/** How many unmatched prompts are remembered (a prompt whose line never came ages out). */
export const VOUCHED_PROMPTS_LIMIT = 32;

export const SessionStateSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  /** /utility on: gate the main scope until /utility off. */
  manualGate: z.boolean(),
  main: ScopeStateSchema,
  agents: z.record(z.string(), ScopeStateSchema),
  /** Prompts vouched for by UserPromptSubmit, by prompt key, not yet matched to their line. */
  prompts: z.optional(z.record(z.string(), VouchedPromptSchema)),
  /** The last prompt sequence number handed out. */
  promptSeq: z.optional(z.number()),
  /** When the newest prompt was submitted (epoch ms, UserPromptSubmit's clock): a skill file changed since then may not be what Claude Code runs. */
  promptAt: z.optional(z.number()),
  /** Skill files whose hooks Claude Code registered in this session (their Skill call ran): they run outside any gate. */
  hookFiles: z.optional(z.array(z.string())),
  /** The sequence number of the switch that set manualGate. */
  switchSeq: z.optional(z.number()),
  /** `/utility off` answered on screen, in force once Claude Code's own transcript line shows that answer (src/engine/session/switch-off.ts). */
  pendingOff: z.optional(PendingOffSchema),
  /** A session forked from another (`--fork-session`): "" until that one is found, then its id, "-" for none (./fork-origin.ts). */
  forkedFrom: z.optional(z.string()),
  /** Forks a gated scope launched, by the launching call's id, not yet matched to the fork that started (./fork.ts). */
  forks: z.optional(z.record(z.string(), z.object({ source: GateSourceSchema, step: z.number() }))),
  /** Gated `context: fork` skills launched, by the Skill call's id, until its result: their opt-in (./fork.ts). */
  skillForks: z.optional(z.record(z.string(), z.object({ source: GateSourceSchema }))),
  /** The user's budgets (userConfig) as the last hook saw them: `/utility status` runs without that environment. */
  userBudgets: z.optional(BudgetsSchema),
  /** The user's budgets beyond one task (session, window), as the last hook saw them: status and the step log show them. */
  userSessionBudgets: z.optional(SessionBudgetsSchema),
  /** The invalid settings the user was last told about (SPEC §10: once per session and problem). */
  settingsWarned: z.optional(z.string()),
  /** What the whole session spent: every scope, every task (SPEC §12 "beyond one task"). */
  spend: z.optional(SpendSchema),
});
export type SessionDraft = z.infer<typeof SessionStateSchema>;
export type SessionState = Sealed<Omit<SessionDraft, "main" | "agents" | "spend">> & {
  readonly main: ScopeState;
  readonly agents: Readonly<Record<string, ScopeState>>;
  readonly spend?: SealedSpend;
};

export function newSession(sessionId: string): SessionState {
  return { version: 1, sessionId, manualGate: false, main: newScope(), agents: {} };
}
