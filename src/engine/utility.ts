import { EPSILON } from "./defaults.js";
import type { Signals } from "./signals.js";
import type { Lambdas } from "./vocabulary.js";

/** U(a) = Gain − λ1·StepCost − λ2·Uncertainty − λ3·Redundancy, unrounded. */
export function utility(signals: Signals, lambdas: Lambdas): number {
  const [l1, l2, l3] = lambdas;
  return signals.gain - l1 * signals.stepCost - l2 * signals.uncertainty - l3 * signals.redundancy;
}

/**
 * Two decimals, half away from zero. The nudge absorbs binary representation
 * error (0.285 is stored as 0.28499999…), which would otherwise round a
 * decimal half down.
 */
export function roundUtility(value: number): number {
  const scaled = Math.abs(value) * 100;
  const rounded = Math.floor(scaled + 0.5 + EPSILON * Math.max(1, scaled)) / 100;
  const signed = Math.sign(value) * rounded;
  return signed === 0 ? 0 : signed;
}

export function formatUtility(value: number): string {
  return roundUtility(value).toFixed(2);
}

export function sameValue(a: number, b: number): boolean {
  return Math.abs(a - b) <= EPSILON;
}
