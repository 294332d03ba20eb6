import { callDigest } from "../engine/redundancy.js";
import { decideInSession, scopeLineOf, type SessionDecision, type UserSettings } from "../engine/session/decide.js";
import type { SessionEvent } from "../engine/session/events.js";
import { reduceAll, scopeAt } from "../engine/session/reduce.js";
import { callMessageOf } from "../engine/session/scope-usage.js";
import type { GateSource, SessionState } from "../engine/session/state.js";
import { frontmatterBudgetsOf, gateOf, sessionSpend, stillAwaiting } from "../engine/session/views.js";
import { hasBudget } from "../engine/budget.js";
import type { GuardsInForce } from "../engine/guards.js";
import { ledgerLine } from "../engine/ledger.js";
import { identicalNotice } from "../engine/no-progress.js";
import type { ScopedOutcome } from "../engine/session/reduce.js";
import { hasSessionBudget, windowHoursOf } from "../engine/session-budget.js";
import type { Spend } from "../engine/spend.js";
import { windowSpend } from "../state/ledger.js";
import { isNeutralTool } from "../engine/tools.js";
import type { LogRecord, RecordSpend } from "../log/record.js";
import type { GoverningText } from "../transcript/queries.js";
import type { HookContext } from "./context.js";
import { failClosed } from "./fail-closed.js";
import type { PreToolUseInput } from "./input.js";
import { protectedTargetOf } from "./protected.js";
import { baseRecord, loggedReport, logOutcomes, type HookResult, type RecordScope } from "./records.js";
import { scopeOf, type ScopeRef } from "./scope.js";
import { arrivalEvents, caughtUp, promptKeysSince, storedSession } from "./session-io.js";
import { settingsOf, type HookSettings } from "./settings.js";
import { logSwitches } from "./switches.js";
import { openOrTrouble } from "./transcript.js";
import { waitsInVain } from "./no-transcript.js";
import { skillGateSource, skillVerdict, skillWillLoad } from "./skill-call.js";
import { actsAsOf } from "../skills/classify.js";
import type { ActsAs } from "../engine/tools.js";
import type { Later } from "../state/store.js";

/**
 * PreToolUse, top to bottom: the input and the transcript's new lines become
 * events; the session machine reduces them under the state lock; the call is
 * decided (pure) and its event reduced; one record is logged; the answer is
 * a refusal, a line of context, or nothing. Never "allow". Whatever goes
 * wrong inside, a gated scope still gets a decision: a refusal with the
 * reason (SPEC §6), from the same reduction started afresh (./fail-closed.ts).
 */
export async function preToolUse(input: PreToolUseInput, ctx: HookContext): Promise<HookResult> {
  try {
    return await decide(input, ctx);
  } catch (error) {
    return failClosed(error, input, ctx);
  }
}

async function decide(input: PreToolUseInput, ctx: HookContext): Promise<HookResult> {
  const started = ctx.now();
  // A Skill call is judged by what its skill does, in a gated scope (./skill-call.ts); other planning tools never are.
  if (isPlanning(input) && !mayWindDown(input, ctx)) return {};
  const ref = scopeOf(input);
  const user = settingsOf(ctx);
  // Outside the lock: whether to wait for the call's own line (the report is in no hook input).
  const read = await needsTranscript(input, ref, ctx, user);
  // A Skill call waits too: an activation awaited may gate the scope, and its skill is judged only in a gated one.
  const waited = read.needed ? governingText(ref, input.tool_use_id, ctx, read.offset) : undefined;
  const activation = await activationOf(input, ref, ctx, { waited, offset: read.offset, none: read.none });
  const done = await ctx.store.transact(input.session_id, async (existing) => {
    const result = await decideUnderLock(existing ?? storedSession(ctx, input.session_id), {
      input,
      ref,
      ctx,
      user,
      waited,
      activation,
    });
    const later = answerFirst(ctx, input, ref, result);
    return { state: result.session, result: { ...result, later }, ...(later ? { later } : {}) };
  });
  const where = { input, ref, session: done.session };
  const writeLogs = (logs: HookContext) => {
    for (const learned of done.learned) {
      logSwitches(logs, "PreToolUse", where, learned.prompts, started);
      logOutcomes(logs, "PreToolUse", where, learned.outcomes);
    }
    // A neutral Skill call is no step and leaves no record.
    if (done.decided.decision.decision !== "neutral") logs.appendLog(input.session_id, record(logs, where, done.decided, started));
  };
  if (done.later) {
    const logs = decidedNow(ctx);
    done.later(() => writeLogs(logs));
  } else writeLogs(ctx);
  const notices = identicalNotices(done.learned, ref, done.decided.guards);
  return withWarning(answer(done.decided, done.context, notices), done.warning);
}

/**
 * SPEC §11: in the warm server, a call in a scope that is not gated, before
 * and after it, is answered before its state, log and ledger lines are
 * written (they are written next, the state's lock held until then). A gated
 * scope's call is answered only once they are written: trouble writing them
 * refuses it (SPEC §6). A Skill call may gate the scope: never first.
 */
function answerFirst(
  ctx: HookContext,
  input: PreToolUseInput,
  ref: ScopeRef,
  result: { decided: SessionDecision; session: SessionState },
): Later | undefined {
  if (!ctx.later || input.tool_name === "Skill") return undefined;
  return result.decided.gate === undefined && gateOf(result.session, ref.key) === undefined ? ctx.later : undefined;
}

/** The context for records written after the answer: their latency ends now, when the call was decided. */
function decidedNow(ctx: HookContext): HookContext {
  const decided = ctx.now();
  return { ...ctx, now: () => decided };
}

/**
 * SPEC §13: the calls of this scope whose results this hook learned to be
 * identical outcomes, told to the model now (the next hook of the scope).
 * Not when the user turned the rule off (`stuck_after` 0).
 */
function identicalNotices(learned: ReadonlyArray<{ outcomes: readonly ScopedOutcome[] }>, ref: ScopeRef, guards: GuardsInForce): string[] {
  if (guards.stuckAfter === 0) return [];
  return learned.flatMap(({ outcomes }) =>
    outcomes.flatMap((o) => (o.scope === ref.key && o.identical ? [identicalNotice(o.tool, o.step, o.identical.ofStep)] : [])),
  );
}

/** What one call is decided with, besides the session. */
interface CallAtHand {
  input: PreToolUseInput;
  ref: ScopeRef;
  ctx: HookContext;
  user: HookSettings;
  /** The governing text found before the lock was taken, if the hook waited for it. */
  waited: GoverningText | undefined;
  /** A Skill call whose skill gates the scope: that skill, and the model of the call's message (for the line). */
  activation: Activation | undefined;
}

interface Activation {
  source: GateSource;
  model: string | undefined;
}

/**
 * A Skill call whose skill opts in: the scope is gated once it loads, so the
 * model gets the line before its first gated call (issue 20). The tier is
 * the call's own message's: the hook waits for that line, outside the lock,
 * as for a gated call (only once per activation). It decides nothing.
 */
async function activationOf(
  input: PreToolUseInput,
  ref: ScopeRef,
  ctx: HookContext,
  read: { waited: GoverningText | undefined; offset: number; none?: boolean | undefined },
): Promise<Activation | undefined> {
  if (input.tool_name !== "Skill") return undefined;
  const source = await skillGateSource(input.tool_input, input.cwd, ctx);
  if (!source) return undefined;
  const text =
    read.waited ??
    (read.none ? { found: false as const, reason: "absent" as const } : governingText(ref, input.tool_use_id, ctx, read.offset));
  return { source, model: text.found ? text.model : undefined };
}

/** Under the state lock: the scope's new lines reduced, the call decided and its events reduced. */
async function decideUnderLock(session: SessionState, call: CallAtHand) {
  const { input, ref, ctx, user } = call;
  const { reduced } = await caughtUp(session, ref, input.agent_type, ctx);
  const caught = reduceAll(reduced.session, [{ kind: "activation_seen", scope: ref.key }, ...userBudgets(user)]);
  const judged = await governingFor(caught.session, call);
  const { governing, hooks, forksAs } = judged;
  const ready = reduceAll(caught.session, confirmation(caught.session, ref, input.tool_use_id, governing));
  const model = governing.found ? governing.model : undefined;
  const protectedTarget = protectedWhereGated(ready.session, call);
  const windowSpend = windowSpendFor(session, ready.session, input.session_id, ctx, user);
  const decided = decideInSession(
    ready.session,
    ref.key,
    {
      tool: input.tool_name,
      input: input.tool_input,
      ...(input.tool_use_id ? { toolUseId: input.tool_use_id } : {}),
      ...(governing.found ? { reportText: governing.text } : {}),
      startedAt: ctx.clock().getTime(),
      ...(protectedTarget ? { protectedTarget } : {}),
      ...(model !== undefined ? { model } : {}),
      ...skillFields(judged),
      ...(windowSpend ? { windowSpend } : {}),
    },
    user,
    ctx.sha256,
  );
  const warning = settingsWarning(ready.session, decided, user);
  const after = reduceAll(ready.session, [
    ...decided.events,
    ...skillWillLoad(ref, { ...skillCallOf(call), hooks, forksAs }, decided.decision),
    ...(warning ? [{ kind: "settings_warned" as const, problem: warning }] : []),
  ]);
  return {
    decided,
    session: after.session,
    learned: [reduced, ready],
    context: lineFor(after.session, ref.key, decided, { user, model: model ?? call.activation?.model, activation: call.activation }),
    ...(warning ? { warning } : {}),
  };
}

/** Only where gated (it reads the file system): a path the call names in the gate's records or Claude Code's configuration (SPEC §6). */
function protectedWhereGated(session: SessionState, { input, ref, ctx }: CallAtHand): string | undefined {
  return gateOf(session, ref.key) ? protectedTargetOf(input, ref, ctx.dataDir, ctx.env) : undefined;
}

/** The call as a Skill call: the skill it loads, when it gates. */
function skillCallOf({ input, activation }: CallAtHand) {
  return { tool: input.tool_name, toolUseId: input.tool_use_id, source: activation?.source };
}

/**
 * The hooks' line for this call (src/engine/context-line.ts): after a call
 * that passes; after a Skill call whose skill gates the scope, as the scope
 * will be once it loads (before the task's first gated call); and with the
 * refusal of a call that had no report, so the rescored one has the numbers.
 */
function lineFor(
  session: SessionState,
  key: ScopeRef["key"],
  decided: SessionDecision,
  told: { user: UserSettings; model: string | undefined; activation: Activation | undefined },
): string | undefined {
  const { decision } = decided;
  const { user, model, activation } = told;
  if (decision.decision === "refused") return decision.rule === "no_report" ? scopeLineOf(session, key, user, model) : undefined;
  if (activation) {
    const loaded = reduceAll(session, [{ kind: "skill_loaded", scope: key, source: activation.source }]).session;
    return scopeLineOf(loaded, key, user, model);
  }
  return decision.decision === "passed" ? scopeLineOf(session, key, user, model) : undefined;
}

/**
 * The text that governs the call and, for a Skill call in a gated scope, what
 * it acts as (its skill is judged first; its text is read only if it acts as
 * more than neutral). Gated only now (a skill seen in the new lines): the text
 * is there, since those lines were written before the call. Already waited
 * (and found nothing): never wait a second time, holding the lock.
 */
async function governingFor(session: SessionState, call: CallAtHand): Promise<Governing> {
  const { input, ref, ctx } = call;
  const gated = gateOf(session, ref.key) !== undefined;
  // Every Skill call is judged: one whose skill registers hooks is remembered even where nothing is gated.
  const verdict = input.tool_name === "Skill" ? await skillVerdict(input, ctx, session.promptAt) : undefined;
  // Where a budget binds, a Skill call counts for what its skill does in every scope: past a spent budget it is refused like the call it acts as (SPEC §12).
  const actsAs = verdict && (gated || budgetsBind(session, ref, call.user)) ? actsAsOf(verdict) : undefined;
  const judged = {
    ...(actsAs ? { actsAs } : {}),
    ...(verdict?.hooksFrom !== undefined ? { hooks: verdict.hooksFrom } : {}),
    ...(verdict?.forksAs !== undefined ? { forksAs: verdict.forksAs } : {}),
  };
  if (call.waited) return { governing: call.waited, ...judged };
  const governing: GoverningText = readsOwnLine(session, call, actsAs)
    ? governingText(ref, input.tool_use_id, ctx, scopeAt(session, ref.key).offset)
    : { found: false, reason: "absent" };
  return { governing, ...judged };
}

/** What a Skill call's skill was judged to do, as the session machine takes it. */
function skillFields({ actsAs, hooks }: Governing): { actsAs?: ActsAs; registersHooks?: string } {
  return { ...(actsAs ? { actsAs } : {}), ...(hooks !== undefined ? { registersHooks: hooks } : {}) };
}

interface Governing {
  governing: GoverningText;
  actsAs?: ActsAs;
  /** The Skill call's skill file, when its frontmatter registers hooks. */
  hooks?: string;
  /** The agent type its skill runs as, when it forks. */
  forksAs?: string;
}

/**
 * What every session of the user spent in the window of a window budget
 * (SPEC §12): the ledger's lines, and this session's growth since its state
 * was last saved (`before`), which this transaction writes when it ends.
 * Read only when such a budget is set.
 */
function windowSpendFor(
  before: SessionState,
  now: SessionState,
  sessionId: string,
  ctx: HookContext,
  user: UserSettings,
): Spend | undefined {
  if (user.session?.windowCostBudgetUsd === undefined) return undefined;
  const t = ctx.clock().getTime();
  const line = ledgerLine(t, sessionSpend(before), sessionSpend(now));
  return windowSpend(ctx.dataDir, t, windowHoursOf(user.session), line ? { sessionId, line } : undefined);
}

/**
 * Invalid user settings never block an ungated scope (SPEC §10): the user is
 * told once per session, on screen, what is wrong and how to fix it, and the
 * valid ones still apply. A gated scope refuses with the same words instead
 * (a refusal the user sees too), while a budget or the prices are invalid.
 */
function settingsWarning(session: SessionState, decided: SessionDecision, user: HookSettings): string | undefined {
  if (!user.warning || session.settingsWarned === user.warning) return undefined;
  const { decision } = decided;
  if (decision.decision === "refused" && decision.rule === "budget_invalid") return undefined;
  return user.warning;
}

function withWarning(result: HookResult, warning: string | undefined): HookResult {
  if (!warning) return result;
  const told = `utility: ${warning} Until then the plugin goes on without it; the valid settings still apply.`;
  return { ...result, output: { ...(result.output ?? {}), systemMessage: told }, stderr: told };
}

/** The user's budgets, kept for `/utility status` (its command has no such environment). */
function userBudgets(user: HookSettings): SessionEvent[] {
  return [{ kind: "user_budgets", budgets: user.budgets }];
}

/**
 * The hook read the call's own line in a gated scope: every result of an
 * earlier message is written before it, so a refused call of an earlier
 * message with no real result never ran (src/engine/session/scope-reducer.ts).
 */
function confirmation(session: SessionState, ref: ScopeRef, toolUseId: string | undefined, governing: GoverningText): SessionEvent[] {
  if (!toolUseId || !governing.found || !gateOf(session, ref.key)) return [];
  return [{ kind: "call_line_seen", scope: ref.key, toolUseId, messageId: governing.messageId }];
}

/**
 * The model's own text before this call in its assistant message, from the
 * scope's own transcript only (SPEC §4), waiting (bounded) for Claude Code to
 * write the call's line. A transcript that is no regular file is trouble, at once.
 */
function governingText(ref: ScopeRef, toolUseId: string | undefined, ctx: HookContext, offset: number): GoverningText {
  if (!toolUseId) return { found: false, reason: "absent" };
  openOrTrouble(ref, offset);
  return ctx.waitForText(ref, toolUseId);
}

/**
 * Does this call need the transcript's newest lines? When the scope is gated
 * (the report governs the call), when a skill may just have been activated
 * (its lines may not be written yet), and when an ungated call could repeat
 * one whose result is not read yet (docs/decisions/0001). Others never wait.
 */
async function needsTranscript(
  input: PreToolUseInput,
  ref: ScopeRef,
  ctx: HookContext,
  user: HookSettings,
): Promise<{ needed: boolean; offset: number; none?: boolean }> {
  const stored = ctx.store.read(input.session_id);
  // No state yet: the main scope may hold an activation from before the plugin saw it.
  if (!stored && ref.kind === "main") return { needed: true, offset: 0 };
  const session = stored ?? storedSession(ctx, input.session_id);
  // A skill activated in lines not read yet is awaited (a Skill call or a slash command said so): no need to read them here.
  const arrived = reduceAll(session, await arrivalEvents(session, ref, input.agent_type, ctx)).session;
  const scope = scopeAt(arrived, ref.key);
  const needed = waitsForLine(arrived, ref, input, ctx, user);
  // No transcript will come (issue 31, hole 11): nothing to wait for; a gated scope refuses, with the reason (./no-transcript.ts).
  if (waitsInVain(needed, arrived, ref.key, input.transcript_path, ctx)) return { needed: false, offset: scope.offset, none: true };
  return { needed, offset: scope.offset };
}

/** See needsTranscript. A planning call needs no report: it waits only where a spend budget binds (its message's spend, as for every call there). */
function waitsForLine(arrived: SessionState, ref: ScopeRef, input: PreToolUseInput, ctx: HookContext, user: HookSettings): boolean {
  return (
    (gateOf(arrived, ref.key) !== undefined && (!isPlanning(input) || atStepLimit(arrived, ref))) ||
    budgetsBind(arrived, ref, user) ||
    mayBeUnprovenRepeat(arrived, ref, input, ctx) ||
    stillAwaiting(scopeAt(arrived, ref.key), () => promptKeysSince(arrived, ref))
  );
}

/**
 * A budget binds the scope (the user's, or its task's frontmatter): the spend
 * it is checked against must include every message written before the call,
 * so the call waits for its own line, as a gated one does (SPEC §12).
 */
function budgetsBind(session: SessionState, ref: ScopeRef, user: HookSettings): boolean {
  return hasBudget(user.budgets) || hasSessionBudget(user.session) || hasBudget(frontmatterBudgetsOf(session, ref.key));
}

/** Under the gate, a call reads its own line for its report: a Skill call acting as more than text, any other call but planning (and planning at the step limit). */
function readsOwnLine(session: SessionState, { input, ref }: CallAtHand, actsAs: ActsAs | undefined): boolean {
  if (gateOf(session, ref.key) === undefined) return false;
  if (input.tool_name === "Skill") return actsAs !== undefined;
  return !isPlanning(input) || atStepLimit(session, ref);
}

/**
 * A gated scope at or past its step budget: a planning call's decision then
 * depends on the step count (capped past it), which a call refused or denied
 * in lines not read yet may lower, so it reads up to its own line as a gated call does.
 */
function atStepLimit(session: SessionState, ref: ScopeRef): boolean {
  const gate = gateOf(session, ref.key);
  return gate !== undefined && scopeAt(session, ref.key).step >= gate.config.maxSteps;
}

/** A planning tool's call (a Skill call is judged by its skill instead): it needs no report. */
function isPlanning(input: PreToolUseInput): boolean {
  return isNeutralTool(input.tool_name) && input.tool_name !== "Skill";
}

/**
 * A planning call is decided only where a budget may be spent (SPEC §12: past
 * one, planning calls are capped, src/engine/gate-budgets.ts): the user set a
 * budget, or the scope, as last stored, is gated (its steps), may be gated
 * by a skill loaded since, or is bound by its task's frontmatter budgets. Elsewhere it is answered at once, as before.
 * It waits for its own line only where a spend budget binds, or a gated scope is at its step limit (waitsForLine).
 */
function mayWindDown(input: PreToolUseInput, ctx: HookContext): boolean {
  try {
    const user = settingsOf(ctx);
    if (hasBudget(user.budgets) || hasSessionBudget(user.session)) return true;
    const stored = ctx.store.read(input.session_id);
    const key = scopeOf(input).key;
    return (
      stored !== undefined &&
      (gateOf(stored, key) !== undefined || mayGate(scopeAt(stored, key)) || hasBudget(frontmatterBudgetsOf(stored, key)))
    );
  } catch {
    return false; // trouble reading: the planning call goes on undecided, as it did before budgets capped it
  }
}

/** A skill may have loaded in lines not read yet (a Skill call let through, a slash command typed): the scope may be gated by now. */
function mayGate(scope: ReturnType<typeof scopeAt>): boolean {
  return scope.awaitingActivation === true || Object.keys(scope.skillCalls ?? {}).length > 0;
}

/** An ungated call that could repeat an earlier one while calls are still pending: their results may be in lines not flushed yet. */
function mayBeUnprovenRepeat(session: SessionState, ref: ScopeRef, input: PreToolUseInput, ctx: HookContext): boolean {
  const scope = scopeAt(session, ref.key);
  const pending = Object.values(scope.pending);
  if (pending.length === 0) return false;
  const digest = callDigest(input.tool_name, input.tool_input, ctx.sha256);
  const same = (c: { tool: string; digest: string }) => c.tool === input.tool_name && c.digest === digest;
  return pending.some(same) || scope.history.some(same);
}

/**
 * What Claude Code is told: a refusal ("deny", with the reason the model
 * reads), the user asked (SPEC §14: "ask", with the reason the user reads;
 * in `-p` the model reads it as a refusal), or a line of context. Never
 * "allow". Identical-outcome notices go with whichever it is.
 */
function answer(decided: SessionDecision, context: string | undefined, notices: readonly string[]): HookResult {
  const { decision } = decided;
  const told = notices.length > 0 ? `\n${notices.join("\n")}` : "";
  if (decision.decision === "refused") return permission("deny", `utility gate: ${decision.reason}${context ? `\n${context}` : ""}${told}`);
  if (decision.decision === "passed" && decision.fallback) return permission("ask", `${decision.fallback.reason}${told}`);
  const hints = [context ?? (decision.decision === "observed" ? decision.hint : undefined), ...notices].filter(
    (h): h is string => h !== undefined,
  );
  return hints.length > 0 ? { output: { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: hints.join("\n") } } } : {};
}

function permission(permissionDecision: "deny" | "ask", permissionDecisionReason: string): HookResult {
  return { output: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision, permissionDecisionReason } } };
}

function record(ctx: HookContext, where: RecordScope & { input: PreToolUseInput }, decided: SessionDecision, started: number): LogRecord {
  const { decision } = decided;
  const { input, ref, session } = where;
  const spend = recordSpendOf(session, ref, input.tool_use_id);
  return {
    ...baseRecord(ctx, "PreToolUse", where, started),
    tool: input.tool_name,
    ...(input.tool_use_id ? { toolUseId: input.tool_use_id } : {}),
    inputDigest: decided.digest,
    decision: decision.decision === "refused" || decision.decision === "passed" ? decision.decision : "observed",
    ...(decision.decision === "refused" ? { rule: decision.rule, reason: decision.reason } : {}),
    ...(decision.decision === "passed" && decision.fallback ? { fallback: decision.fallback.to, reason: decision.fallback.reason } : {}),
    ...(decided.stuck ? { stuck: { steps: decided.stuck.map((run) => run.at) } } : {}),
    ...reportFields(decision),
    ...(decided.repeat
      ? { repeat: { ofStep: decided.repeat.at, ...(decided.repeat.toolUseId ? { toolUseId: decided.repeat.toolUseId } : {}) } }
      : {}),
    ...(spend ? { spend } : {}),
  };
}

/** The usage of the assistant message that made this call, when its line has been read (SPEC §8). */
function recordSpendOf(session: SessionState, ref: ScopeRef, toolUseId: string | undefined): RecordSpend | undefined {
  const found = toolUseId ? callMessageOf(scopeAt(session, ref.key), toolUseId) : undefined;
  return found
    ? { messageId: found.messageId, ...(found.model !== undefined ? { model: found.model } : {}), tokens: found.tokens }
    : undefined;
}

/** The report the decision read, as logged, and the selection it claims; nothing when there was none. */
function reportFields(decision: SessionDecision["decision"]): Pick<LogRecord, "report" | "selection"> {
  const evaluation = decision.decision === "passed" || decision.decision === "refused" ? decision.evaluation : undefined;
  const report = evaluation?.report ?? (decision.decision === "refused" ? decision.report : undefined);
  if (!report) return {};
  return {
    report: loggedReport(report, evaluation),
    selection: { strategy: "reported" as const, candidates: report.candidates?.length ?? 1, chosen: report.action },
  };
}
