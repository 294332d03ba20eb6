// One tool call planned against the session, as PreToolUse decides it
// (src/hooks/pre-tool-use.ts) and replay replays it (src/replay/call-decider.ts):
// the call's own line confirmed, the call decided, what a Skill call will
// load, the settings warning, and the line the model is told. Pure: the
// caller brings what it read (the call's text, the skill's verdict, the
// protected target, the window's spend) and keeps the session it returns.
import type { Sha256Hex } from "../redundancy.js";
import { identicalNotice } from "../no-progress.js";
import type { GuardsInForce } from "../guards.js";
import type { ActsAs } from "../tools.js";
import { decideInSession, scopeLineOf, type SessionCall, type SessionDecision, type UserSettings } from "./decide.js";
import type { SessionEvent } from "./events.js";
import { reduceAll, type Reduction, type ScopedOutcome } from "./reduce.js";
import type { ScopeKey } from "./events.js";
import type { GateSource, SessionState } from "./state.js";
import { gateOf } from "./views.js";
import { budgetNoticeIn } from "./budget-input.js";

/** The model's text before the call in its message, read from the call's own line. */
export interface CallText {
  text: string;
  messageId: string;
  model?: string | undefined;
}

/** A Skill call's skill, as judged: the gate it brings, the file whose frontmatter registers hooks, the agent it forks as. */
export interface SkillLoad {
  source?: GateSource | undefined;
  hooks?: string | undefined;
  forksAs?: string | undefined;
}

/** A call to plan: what it is, and what the caller read about it. */
export interface PlannedCall extends Omit<SessionCall, "reportText" | "model" | "actsAs" | "registersHooks"> {
  text?: CallText | undefined;
  actsAs?: ActsAs | undefined;
  skill?: SkillLoad | undefined;
  /** The model of the call's message when its text was not read (a Skill call that gates: the line's tier). */
  model?: string | undefined;
}

/** The user's settings, and what is invalid in them, in words (shown once per session). */
export interface PlanSettings extends UserSettings {
  warning?: string | undefined;
}

export interface CallPlan {
  decided: SessionDecision;
  /** The session with every event of the call reduced. */
  session: SessionState;
  /** The confirmation's reduction (outcomes it learned). */
  confirmed: Reduction;
  /** The hooks' line for this call, when it gets one. */
  context?: string;
  /** The settings warning to show now, once per session. */
  warning?: string;
}

/** Plans one call of scope `key`: see the file's head. */
export function planCall(session: SessionState, key: ScopeKey, call: PlannedCall, user: PlanSettings, sha256?: Sha256Hex): CallPlan {
  const confirmed = reduceAll(session, arrival(session, key, call));
  return { ...planConfirmed(confirmed.session, key, call, { user, sha256 }), confirmed };
}

/** How planConfirmed reduces: `transient` changes the session in place (replay keeps no earlier state). */
export interface PlanOptions {
  user: PlanSettings;
  sha256?: Sha256Hex | undefined;
  transient?: boolean;
}

/**
 * The second half of planCall, for a session its arrival was reduced into
 * (replay reduces that itself, to note what the call's budgets saw): the
 * call decided, what a Skill call will load, the warning, the line.
 */
export function planConfirmed(
  confirmed: SessionState,
  key: ScopeKey,
  call: PlannedCall,
  options: PlanOptions,
): Omit<CallPlan, "confirmed"> {
  const { user, sha256 } = options;
  const reduce = { transient: options.transient === true };
  const { text, skill, actsAs, model: told, ...rest } = call;
  const model = text?.model;
  const decided = decideInSession(
    confirmed,
    key,
    {
      ...rest,
      ...(text ? { reportText: text.text } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(actsAs ? { actsAs } : {}),
      ...(skill?.hooks !== undefined ? { registersHooks: skill.hooks } : {}),
    },
    user,
    sha256,
  );
  const warning = settingsWarning(confirmed, decided, user);
  const after = reduceAll(
    confirmed,
    [...decided.events, ...skillWillLoad(key, call, decided), ...(warning ? [{ kind: "settings_warned" as const, problem: warning }] : [])],
    reduce,
  );
  const line = lineFor(after.session, key, decided, { user, model: model ?? told }, call);
  const { session, context } = withBudgetNotice(after.session, key, { decided, user, windowSpend: call.windowSpend, reduce }, line);
  return { decided, session, ...(context ? { context } : {}), ...(warning ? { warning } : {}) };
}

/** The line, then what the model is to be told of its budgets now (SPEC §16), remembered in the session. */
function withBudgetNotice(
  session: SessionState,
  key: ScopeKey,
  told: { decided: SessionDecision; user: PlanSettings; windowSpend?: PlannedCall["windowSpend"]; reduce: { transient: boolean } },
  line: string | undefined,
): { session: SessionState; context: string } {
  const notice = budgetNoticeIn(session, key, told.user, told.windowSpend);
  const context = [line, spentAlready(told.decided) ? undefined : notice.text].filter((t) => t !== undefined).join("\n");
  return { session: notice.events.length > 0 ? reduceAll(session, notice.events, told.reduce).session : session, context };
}

/** A refusal for a spent budget says so itself: the budget notice would say it twice. */
function spentAlready({ decision }: SessionDecision): boolean {
  return decision.decision === "refused" && (decision.rule === "budget_spent" || decision.rule === "agents_exhausted");
}

/**
 * What the call's arrival settles: a skill awaited has loaded by now, or not
 * (the lines before the call are read); and, its own line read in a gated
 * scope, every result of an earlier message is written before it, so a
 * refused call of an earlier message with no real result never ran
 * (./scope-reducer.ts).
 */
export function arrival(session: SessionState, key: ScopeKey, { toolUseId, text }: PlannedCall): SessionEvent[] {
  const seen: SessionEvent = { kind: "activation_seen", scope: key };
  if (!toolUseId || !text || !gateOf(session, key)) return [seen];
  return [seen, { kind: "call_line_seen", scope: key, toolUseId, messageId: text.messageId }];
}

/**
 * What a Skill call let through will load: the activation awaited at its
 * result (with the gate and hooks its skill brings), and, for a gated skill
 * that forks, the fork it launches (./fork.ts).
 */
export function skillWillLoad(
  key: ScopeKey,
  call: Pick<PlannedCall, "tool" | "toolUseId" | "skill">,
  decided: SessionDecision,
): SessionEvent[] {
  if (call.tool !== "Skill" || decided.decision.decision === "refused") return [];
  if (call.toolUseId === undefined) return [{ kind: "activation_awaited", scope: key }];
  const { source, hooks, forksAs } = call.skill ?? {};
  const loads = { ...(source ? { source } : {}), ...(hooks !== undefined ? { hooks } : {}) };
  const awaited: SessionEvent = { kind: "activation_awaited", scope: key, toolUseId: call.toolUseId, ...loads };
  if (!source || forksAs === undefined) return [awaited];
  return [awaited, { kind: "skill_fork_launched", toolUseId: call.toolUseId, source }];
}

/**
 * Invalid user settings never block an ungated scope: the user is told once
 * per session what is wrong and how to fix it, and the valid ones still
 * apply. A gated scope refuses with the same words instead, while a budget
 * or the prices are invalid.
 */
function settingsWarning(session: SessionState, decided: SessionDecision, user: PlanSettings): string | undefined {
  if (!user.warning || session.settingsWarned === user.warning) return undefined;
  const { decision } = decided;
  if (decision.decision === "refused" && decision.rule === "budget_invalid") return undefined;
  return user.warning;
}

/**
 * The hooks' line for this call (../context-line.ts): after a call that
 * passes; after a Skill call whose skill gates the scope, as the scope will
 * be once it loads (before the task's first gated call); and with the
 * refusal of a call that had no report, so the rescored one has the numbers.
 */
function lineFor(
  session: SessionState,
  key: ScopeKey,
  decided: SessionDecision,
  told: { user: UserSettings; model: string | undefined },
  call: PlannedCall,
): string | undefined {
  const { decision } = decided;
  const { user, model } = told;
  if (decision.decision === "refused") return decision.rule === "no_report" ? scopeLineOf(session, key, user, model) : undefined;
  const gates = call.tool === "Skill" ? call.skill?.source : undefined;
  if (gates) {
    const loaded = reduceAll(session, [{ kind: "skill_loaded", scope: key, source: gates }]).session;
    return scopeLineOf(loaded, key, user, model);
  }
  return decision.decision === "passed" ? scopeLineOf(session, key, user, model) : undefined;
}

/**
 * The calls of this scope whose results were learned to be identical
 * outcomes, told to the model at the scope's next hook. Not when the user
 * turned the rule off (`stuck_after` 0).
 */
export function identicalNotices(
  learned: ReadonlyArray<{ outcomes: readonly ScopedOutcome[] }>,
  key: ScopeKey,
  guards: GuardsInForce,
): string[] {
  if (guards.stuckAfter === 0) return [];
  return learned.flatMap(({ outcomes }) =>
    outcomes.flatMap((o) =>
      o.scope === key && o.identical
        ? [identicalNotice(o.tool, o.step, { at: o.identical.ofStep, task: o.identical.ofTask }, o.identical.retry === true)]
        : [],
    ),
  );
}
