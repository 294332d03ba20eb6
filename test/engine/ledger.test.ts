// The spend ledger's lines and the rolling window over them (SPEC §12): stretches of a
// session's running totals, counted once however often they are written.
import { describe, expect, it } from "vitest";
import { ledgerLine, LedgerLineSchema, spendInWindow, unionLength, windowStart, type LedgerLine } from "../../src/engine/ledger.js";
import { zeroSpend, type Spend, type TokenCounts } from "../../src/engine/spend.js";

const t = (input: number, output = 0, cacheCreation = 0, cacheRead = 0): TokenCounts => ({ input, output, cacheCreation, cacheRead });
const spend = (byModel: Record<string, TokenCounts>): Spend => ({ ...zeroSpend(), byModel });
const line = (at: number, from: number, to: number, model = "opus"): LedgerLine => ({
  v: 1,
  t: at,
  from: { [model]: t(from) },
  to: { [model]: t(to) },
});

describe("ledgerLine", () => {
  it("is the stretch of the models whose totals grew, from before to after", () => {
    const before = spend({ opus: t(10, 1), haiku: t(5) });
    const after = spend({ opus: t(30, 2), haiku: t(5), sonnet: t(7) });
    expect(ledgerLine(1000, before, after)).toEqual({
      v: 1,
      t: 1000,
      from: { opus: t(10, 1), sonnet: t(0) },
      to: { opus: t(30, 2), sonnet: t(7) },
    });
  });

  it("starts from zero without a state before, and is none when nothing grew", () => {
    expect(ledgerLine(5, undefined, spend({ opus: t(3) }))).toEqual({ v: 1, t: 5, from: { opus: t(0) }, to: { opus: t(3) } });
    expect(ledgerLine(5, spend({ opus: t(3) }), spend({ opus: t(3) }))).toBeUndefined();
    expect(ledgerLine(5, undefined, zeroSpend())).toBeUndefined();
  });

  it("sees growth in any one count", () => {
    for (const grown of [t(0, 1), t(0, 0, 1), t(0, 0, 0, 1)])
      expect(ledgerLine(5, spend({ m: t(0) }), spend({ m: grown }))?.to).toEqual({ m: grown });
  });
});

describe("unionLength", () => {
  it("counts overlapping and repeated stretches once", () => {
    expect(unionLength([])).toBe(0);
    expect(unionLength([[0, 10]])).toBe(10);
    expect(
      unionLength([
        [0, 10],
        [0, 10],
      ]),
    ).toBe(10);
    expect(
      unionLength([
        [0, 10],
        [5, 15],
      ]),
    ).toBe(15);
    expect(
      unionLength([
        [5, 15],
        [0, 10],
      ]),
    ).toBe(15);
    expect(
      unionLength([
        [0, 10],
        [2, 3],
      ]),
    ).toBe(10);
    expect(
      unionLength([
        [0, 10],
        [20, 25],
      ]),
    ).toBe(15);
    expect(
      unionLength([
        [0, 10],
        [10, 12],
      ]),
    ).toBe(12);
  });

  it("ignores stretches that cover nothing", () => {
    expect(unionLength([[5, 5]])).toBe(0);
    expect(
      unionLength([
        [9, 4],
        [0, 2],
      ]),
    ).toBe(2);
  });
});

describe("spendInWindow", () => {
  it("sums every session's stretches written inside the window", () => {
    const a = [line(100, 0, 50), line(200, 50, 80)];
    const b = [line(150, 0, 30, "haiku")];
    const got = spendInWindow([a, b], 0, 1000);
    expect(got.byModel).toEqual({ opus: t(80), haiku: t(30) });
    expect(got.tokens).toEqual(t(110));
  });

  it("leaves out what was written before the window's start or after its end; the ends count", () => {
    const a = [line(99, 0, 50), line(100, 50, 80), line(300, 80, 90), line(301, 90, 200)];
    expect(spendInWindow([a], 100, 300).tokens).toEqual(t(40));
  });

  it("never counts a stretch twice: a line written again, or a longer one over it (a hook that died before saving its state)", () => {
    const a = [line(100, 0, 50), line(110, 0, 50), line(120, 0, 70), line(130, 70, 90)];
    expect(spendInWindow([a], 0, 1000).tokens).toEqual(t(90));
  });

  it("counts a state rebuilt from the transcript once: its totals run over the same stretch again", () => {
    const a = [line(100, 0, 40), line(110, 40, 60), line(120, 0, 60), line(130, 60, 75)];
    expect(spendInWindow([a], 0, 1000).tokens).toEqual(t(75));
  });

  it("keeps sessions apart: the same numbers in two sessions are two spends", () => {
    expect(spendInWindow([[line(100, 0, 50)], [line(100, 0, 50)]], 0, 1000).tokens).toEqual(t(100));
  });

  it("counts each count of each model on its own", () => {
    const a: LedgerLine[] = [
      { v: 1, t: 10, from: { opus: t(0, 0) }, to: { opus: t(10, 4, 2, 1) } },
      { v: 1, t: 20, from: { opus: t(10, 4, 2, 1) }, to: { opus: t(15, 4, 9, 1) } },
    ];
    expect(spendInWindow([a], 0, 100).byModel).toEqual({ opus: t(15, 4, 9, 1) });
  });

  it("is nothing over no lines", () => {
    expect(spendInWindow([], 0, 10)).toEqual(zeroSpend());
    expect(spendInWindow([[line(5, 0, 10)]], 6, 10)).toEqual(zeroSpend());
  });
});

describe("windowStart", () => {
  it("is `hours` before the end", () => {
    expect(windowStart(10 * 3_600_000, 5)).toBe(5 * 3_600_000);
    expect(windowStart(3_600_000, 0.5)).toBe(1_800_000);
  });
});

describe("LedgerLineSchema", () => {
  it("reads a line as written, and refuses one of another shape", () => {
    const written = line(5, 1, 2);
    expect(LedgerLineSchema.parse(JSON.parse(JSON.stringify(written)))).toStrictEqual(written);
    for (const bad of [
      { ...written, v: 2 },
      { ...written, t: "5" },
      { v: 1, t: 5, from: {} },
      { ...written, to: { opus: { input: -1 } } },
    ])
      expect(LedgerLineSchema.safeParse(bad).success).toBe(false);
  });
});
