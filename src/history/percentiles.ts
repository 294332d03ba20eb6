// Percentiles of a list of numbers, by the nearest-rank method: the p-th
// percentile of n sorted values is the value at rank ceil(p/100 · n) (from
// 1), so it is always one of the values, and with fewer than 100 values the
// 99th is the largest. Pure.

export interface Percentiles {
  /** How many values. */
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** The value at percentile `p` (0 < p ≤ 100) of values sorted ascending; 0 for none. */
export function nearestRank(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function percentilesOf(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: nearestRank(sorted, 50),
    p90: nearestRank(sorted, 90),
    p99: nearestRank(sorted, 99),
    max: sorted.at(-1) ?? 0,
  };
}
