// Axis ranges and ticks for the HTML report's charts. Pure: numbers in, numbers out.
import { UTILITY_MAX, UTILITY_MIN } from "../engine/defaults.js";

export interface Axis {
  min: number;
  max: number;
  /** Tick values, ascending, each once. */
  ticks: number[];
  /** The distance between ticks. */
  step: number;
}

/** Float noise off: 0.30000000000000004 → 0.3. */
const clean = (n: number) => Math.round(n * 1e9) / 1e9;

/** The smallest of 1, 2, 2.5, 5 × 10^k that cuts `span` into at most `maxTicks` intervals. */
export function niceStep(span: number, maxTicks: number): number {
  if (!(span > 0)) return 1;
  const raw = span / Math.max(1, maxTicks);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw - 1e-12)!;
  return clean(step);
}

function ticksBetween(min: number, max: number, step: number): number[] {
  const ticks: number[] = [];
  for (let k = Math.ceil(clean(min / step)); clean(k * step) <= max + 1e-9; k += 1) ticks.push(clean(k * step) || 0);
  return ticks;
}

/**
 * The U axis: every value and every line to keep in view (the floors), padded
 * by a tenth of their spread (at least 0.1) and widened to whole ticks, never
 * past U's own range [−2.3, 1].
 */
export function uAxis(values: readonly number[], keep: readonly number[] = []): Axis {
  const all = [...values, ...keep].filter(Number.isFinite);
  if (all.length === 0) return { min: UTILITY_MIN, max: UTILITY_MAX, ticks: ticksBetween(UTILITY_MIN, UTILITY_MAX, 0.5), step: 0.5 };
  const lo = Math.max(UTILITY_MIN, Math.min(...all));
  const hi = Math.min(UTILITY_MAX, Math.max(...all));
  const pad = Math.max(0.1, (hi - lo) * 0.1);
  const step = niceStep(hi - lo + 2 * pad, 7);
  const min = Math.max(UTILITY_MIN, clean(Math.floor((lo - pad) / step) * step));
  const max = Math.min(UTILITY_MAX, clean(Math.ceil((hi + pad) / step) * step));
  return { min, max, ticks: ticksBetween(min, max, step), step };
}

/** A count or amount from 0 up to `max` (at least `max`), in at most `maxTicks` whole intervals. */
export function amountAxis(max: number, maxTicks = 4, integer = false): Axis {
  const top = max > 0 ? max : 1;
  let step = niceStep(top, maxTicks);
  if (integer) step = Math.max(1, step === 2.5 ? 2 : Math.round(step));
  const upper = clean(Math.ceil(clean(top / step)) * step);
  return { min: 0, max: upper, ticks: ticksBetween(0, upper, step), step };
}

/**
 * Ticks for positions 1…n, one per position while they fit (`maxTicks`),
 * else every multiple of 2, 5, 10, 20, 50… (and 1, where it has room before
 * the first): integers, each once.
 */
export function positionTicks(n: number, maxTicks = 25): number[] {
  if (n < 1) return [];
  let every = 1;
  for (let k = 0; Math.ceil(n / every) > maxTicks; k += 1) every = [2, 5, 10][k % 3]! * 10 ** Math.floor(k / 3);
  const ticks = every === 1 || every >= 5 ? [1] : [];
  for (let t = every; t <= n; t += every) if (t !== 1) ticks.push(t);
  return ticks;
}
