import { TIE_BREAK_ORDER } from "./defaults.js";
import type { Action, Lambdas } from "./vocabulary.js";
import type { Signals } from "./signals.js";
import { sameValue, utility } from "./utility.js";

export interface Scored {
  action: Action;
  signals: Signals;
  utility: number;
}

export interface Selection {
  best: Scored;
  /** Every candidate, best first (ties in tie-break order). */
  ranked: Scored[];
}

function tieRank(action: Action): number {
  return TIE_BREAK_ORDER.indexOf(action);
}

/** Orders by utility, highest first; exact ties (within 1e-9) go to the action that spends less and ends sooner. */
export function compareScored(a: Scored, b: Scored): number {
  if (!sameValue(a.utility, b.utility)) return b.utility - a.utility;
  return tieRank(a.action) - tieRank(b.action);
}

export function score(candidates: ReadonlyArray<{ action: Action; signals: Signals }>, lambdas: Lambdas): Scored[] {
  return candidates.map((c) => ({ action: c.action, signals: c.signals, utility: utility(c.signals, lambdas) }));
}

/** a* = argmax U over the candidates. Throws on an empty list: there is nothing to choose from. */
export function selectAction(candidates: ReadonlyArray<{ action: Action; signals: Signals }>, lambdas: Lambdas): Selection {
  if (candidates.length === 0) throw new Error("selectAction needs at least one candidate");
  const ranked = score(candidates, lambdas).sort(compareScored);
  return { best: ranked[0]!, ranked };
}
