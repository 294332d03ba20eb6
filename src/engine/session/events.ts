import * as z from "zod/mini";
import { SessionBudgetsSchema } from "../session-budget.js";
import { BudgetsSchema } from "../budget.js";
import { LINE_KINDS } from "./prompt-kind.js";
import { ScopeEventSchema } from "./scope-events.js";
import { GateSourceSchema, SwitchSchema } from "./state.js";

/**
 * What can happen to a session, as data (SPEC §15). The hooks make these
 * from their input and from the transcript's new lines (src/ingest/); replay
 * makes them from a recorded transcript; `reduce` (./reduce.ts) folds them
 * into the state. Which of them a model's shell could have forged, and what
 * such an event may change, is decided in the reducer, once.
 */

/** Whose loop: `main`, or `agent:<agent id>` for one subagent (the log's `scopeKey` writes the same). */
export type ScopeKey = "main" | `agent:${string}`;
export const ScopeKeySchema = z.custom<ScopeKey>((value) => value === "main" || (typeof value === "string" && /^agent:.+/.test(value)));

export const agentKey = (agentId: string): ScopeKey => `agent:${agentId}`;

/** The agent id a key names, or undefined for the main scope. */
export function agentIdOf(key: ScopeKey): string | undefined {
  return key === "main" ? undefined : key.slice("agent:".length);
}

const scope = ScopeKeySchema;

export const SessionEventSchema = z.discriminatedUnion("kind", [
  /**
   * UserPromptSubmit saw a prompt (evidence no shell can forge: Claude Code
   * runs the hook). It is typed, a notification or a wakeup; its line will
   * tell. `/utility on` tightens, so it takes effect now.
   */
  z.object({
    kind: z.literal("prompt_vouched"),
    key: z.string(),
    own: z.boolean(),
    switch: z.optional(SwitchSchema),
    /** A slash command: a skill may be activated, and its lines come after the prompt's. */
    slash: z.boolean(),
    /** When it was submitted (epoch ms), as the hook's clock read it. */
    at: z.optional(z.number()),
  }),
  /**
   * The user typed `/utility …` and the plugin answered it on screen, so the
   * prompt goes no further and no line of it will be written
   * (UserPromptExpansion: Claude Code runs it for typed slash commands only,
   * never for a wakeup or a notification, and no shell can make it run). Its
   * vouch is done. `on` applies now; `off` needs the vouch of the same prompt
   * saying `/utility off`, uncontested, and is pending until Claude Code's own
   * line shows it (a hook anyone registers may call the plugin's server with
   * any input: issue 31).
   */
  z.object({
    kind: z.literal("command_typed"),
    key: z.string(),
    switch: z.optional(SwitchSchema),
    /** For `off`: the size of the session's own transcript when the hook answered, and which file it is (none: not Claude Code's). */
    after: z.optional(z.number()),
    transcriptId: z.optional(z.string()),
    /** When the hook answered (epoch ms, its clock). */
    at: z.optional(z.number()),
  }),
  /**
   * What the session's transcript shows after a pending `/utility off`:
   * Claude Code's line for the blocked command, with the plugin's answer
   * (`shown`), or another line first (`unshown`: the call came from no typed command).
   */
  z.object({ kind: z.literal("off_evidence"), shown: z.boolean() }),
  /** A gated scope's `Agent{subagent_type: "fork"}` call was let through: the fork will carry that scope's conversation (./fork.ts). */
  z.object({ kind: z.literal("fork_launched"), scope, toolUseId: z.string() }),
  /**
   * A Skill call let through whose skill opts in and runs in a forked
   * subagent (`context: fork`): until the call's result, any subagent that
   * starts is gated by it (./fork.ts).
   */
  z.object({ kind: z.literal("skill_fork_launched"), toolUseId: z.string(), source: GateSourceSchema }),
  /**
   * A fork's first sight: the launching call its `.meta.json` names
   * (`toolUseId`), or none when that file could not be read (then the oldest
   * gated launch not yet matched, fail closed).
   */
  z.object({ kind: z.literal("fork_joined"), agentId: z.string(), toolUseId: z.optional(z.string()) }),
  /** The session started as a fork of another (SessionStart `source: "fork"`): which one, its transcript will show. */
  z.object({ kind: z.literal("session_forked") }),
  /** The session it was forked from ("-": none found), and whether `/utility on` was in force there: the fork carries it. */
  z.object({ kind: z.literal("fork_origin"), from: z.string(), gated: z.boolean() }),
  /** The state was lost: the step log says `/utility on` was the last switch applied (SPEC §10). */
  z.object({ kind: z.literal("switch_restored") }),
  /** A user line of the main transcript, and what its own fields say it is (src/transcript/prompt-kind.ts). */
  z.object({ kind: z.literal("prompt_line"), key: z.string(), lineKind: z.enum(LINE_KINDS) }),
  /** A subagent started (SubagentStart, or its first hook when that was not seen). */
  z.object({ kind: z.literal("subagent_started"), agentId: z.string() }),
  /** A subagent's type was looked up: its definition, when it opts in (or is invalid). */
  z.object({ kind: z.literal("definition_loaded"), agentId: z.string(), agentType: z.string(), definition: z.optional(GateSourceSchema) }),
  /** The main conversation runs as an agent definition of this type (`--agent`, the `agent` setting): its definition, when it opts in (or is invalid). */
  z.object({ kind: z.literal("main_agent"), agentType: z.string(), definition: z.optional(GateSourceSchema) }),
  /** A skill was activated in the scope (its "Base directory" line), with what its frontmatter says (ungated ones too: read once per task). */
  z.object({ kind: z.literal("skill_loaded"), scope, source: GateSourceSchema }),
  /** The scope's transcript was read up to `offset` (of the file `transcriptId`). */
  z.object({ kind: z.literal("lines_read"), scope, offset: z.number(), transcriptId: z.optional(z.string()) }),
  /**
   * A Skill call let through: its lines may not be written yet, so the
   * scope's next call waits for its own line. With the skill it will load
   * (as judged when the call was decided), kept until the call's result:
   * a result that is no error means Claude Code loaded it, however it writes
   * the load (the second load of a skill in a session has no "Base
   * directory" line, docs/claude-code-facts.md).
   */
  z.object({
    kind: z.literal("activation_awaited"),
    scope,
    toolUseId: z.optional(z.string()),
    source: z.optional(GateSourceSchema),
    /** The skill's file, when its frontmatter registers hooks. */
    hooks: z.optional(z.string()),
  }),
  /** A hook read the scope's lines under the lock: nothing is awaited any more. */
  z.object({ kind: z.literal("activation_seen"), scope }),
  /**
   * The hook deciding `toolUseId` read that call's own line (its id is
   * Claude Code's, unknown to any shell beforehand), in message `messageId`:
   * every result of an earlier message is written before it.
   */
  z.object({ kind: z.literal("call_line_seen"), scope, toolUseId: z.string(), messageId: z.string() }),
  /** The Stop hook blocked the scope's stop once (SPEC §6). */
  z.object({ kind: z.literal("stop_blocked"), scope }),
  /** The user was told, on screen, that their plugin settings are invalid (once per session and problem, SPEC §10). */
  z.object({ kind: z.literal("settings_warned"), problem: z.string() }),
  /** The user's budgets as the hook's environment carries them (kept for `/utility status`). */
  z.object({ kind: z.literal("user_budgets"), budgets: z.optional(BudgetsSchema), session: z.optional(SessionBudgetsSchema) }),
  /** One scope's own event (./scope-events.ts). */
  z.object({ kind: z.literal("scope"), scope, event: ScopeEventSchema }),
]);
export type SessionEvent = z.infer<typeof SessionEventSchema>;

/** A scope's own event, addressed to it. */
export function scoped(key: ScopeKey, event: z.infer<typeof ScopeEventSchema>): SessionEvent {
  return { kind: "scope", scope: key, event };
}
