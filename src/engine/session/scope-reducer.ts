import { launchesAgents } from "../tools.js";
import type { TokenCounts } from "../spend.js";
import type { ScopeEvent } from "./scope-events.js";
import type { RanCallDraft, ScopeDraft, ScopeState } from "./state.js";
import { endJob, isJobStop, type JobRef } from "../background.js";
import { identicalOutcomeOf } from "../no-progress.js";
import { copyScope, idKey, own, startApply } from "./scope-copy.js";
import { callMessageOf, spendOf, usage } from "./scope-usage.js";

/**
 * The reducer of one scope's own events (the session machine, ./reduce.ts,
 * hands them on). Everything the hooks and replay know about a scope's steps,
 * pending calls, history, compactions, background jobs and spend is computed
 * here and nowhere else. Pure: the input state is never changed; no I/O,
 * clock or randomness.
 *
 * Evidence: a transcript line is something a model's shell could have
 * appended. A line saying Claude Code refused a call (`denied`) therefore
 * refunds nothing by itself: the call stays counted until a later message's
 * own call line is read by a hook (`confirmed`; Claude Code writes every
 * result of a message before the next message, and that line's id is
 * unknown to any shell beforehand) with no real result for it, or the turn
 * ends. A real result always wins over a denial line.
 */

/** How many calls a scope remembers for exact repeats; older ones age out (the same for the hooks and replay). */
export const HISTORY_LIMIT = 256;

/** A step's outcome (SPEC §8), joined to its decision by tool_use_id. */
export interface Outcome {
  toolUseId: string;
  tool: string;
  /** The step it was (its decision's step). */
  step: number;
  /** denied: Claude Code refused it after the gate let it through; it never ran and is no step. */
  outcome: "ran" | "failed" | "denied";
  resultBytes: number;
  durationMs?: number;
  /** The usage of the message that made the call, when known by then. */
  tokens?: TokenCounts;
  /** It returned byte for byte what the same call returned at its last run and was no exact repeat (SPEC §13): that run; `retry`: that run had failed. */
  identical?: { ofStep: number; ofTask?: number; toolUseId?: string; retry?: true };
}

export interface Reduced {
  state: ScopeState;
  /** Outcomes learned from these events, in order. */
  outcomes: Outcome[];
}

/**
 * The scope after `events`. `inPlace`: the caller gives `state` up (it reads
 * only the returned state from now on), so it is changed in place, not copied.
 */
export function applyEvents(state: ScopeState, events: readonly ScopeEvent[], inPlace = false): Reduced {
  startApply(inPlace);
  const scope = copyScope(state);
  const outcomes: Outcome[] = [];
  for (const event of events) apply(scope, event, outcomes);
  return { state: scope as ScopeState, outcomes };
}

export function applyEvent(state: ScopeState, event: ScopeEvent): Reduced {
  return applyEvents(state, [event]);
}

function apply(scope: ScopeDraft, event: ScopeEvent, outcomes: Outcome[]): void {
  switch (event.kind) {
    case "prompt":
      return prompted(scope, event);
    case "call":
      return decided(scope, event);
    case "result":
      return resulted(scope, event, outcomes);
    case "denied":
      return deniedSeen(scope, event.toolUseId);
    case "confirmed":
      return confirmed(scope, event.messageId, outcomes);
    case "ran_unchecked":
      return ranUnchecked(scope, event);
    case "background_ended":
      return backgroundEnded(scope, jobRefOf(event));
    case "usage":
      return usage(scope, event);
    case "turn_end":
      return turnEnd(scope, event.subagent, outcomes);
    default:
      return remembered(scope, event);
  }
}

/** What the scope only remembers: a compaction (nothing before is a repeat any more), its start, the budgets told (SPEC §16). */
function remembered(scope: ScopeDraft, event: Extract<ScopeEvent, { kind: "compact" | "subagent_started" | "budget_told" }>): void {
  if (event.kind === "compact") scope.history = [];
  // A subagent keeps the root task it was first launched in.
  else if (event.kind === "subagent_started") scope.rootTask ??= event.rootTask;
  else scope.budgetTold = { task: event.task, levels: { ...event.levels } };
}

function prompted(scope: ScopeDraft, event: Extract<ScopeEvent, { kind: "prompt" }>): void {
  if (event.typed) startTask(scope);
}

function ranUnchecked(scope: ScopeDraft, event: Extract<ScopeEvent, { kind: "ran_unchecked" }>): void {
  remember(scope, {
    tool: event.tool,
    digest: event.digest,
    effect: event.effect,
    at: scope.step,
    task: scope.task,
    ...(event.toolUseId !== undefined ? { toolUseId: event.toolUseId } : {}),
    ...(event.failed ? { failed: true } : {}),
    ...(event.result !== undefined ? { result: event.result } : {}),
  });
}

function jobRefOf(event: Extract<ScopeEvent, { kind: "background_ended" }>): JobRef {
  return {
    ...(event.toolUseId !== undefined ? { toolUseId: event.toolUseId } : {}),
    ...(event.jobId !== undefined ? { jobId: event.jobId } : {}),
  };
}

/** A typed prompt: a new task. Steps, refusals, skills and spend start over; calls that ran stay remembered (repeats are per compaction, not per task). */
function startTask(scope: ScopeDraft): void {
  Object.assign(scope, { task: scope.task + 1, step: 0, refusals: 0, sources: [], pending: {} });
  delete scope.lastAction;
  delete scope.stopBlocked;
  delete scope.awaitingActivation;
  delete scope.awaitingPrompt;
  delete scope.skillCalls;
  delete scope.spend;
  delete scope.windDown;
}

function decided(scope: ScopeDraft, event: Extract<ScopeEvent, { kind: "call" }>): void {
  windingDown(scope, event);
  if (event.decision === "neutral") return;
  if (event.decision === "refused") {
    scope.refusals += 1;
    return;
  }
  scope.step += 1;
  if (event.action) scope.lastAction = event.action;
  const spend = spendOf(scope);
  spend.toolCalls += 1;
  if (launchesAgents(event.tool) || event.actsAs === "delegate") spend.agentsLaunched += 1;
  if (!event.toolUseId) return;
  const tokens = messageTokensOf(scope, event.toolUseId);
  own(scope, "pending")[idKey(event.toolUseId)] = {
    tool: event.tool,
    digest: event.digest,
    effect: event.effect,
    at: scope.step,
    task: scope.task,
    toolUseId: event.toolUseId,
    ...(event.startedAt !== undefined ? { startedAt: event.startedAt } : {}),
    ...(event.jobOf !== undefined ? { jobOf: event.jobOf } : {}),
    ...(event.exactRepeat ? { exactRepeat: true } : {}),
    ...(tokens ? { tokens } : {}),
  };
}

/** A planning or stopping call past a spent budget: remembered for the task, so that their number is capped. */
function windingDown(scope: ScopeDraft, event: Extract<ScopeEvent, { kind: "call" }>): void {
  if (!event.pastBudget || event.decision === "refused") return;
  const call = { tool: event.tool, digest: event.digest, ...(event.toolUseId !== undefined ? { toolUseId: event.toolUseId } : {}) };
  scope.windDown = [...(scope.windDown ?? []), call].slice(-HISTORY_LIMIT);
}

/** The usage of the message that made a call, when its line was read already. */
function messageTokensOf(scope: ScopeDraft, toolUseId: string): TokenCounts | undefined {
  const found = callMessageOf(scope as ScopeState, toolUseId);
  return found?.tokens;
}

/** The call finished: from pending into the history repeats are judged against (SPEC §7); its outcome is learned now, once. */
function resulted(scope: ScopeDraft, event: Extract<ScopeEvent, { kind: "result" }>, outcomes: Outcome[]): void {
  // Own keys only: a tool_use_id such as "constructor" must not find what every object inherits.
  const key = idKey(event.toolUseId);
  if (!Object.hasOwn(scope.pending, key)) return;
  const call = scope.pending[key]!;
  delete own(scope, "pending")[key];
  const { jobOf } = call;
  const ran = ranOf(call, event);
  // Compared before it joins the history: with the same call's last run (SPEC §13); an exact repeat's same result is no news.
  const identical = call.exactRepeat ? undefined : identicalOutcomeOf(scope.history, ran);
  remember(scope, ran);
  // A stop of a background job, or a poll that shows it finished, records its end (SPEC §7).
  if (jobOf !== undefined && !event.failed && (isJobStop(call.tool) || event.finished === true)) backgroundEnded(scope, { jobId: jobOf });
  outcomes.push({ ...resultOutcome(call, event), ...(identical ? { identical: identicalRef(identical, call.task) } : {}) });
}

/** A pending call as the history keeps it once its result came: what it returned (a digest), the job it launched, whether it failed. */
function ranOf(call: RanCallDraft, event: Extract<ScopeEvent, { kind: "result" }>): RanCallDraft {
  const { startedAt: _started, tokens: _tokens, deniedSeen: _denied, jobOf: _jobOf, exactRepeat: _repeat, ...ran } = call;
  const launched = ran.effect.kind === "exec" && ran.effect.background === true && event.jobId !== undefined ? { jobId: event.jobId } : {};
  return {
    ...ran,
    ...launched,
    ...(event.digest !== undefined ? { result: event.digest } : {}),
    ...(event.failed ? { failed: true } : {}),
  };
}

/** The earlier run an identical outcome repeats: its step, and its task when it is not the call's. */
function identicalRef(earlier: RanCallDraft, task: number | undefined): NonNullable<Outcome["identical"]> {
  const ofTask = earlier.task !== undefined && earlier.task !== task ? { ofTask: earlier.task } : {};
  const retry = earlier.failed === true ? { retry: true as const } : {};
  return { ofStep: earlier.at, ...ofTask, ...(earlier.toolUseId !== undefined ? { toolUseId: earlier.toolUseId } : {}), ...retry };
}

function resultOutcome(call: ScopeState["pending"][string], event: Extract<ScopeEvent, { kind: "result" }>): Outcome {
  const durationMs =
    event.durationMs ??
    (call.startedAt !== undefined && event.endedAt !== undefined ? Math.max(0, event.endedAt - call.startedAt) : undefined);
  return {
    toolUseId: event.toolUseId,
    tool: call.tool,
    step: call.at,
    outcome: event.failed ? "failed" : "ran",
    resultBytes: event.bytes,
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(call.tokens ? { tokens: call.tokens } : {}),
  };
}

/** A line says Claude Code refused the call: remembered, not refunded (a shell could have written it; see the header). */
function deniedSeen(scope: ScopeDraft, toolUseId: string): void {
  const key = idKey(toolUseId);
  if (!Object.hasOwn(scope.pending, key)) return;
  own(scope, "pending")[key] = { ...scope.pending[key]!, deniedSeen: true };
}

/**
 * A hook read the own line of a call in message `messageId`: every result of
 * an earlier message is written by now, so a refused call of an earlier
 * message that shows no real result never ran. Calls of the same message, or
 * of a message not known, wait for the turn's end.
 */
function confirmed(scope: ScopeDraft, messageId: string, outcomes: Outcome[]): void {
  for (const [key, call] of Object.entries(scope.pending)) {
    const made = scope.callMessages && Object.hasOwn(scope.callMessages, key) ? scope.callMessages[key] : undefined;
    if (call.deniedSeen && made !== undefined && made !== messageId) refund(scope, key, outcomes);
  }
}

/** A call let through never ran (Claude Code refused it): it is no step, and its outcome is `denied`. `key`: its key in `pending`. */
function refund(scope: ScopeDraft, key: string, outcomes: Outcome[]): void {
  const call = scope.pending[key]!;
  delete own(scope, "pending")[key];
  scope.step = Math.max(0, scope.step - 1);
  if (scope.spend) scope.spend.toolCalls = Math.max(0, scope.spend.toolCalls - 1);
  outcomes.push({
    toolUseId: call.toolUseId ?? key,
    tool: call.tool,
    step: call.at,
    outcome: "denied",
    resultBytes: 0,
    ...(call.tokens ? { tokens: call.tokens } : {}),
  });
}

function remember(scope: ScopeDraft, call: RanCallDraft): void {
  const history = own(scope, "history");
  history.push(call);
  if (history.length > HISTORY_LIMIT) history.splice(0, history.length - HISTORY_LIMIT);
}

/**
 * A background job ended (engine/background.ts): the call that launched it
 * no longer blocks every later repeat, and what it changed up to its end
 * still counts as in between. One still pending (its launch result not read
 * yet) becomes a plain exec too.
 */
function backgroundEnded(scope: ScopeDraft, end: JobRef): void {
  scope.history = endJob(scope.history, end, scope.step);
  const key = end.toolUseId === undefined ? undefined : idKey(end.toolUseId);
  if (key === undefined || !Object.hasOwn(scope.pending, key)) return;
  const call = scope.pending[key]!;
  if (call.effect.kind === "exec" && call.effect.background) own(scope, "pending")[key] = { ...call, effect: { kind: "exec" } };
}

/** The loop ended: what is still pending was let through but never ran (refused by Claude Code's permissions, interrupted): not a step. */
function turnEnd(scope: ScopeDraft, subagent: boolean, outcomes: Outcome[]): void {
  for (const [id, call] of Object.entries(scope.pending)) {
    if (call.deniedSeen) refund(scope, id, outcomes);
  }
  const never = Object.keys(scope.pending).length;
  scope.step = Math.max(0, scope.step - never);
  if (scope.spend) scope.spend.toolCalls = Math.max(0, scope.spend.toolCalls - never);
  scope.pending = {};
  if (subagent) Object.assign(scope, { ended: true, history: [] });
}

/** Calls let through but never run, as the last turn_end will take off the count. */
export function neverRan(scope: ScopeState): number {
  return Object.keys(scope.pending).length;
}
