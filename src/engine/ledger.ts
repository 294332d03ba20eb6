import * as z from "zod/mini";
import { addTokens, TokenCountsSchema, zeroSpend, zeroTokens, type Spend, type TokenCounts } from "./spend.js";

/**
 * The spend ledger's lines (SPEC §12 "beyond one task"), pure. Every session
 * appends to its own file lines saying that its measured spend (tokens per
 * model, the session machine's count: each message once, its final usage)
 * went from `from` to `to` by time `t`. Both are the session's running
 * totals, not deltas: a line written twice, two lines that overlap (a hook
 * that died after writing its line and before saving its state leaves the
 * next one to write the same stretch again), lines out of order, or a state
 * rebuilt from the transcript that counts the same messages again, all cover
 * the same stretch of the session's totals, and the window counts the union
 * of the stretches, never their sum. So no spend is counted twice, and spend
 * is lost only if no line for it was ever written. The ledger holds only
 * measured spend, never anything the model said.
 */

const FIELDS = ["input", "output", "cacheCreation", "cacheRead"] as const satisfies ReadonlyArray<keyof TokenCounts>;

const ByModelSchema = z.record(z.string(), TokenCountsSchema);

export const LedgerLineSchema = z.object({
  v: z.literal(1),
  /** When it was written, epoch ms. */
  t: z.number(),
  /** The session's totals per model before this stretch (only the models whose totals changed). */
  from: ByModelSchema,
  /** And after it. */
  to: ByModelSchema,
});
export type LedgerLine = z.infer<typeof LedgerLineSchema>;

const grew = (a: TokenCounts, b: TokenCounts) => FIELDS.some((f) => b[f] > a[f]);

/** The line for a session whose totals went from `before` to `after` at `t`; undefined when nothing grew. */
export function ledgerLine(t: number, before: Pick<Spend, "byModel"> | undefined, after: Pick<Spend, "byModel">): LedgerLine | undefined {
  const from: Record<string, TokenCounts> = {};
  const to: Record<string, TokenCounts> = {};
  for (const [model, counts] of Object.entries(after.byModel)) {
    const was = before && Object.hasOwn(before.byModel, model) ? before.byModel[model]! : zeroTokens();
    if (!grew(was, counts)) continue;
    from[model] = { ...was };
    to[model] = { ...counts };
  }
  return Object.keys(to).length === 0 ? undefined : { v: 1, t, from, to };
}

/** The length of the union of intervals [from, to] (pieces with to ≤ from cover nothing). */
export function unionLength(intervals: ReadonlyArray<readonly [number, number]>): number {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [from, to] of sorted) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total;
}

/** One session's spend inside the window: per model and count, the union of the stretches written at a time in [start, end]. */
function sessionInWindow(lines: readonly LedgerLine[], start: number, end: number): Record<string, TokenCounts> {
  const stretches = new Map<string, Record<(typeof FIELDS)[number], Array<[number, number]>>>();
  for (const line of lines) {
    if (line.t < start || line.t > end) continue;
    for (const [model, to] of Object.entries(line.to)) {
      const from = Object.hasOwn(line.from, model) ? line.from[model]! : zeroTokens();
      let byField = stretches.get(model);
      if (!byField) stretches.set(model, (byField = { input: [], output: [], cacheCreation: [], cacheRead: [] }));
      for (const f of FIELDS) byField[f].push([from[f], to[f]]);
    }
  }
  const out: Record<string, TokenCounts> = {};
  for (const [model, byField] of stretches) {
    out[model] = {
      input: unionLength(byField.input),
      output: unionLength(byField.output),
      cacheCreation: unionLength(byField.cacheCreation),
      cacheRead: unionLength(byField.cacheRead),
    };
  }
  return out;
}

/** What every session spent in the window [start, end] (epoch ms), from each session's ledger lines: the spend a window budget is checked against. */
export function spendInWindow(sessions: ReadonlyArray<readonly LedgerLine[]>, start: number, end: number): Spend {
  const total = zeroSpend();
  for (const lines of sessions) {
    for (const [model, counts] of Object.entries(sessionInWindow(lines, start, end))) {
      addTokens(total.tokens, counts);
      addTokens((total.byModel[model] ??= zeroTokens()), counts);
    }
  }
  return total;
}

/** The first millisecond of a window of `hours` ending at `end`. */
export function windowStart(end: number, hours: number): number {
  return end - Math.round(hours * 3_600_000);
}
