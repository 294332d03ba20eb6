// How the scope reducer (./scope-reducer.ts) holds a scope's maps and lists:
// keyed safely (idKey), and copied on write, once per applyEvents. Pure.
import type { Spend } from "../spend.js";
import type { ScopeDraft, ScopeState } from "./state.js";

/**
 * A tool_use_id or message id as a key of the state's maps. `__proto__` is
 * the one name a plain object cannot hold as a key (an assignment sets the
 * prototype, and the schema drops it when the state is read back): it is
 * kept under another name. Every read and write of those maps goes through it.
 */
export function idKey(id: string): string {
  return id === "__proto__" ? "\u0000__proto__" : id;
}

/**
 * A copy of the scope's own fields, so the caller's state is never touched.
 * Its maps and lists (pending, history, the message memories) stay shared
 * with the caller's state until an event changes one: `own` copies it then,
 * once per applyEvents (copy on write). Copying them all for every event cost
 * replay about 40% of its time (issue 23). A transient reduction (see
 * Reduction options in ./reduce.ts) copies nothing: its caller gave the state up.
 */
export function copyScope(state: ScopeState): ScopeDraft {
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

/** A new applyEvents starts: nothing is its own yet; `inPlace`, see applyEvents. */
export function startApply(inPlace: boolean): void {
  madeHere = new WeakSet();
  transient = inPlace;
}

/** The scope's `field`, made its own (a copy of the shared one, or a new one) before it is changed in place. */
export function own<K extends Shared>(scope: ScopeDraft, field: K): NonNullable<ScopeDraft[K]> {
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
