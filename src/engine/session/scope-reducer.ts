import { launchesAgents } from "../tools.js";
import { addSpend, addTokens, sumSpend, zeroSpend, zeroTokens, type Spend, type TokenCounts } from "../spend.js";
import type { ScopeEvent } from "./scope-events.js";
import type { RanCallDraft, ScopeDraft, ScopeState } from "./state.js";
import { endJob, isJobStop, type JobRef } from "../background.js";
import { identicalOutcomeOf } from "../no-progress.js";

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

/**
 * A tool_use_id or message id as a key of the state's maps. `__proto__` is
 * the one name a plain object cannot hold as a key (an assignment sets the
 * prototype, and the schema drops it when the state is read back): it is
 * kept under another name. Every read and write of those maps goes through it.
 */
export function idKey(id: string): string {
  return id === "__proto__" ? "\u0000__proto__" : id;
}

/** How many calls a scope remembers for exact repeats; older ones age out (the same for the hooks and replay). */
export const HISTORY_LIMIT = 256;
/** How many assistant messages' usage a scope remembers, to count a message spanning several lines once. */
export const MESSAGE_MEMORY = 32;

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
  /** It returned byte for byte what the same call returned at its last run, although something ran in between (SPEC §13): that run. */
  identical?: { ofStep: number; toolUseId?: string };
}

export interface Reduced {
  state: ScopeState;
  /** Outcomes learned from these events, in order. */
  outcomes: Outcome[];
}

/**
 * A copy of the scope's own fields, so the caller's state is never touched.
 * Its maps and lists (pending, history, the message memories) stay shared
 * with the caller's state until an event changes one: `own` copies it then,
 * once per applyEvents (copy on write). Copying them all for every event cost
 * replay about 40% of its time (issue 23). A transient reduction (see
 * Reduction options in ./reduce.ts) copies nothing: its caller gave the state up.
 */
function copyScope(state: ScopeState): ScopeDraft {
  if (transient) return state as ScopeDraft;
  const copy = { ...state } as ScopeDraft;
  if (state.spend) copy.spend = copySpend(state.spend);
  return copy;
}

type Shared = "pending" | "history" | "messages" | "messageModels" | "callMessages";

/** The maps and lists the current applyEvents made (each a copy of its input's, or new): only these may change in place. */
let madeHere = new WeakSet<object>();
/** The current applyEvents changes its state in place (its caller will not read the state it passed again). */
let transient = false;

/** The scope's `field`, made its own (a copy of the shared one, or a new one) before it is changed in place. */
function own<K extends Shared>(scope: ScopeDraft, field: K): NonNullable<ScopeDraft[K]> {
  const value = scope[field] as object | undefined;
  if (value !== undefined && (transient || madeHere.has(value))) return value as NonNullable<ScopeDraft[K]>;
  const copy = Array.isArray(value)
    ? [...(value as unknown[])]
    : copyRecord((value ?? (field === "history" ? [] : {})) as Record<string, unknown>);
  madeHere.add(copy);
  (scope as Record<K, unknown>)[field] = copy;
  return copy as NonNullable<ScopeDraft[K]>;
}

/**
 * A record's own entries, in order. Id-keyed records are in V8's dictionary
 * mode, which `{ ...record }` copies about four times slower than this loop.
 * A `__proto__` key (a state file written by hand) is defined, never assigned.
 */
function copyRecord(record: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (key === "__proto__") Object.defineProperty(copy, key, { value: record[key], enumerable: true, writable: true, configurable: true });
    else copy[key] = record[key];
  }
  return copy;
}

function copySpend(spend: NonNullable<ScopeState["spend"]>): Spend {
  const byModel: Spend["byModel"] = {};
  for (const [model, tokens] of Object.entries(spend.byModel)) byModel[model] = { ...tokens };
  return { ...spend, tokens: { ...spend.tokens }, byModel };
}

/**
 * The scope after `events`. `inPlace`: the caller gives `state` up (it reads
 * only the returned state from now on), so it is changed in place, not copied.
 */
export function applyEvents(state: ScopeState, events: readonly ScopeEvent[], inPlace = false): Reduced {
  madeHere = new WeakSet();
  transient = inPlace;
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
    case "compact":
      scope.history = [];
      return;
    case "background_ended":
      return backgroundEnded(scope, jobRefOf(event));
    case "usage":
      return usage(scope, event);
    case "subagent_started":
      return subagentStarted(scope, event);
    case "turn_end":
      return turnEnd(scope, event.subagent, outcomes);
  }
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

function subagentStarted(scope: ScopeDraft, event: Extract<ScopeEvent, { kind: "subagent_started" }>): void {
  if (scope.rootTask === undefined) scope.rootTask = event.rootTask;
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
  outcomes.push({ ...resultOutcome(call, event), ...(identical ? { identical: identicalRef(identical) } : {}) });
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

function identicalRef(earlier: RanCallDraft): NonNullable<Outcome["identical"]> {
  return { ofStep: earlier.at, ...(earlier.toolUseId !== undefined ? { toolUseId: earlier.toolUseId } : {}) };
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

/**
 * An assistant line's usage. A message spans several lines sharing its id, and
 * Claude Code writes its counts as they grow (output tokens rise line by
 * line): each message is counted once, at the largest count seen per field.
 */
function usage(scope: ScopeDraft, event: Extract<ScopeEvent, { kind: "usage" }>): void {
  const message = idKey(event.messageId);
  const counted = scope.messages && Object.hasOwn(scope.messages, message) ? scope.messages[message]! : zeroTokens();
  const largest: TokenCounts = {
    input: Math.max(counted.input, event.tokens.input),
    output: Math.max(counted.output, event.tokens.output),
    cacheCreation: Math.max(counted.cacheCreation, event.tokens.cacheCreation),
    cacheRead: Math.max(counted.cacheRead, event.tokens.cacheRead),
  };
  const added = subtract(largest, counted);
  const spend = spendOf(scope);
  addTokens(spend.tokens, added);
  addTokens((spend.byModel[event.model] ??= zeroTokens()), added);
  // The memories are changed only when this line tells them something new (most lines of a message repeat it): copying them is the cost.
  if (!isNewest(scope.messages, message) || !sameCounts(largest, counted))
    putNewest(own(scope, "messages"), message, largest, MESSAGE_MEMORY);
  if (!isNewest(scope.messageModels, message) || scope.messageModels![message] !== event.model)
    putNewest(own(scope, "messageModels"), message, event.model, MESSAGE_MEMORY);
  const ids = event.toolUseIds.map(idKey);
  if (!newestAre(scope.callMessages, ids, event.messageId)) {
    const calls = own(scope, "callMessages");
    for (const key of ids) putNewest(calls, key, event.messageId, MESSAGE_MEMORY * 4);
  }
  refreshPending(scope, event.messageId, largest);
}

/** Sets `key` as the record's newest entry (insertion order: newest last) and forgets the oldest past `keep`. */
function putNewest<V>(record: Record<string, V>, key: string, value: V, keep: number): void {
  delete record[key];
  record[key] = value;
  forgetOldest(record, keep);
}

/** A call decided before its line was read holds the counts it had then: bring them up to date. */
function refreshPending(scope: ScopeDraft, messageId: string, largest: TokenCounts): void {
  const calls = scope.callMessages!;
  for (const [key, call] of Object.entries(scope.pending))
    if (Object.hasOwn(calls, key) && calls[key] === messageId && !(call.tokens && sameCounts(call.tokens, largest)))
      own(scope, "pending")[key] = { ...call, tokens: largest };
}

/** Is `key` the newest (last) key of the record? */
function isNewest(record: Readonly<Record<string, unknown>> | undefined, key: string): boolean {
  return record !== undefined && Object.hasOwn(record, key) && Object.keys(record).at(-1) === key;
}

/** Are `keys` the record's newest keys, in this order, each naming `value`? (Re-adding them would change nothing.) */
function newestAre(record: Readonly<Record<string, string>> | undefined, keys: readonly string[], value: string): boolean {
  if (record === undefined) return false;
  if (!keys.every((key) => Object.hasOwn(record, key) && record[key] === value)) return false;
  const all = Object.keys(record);
  return keys.every((key, i) => all[all.length - keys.length + i] === key);
}

function sameCounts(a: TokenCounts, b: TokenCounts): boolean {
  return a.input === b.input && a.output === b.output && a.cacheCreation === b.cacheCreation && a.cacheRead === b.cacheRead;
}

/** The message that made a call, its usage and model, when its line was read (SPEC §8: a step's tokens). */
export function callMessageOf(
  scope: ScopeState,
  toolUseId: string,
): { messageId: string; model?: string; tokens: TokenCounts } | undefined {
  const callKey = idKey(toolUseId);
  const messageId = scope.callMessages && Object.hasOwn(scope.callMessages, callKey) ? scope.callMessages[callKey]! : undefined;
  if (messageId === undefined) return undefined;
  const key = idKey(messageId);
  if (!scope.messages || !Object.hasOwn(scope.messages, key)) return undefined;
  const model = scope.messageModels && Object.hasOwn(scope.messageModels, key) ? scope.messageModels[key] : undefined;
  return { messageId, ...(model !== undefined ? { model } : {}), tokens: { ...scope.messages[key]! } };
}

/** Keeps a record's newest `keep` keys (insertion order: newest last). */
function forgetOldest(record: Record<string, unknown>, keep: number): void {
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length - keep; i++) delete record[keys[i]!];
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

function spendOf(scope: ScopeDraft): Spend {
  return (scope.spend ??= zeroSpend());
}

function subtract(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    input: a.input - b.input,
    output: a.output - b.output,
    cacheCreation: a.cacheCreation - b.cacheCreation,
    cacheRead: a.cacheRead - b.cacheRead,
  };
}

/**
 * What the root task has spent (SPEC §12): the main scope's task and every
 * subagent launched in it (nested ones too: each is launched in the root task).
 */
export function rootTaskSpend(main: ScopeState, agents: readonly ScopeState[]): Spend {
  const total = main.spend ? sumSpend([main.spend]) : zeroSpend();
  for (const agent of agents) if (agent.rootTask === main.task && agent.spend) addSpend(total, agent.spend);
  return total;
}
