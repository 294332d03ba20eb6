import * as z from "zod/mini";
import { DEFAULT_STUCK_AFTER } from "./defaults.js";

/**
 * The settings of the runaway guards (SPEC §13, §14), each set in a skill's
 * or agent's frontmatter (it applies while the scope is gated) and in the
 * user's plugin settings (every scope). Pure.
 */

export const GUARD_KEYS = ["utility_stuck_after", "utility_confirm_above_uncertainty"] as const;
export type GuardKey = (typeof GUARD_KEYS)[number];

/** 0 (off), or how many runs with one result make the next one a stuck loop: at least 2, since one run has nothing to agree with. */
export const StuckAfterSchema = z.int().check(z.refine((v) => v === 0 || v >= 2));
export const ConfirmAboveSchema = z.number().check(z.gte(0), z.lte(1));

export const GuardsSchema = z.object({
  stuckAfter: z.optional(StuckAfterSchema),
  confirmAboveUncertainty: z.optional(ConfirmAboveSchema),
});
export type Guards = z.infer<typeof GuardsSchema>;

/** What each key must be, in words, for every message that rejects one. */
export const GUARD_EXPECTED: Record<GuardKey, string> = {
  utility_stuck_after: "a whole number of at least 2, or 0 to turn the stuck-loop rule off",
  utility_confirm_above_uncertainty: "a number from 0 to 1, such as 0.7",
};

/** The field of `Guards` each key sets. */
export const GUARD_FIELD: Record<GuardKey, keyof Guards> = {
  utility_stuck_after: "stuckAfter",
  utility_confirm_above_uncertainty: "confirmAboveUncertainty",
};

/** The guards a scope runs under. `stuckAfter` 0: off. */
export interface GuardsInForce {
  stuckAfter: number;
  confirmAboveUncertainty?: number;
}

/**
 * Guards only tighten, as budgets do: the smallest `stuckAfter` that is not 0
 * wins (0 only when every source that sets it says 0; the default when none
 * does), and the lowest uncertainty threshold wins (it asks the user more
 * often). `sources`: the user's settings and, in a gated scope, its gate's.
 */
export function guardsInForce(...sources: ReadonlyArray<Guards | undefined>): GuardsInForce {
  const stuck = sources.flatMap((g) => (g?.stuckAfter !== undefined ? [g.stuckAfter] : []));
  const counting = stuck.filter((n) => n > 0);
  const stuckAfter = counting.length > 0 ? Math.min(...counting) : stuck.length > 0 ? 0 : DEFAULT_STUCK_AFTER;
  const thresholds = sources.flatMap((g) => (g?.confirmAboveUncertainty !== undefined ? [g.confirmAboveUncertainty] : []));
  return { stuckAfter, ...(thresholds.length > 0 ? { confirmAboveUncertainty: Math.min(...thresholds) } : {}) };
}

/** Two gate sources' guards merged into one (src/engine/gate-policy.ts): the same tightening, kept as settings. */
export function tightestGuards(a: Guards | undefined, b: Guards | undefined): Guards {
  const merged = guardsInForce(a, b);
  const out: Guards = {};
  if (a?.stuckAfter !== undefined || b?.stuckAfter !== undefined) out.stuckAfter = merged.stuckAfter;
  if (merged.confirmAboveUncertainty !== undefined) out.confirmAboveUncertainty = merged.confirmAboveUncertainty;
  return out;
}
