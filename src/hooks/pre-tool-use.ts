import { planCall, identicalNotices } from "../engine/session/call-plan.js";
import { atStepLimit, budgetsBind, isPlanning, mayBeUnprovenRepeat, planningDecided, readsOwnLine } from "../engine/session/call-waits.js";
import type { SessionDecision, UserSettings } from "../engine/session/decide.js";
import type { SessionEvent } from "../engine/session/events.js";
import { reduceAll, scopeAt } from "../engine/session/reduce.js";
import type { GateSource, SessionState } from "../engine/session/state.js";
import { gateOf, sessionSpend, stillAwaiting } from "../engine/session/views.js";
import { ledgerLine } from "../engine/ledger.js";
import { windowHoursOf } from "../engine/session-budget.js";
import type { Spend } from "../engine/spend.js";
import type { ActsAs } from "../engine/tools.js";
import { actsAsOf } from "../skills/classify.js";
import { windowSpend } from "../state/ledger.js";
import type { Later } from "../state/store.js";
import type { GoverningText } from "../transcript/queries.js";
import type { HookContext } from "./context.js";
import { failClosed } from "./fail-closed.js";
import type { PreToolUseInput } from "./input.js";
import { waitsInVain } from "./no-transcript.js";
import { answer, record, withWarning } from "./pre-tool-use-answer.js";
import { protectedTargetOf } from "./protected.js";
import { logOutcomes, type HookResult } from "./records.js";
import { scopeOf, type ScopeRef } from "./scope.js";
import { arrivalEvents, caughtUp, promptKeysSince, storedSession } from "./session-io.js";
import { settingsOf, type HookSettings } from "./settings.js";
import { skillGateSource, skillVerdict } from "./skill-call.js";
import { logSwitches } from "./switches.js";
import { openOrTrouble } from "./transcript.js";

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
  if (isPlanning(input.tool_name) && !mayWindDown(input, ctx)) return {};
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
  const notices = identicalNotices(done.learned, ref.key, done.decided.guards);
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

/** Under the state lock: the scope's new lines reduced, the call planned (src/engine/session/call-plan.ts). */
async function decideUnderLock(session: SessionState, call: CallAtHand) {
  const { input, ref, ctx, user } = call;
  const { reduced } = await caughtUp(session, ref, input.agent_type, ctx);
  const caught = reduceAll(reduced.session, userBudgets(user));
  const { governing, actsAs, hooks, forksAs } = await governingFor(caught.session, call);
  // Only where gated (it reads the file system): a path the call names in the gate's records or Claude Code's configuration.
  const protectedTarget = gateOf(caught.session, ref.key) ? protectedTargetOf(input, ref, ctx.dataDir, ctx.env) : undefined;
  const windowSpend = windowSpendFor(session, caught.session, input.session_id, ctx, user);
  const plan = planCall(
    caught.session,
    ref.key,
    {
      tool: input.tool_name,
      input: input.tool_input,
      ...(input.tool_use_id ? { toolUseId: input.tool_use_id } : {}),
      ...(governing.found ? { text: governing } : {}),
      startedAt: ctx.clock().getTime(),
      ...(protectedTarget ? { protectedTarget } : {}),
      ...(call.activation?.model !== undefined ? { model: call.activation.model } : {}),
      ...(actsAs ? { actsAs } : {}),
      skill: { source: call.activation?.source, hooks, forksAs },
      ...(windowSpend ? { windowSpend } : {}),
    },
    user,
    ctx.sha256,
  );
  return { ...plan, learned: [reduced, plan.confirmed] };
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
  const actsAs = verdict && (gated || budgetsBind(session, ref.key, call.user)) ? actsAsOf(verdict) : undefined;
  const judged = {
    ...(actsAs ? { actsAs } : {}),
    ...(verdict?.hooksFrom !== undefined ? { hooks: verdict.hooksFrom } : {}),
    ...(verdict?.forksAs !== undefined ? { forksAs: verdict.forksAs } : {}),
  };
  if (call.waited) return { governing: call.waited, ...judged };
  const governing: GoverningText = readsOwnLine(session, ref.key, input.tool_name, actsAs)
    ? governingText(ref, input.tool_use_id, ctx, scopeAt(session, ref.key).offset)
    : { found: false, reason: "absent" };
  return { governing, ...judged };
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

/** The user's budgets, kept for `/utility status` (its command has no such environment). */
function userBudgets(user: HookSettings): SessionEvent[] {
  return [{ kind: "user_budgets", budgets: user.budgets, ...(user.session ? { session: user.session } : {}) }];
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
    (gateOf(arrived, ref.key) !== undefined && (!isPlanning(input.tool_name) || atStepLimit(arrived, ref.key))) ||
    budgetsBind(arrived, ref.key, user) ||
    mayBeUnprovenRepeat(arrived, ref.key, input.tool_name, input.tool_input, ctx.sha256) ||
    stillAwaiting(scopeAt(arrived, ref.key), () => promptKeysSince(arrived, ref))
  );
}

/**
 * A planning call is decided only where a budget may be spent
 * (src/engine/session/call-waits.ts); elsewhere it is answered at once. It
 * waits for its own line only where a spend budget binds, or a gated scope is
 * at its step limit (waitsForLine).
 */
function mayWindDown(input: PreToolUseInput, ctx: HookContext): boolean {
  try {
    return planningDecided(ctx.store.read(input.session_id), scopeOf(input).key, settingsOf(ctx));
  } catch {
    return false; // trouble reading: the planning call goes on undecided, as it did before budgets capped it
  }
}
