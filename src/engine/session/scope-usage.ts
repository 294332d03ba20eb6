// The scope reducer's (./scope-reducer.ts) `usage` event and what it keeps:
// each message's usage counted once into the scope's spend, and the memories
// of recent messages (their counts, models, and the calls each made). Pure.
import { addSpend, addTokens, sumSpend, zeroSpend, zeroTokens, type Spend, type TokenCounts } from "../spend.js";
import type { ScopeEvent } from "./scope-events.js";
import { idKey, own } from "./scope-copy.js";
import type { ScopeDraft, ScopeState } from "./state.js";

/** How many assistant messages' usage a scope remembers, to count a message spanning several lines once. */
export const MESSAGE_MEMORY = 32;

/**
 * An assistant line's usage. A message spans several lines sharing its id, and
 * Claude Code writes its counts as they grow (output tokens rise line by
 * line): each message is counted once, at the largest count seen per field.
 */
export function usage(scope: ScopeDraft, event: Extract<ScopeEvent, { kind: "usage" }>): void {
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

export function spendOf(scope: ScopeDraft): Spend {
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
