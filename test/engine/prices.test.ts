import { describe, expect, it } from "vitest";
import {
  assumedModels,
  costOfTokens,
  DEFAULT_PRICES,
  estimateCostUsd,
  formatUsd,
  parseModelId,
  priceOf,
  PriceOverrideSchema,
  PriceTableSchema,
  withOverride,
} from "../../src/engine/prices.js";

const tokens = (input: number, output: number, cacheCreation = 0, cacheRead = 0) => ({ input, output, cacheCreation, cacheRead });
const M = 1_000_000;

describe("parseModelId: a transcript's message.model → family and version", () => {
  it.each([
    ["claude-opus-4-5-20251101", "opus", "4.5"],
    ["claude-sonnet-4-5", "sonnet", "4.5"],
    ["claude-haiku-4-5", "haiku", "4.5"],
    ["claude-haiku-4-5@20251001", "haiku", "4.5"],
    ["claude-opus-4-20250514", "opus", "4"],
    ["claude-opus-4-1-20250805", "opus", "4.1"],
    ["claude-3-5-sonnet-20241022", "sonnet", "3.5"],
    ["claude-3-opus-20240229", "opus", "3"],
    ["claude-3-5-haiku-20241022", "haiku", "3.5"],
    ["anthropic.claude-sonnet-4-5-20250929-v1:0", "sonnet", "4.5"],
    ["claude-sonnet-5", "sonnet", "5"],
    ["claude-opus-4-6[1m]", "opus", "4.6"],
  ])("%s → %s %s", (id, family, version) => {
    expect(parseModelId(id)).toEqual({ family, version });
  });

  it("a bare alias has a family and no version; an id naming no family has neither", () => {
    expect(parseModelId("opus")).toEqual({ family: "opus" });
    expect(parseModelId("Sonnet")).toEqual({ family: "sonnet" });
    expect(parseModelId("<synthetic>")).toBeUndefined();
    expect(parseModelId("gpt-5")).toBeUndefined();
    expect(parseModelId("opusx")).toBeUndefined();
  });
});

describe("the dated price table", () => {
  it("is valid, dated and sourced", () => {
    expect(PriceTableSchema.safeParse(DEFAULT_PRICES).success).toBe(true);
    expect(DEFAULT_PRICES.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(DEFAULT_PRICES.source).toContain("platform.claude.com");
  });

  it("prices older versions apart from their family", () => {
    expect(priceOf("claude-opus-4-5-20251101", DEFAULT_PRICES).price.input).toBe(5);
    expect(priceOf("claude-opus-4-1-20250805", DEFAULT_PRICES).price.input).toBe(15);
    expect(priceOf("claude-opus-4-20250514", DEFAULT_PRICES).price.output).toBe(75);
    expect(priceOf("claude-3-5-haiku-20241022", DEFAULT_PRICES).price.input).toBe(0.8);
    expect(priceOf("claude-haiku-4-5", DEFAULT_PRICES).price).toEqual({ input: 1, output: 5, cacheCreation: 2, cacheRead: 0.1 });
  });

  it("cache writes are at the 1-hour rate, 2× input, and cache reads 0.1× input in every row (the published multipliers; Haiku 3 is published rounded to the cent)", () => {
    const rows = [...Object.values(DEFAULT_PRICES.families), ...Object.values(DEFAULT_PRICES.versions), DEFAULT_PRICES.fallback];
    for (const row of rows) {
      expect(row.cacheCreation).toBeCloseTo(row.input * 2, 9);
      expect(Math.abs(row.cacheRead - row.input * 0.1)).toBeLessThanOrEqual(0.005 + 1e-9);
    }
  });

  it("an id that names no family is priced at the fallback, dearer than every row, and is listed as assumed", () => {
    const p = priceOf("mystery-model", DEFAULT_PRICES);
    expect(p).toEqual({ price: DEFAULT_PRICES.fallback, assumed: true });
    for (const row of [...Object.values(DEFAULT_PRICES.families), ...Object.values(DEFAULT_PRICES.versions)]) {
      for (const k of ["input", "output", "cacheCreation", "cacheRead"] as const)
        expect(DEFAULT_PRICES.fallback[k]).toBeGreaterThanOrEqual(row[k]);
    }
    expect(priceOf("claude-fable-5", DEFAULT_PRICES).assumed).toBe(true);
    expect(assumedModels({ "mystery-model": tokens(1, 1), "<synthetic>": tokens(0, 0), "claude-sonnet-4-5": tokens(5, 5) })).toEqual([
      "mystery-model",
    ]);
  });
});

describe("estimateCostUsd", () => {
  it("sums each model's four counts at its own prices", () => {
    // sonnet: 1M input $3 + 1M output $15 + 1M cache write $6 + 1M cache read $0.30; haiku: 2M output $10
    const usd = estimateCostUsd({ "claude-sonnet-4-5": tokens(M, M, M, M), "claude-haiku-4-5": tokens(0, 2 * M) });
    expect(usd).toBeCloseTo(3 + 15 + 6 + 0.3 + 10, 9);
  });

  it("is zero for no spend and for zero counts", () => {
    expect(estimateCostUsd({})).toBe(0);
    expect(estimateCostUsd({ "claude-opus-4-5": tokens(0, 0) })).toBe(0);
  });

  it("counts cache reads at the cache-read price, not the input price", () => {
    expect(costOfTokens(tokens(0, 0, 0, M), DEFAULT_PRICES.families.opus)).toBeCloseTo(0.5, 9);
  });
});

describe("the user's price override", () => {
  it("replaces the given fields of a family and drops that family's versioned prices", () => {
    const t = withOverride(DEFAULT_PRICES, { opus: { input: 10 } });
    expect(t.families.opus).toEqual({ ...DEFAULT_PRICES.families.opus, input: 10 });
    expect(priceOf("claude-opus-4-1", t).price.input).toBe(10);
    expect(priceOf("claude-3-5-haiku", t).price.input).toBe(0.8);
    expect(t.date).toContain("override");
  });

  it("no override is the table itself", () => {
    expect(withOverride(DEFAULT_PRICES, undefined)).toBe(DEFAULT_PRICES);
    expect(withOverride(DEFAULT_PRICES, {})).toBe(DEFAULT_PRICES);
  });
});

it("formatUsd shows small spends with four decimals", () => {
  expect(formatUsd(0)).toBe("$0");
  expect(formatUsd(0.00123)).toBe("$0.0012");
  expect(formatUsd(1.5)).toBe("$1.50");
});

describe("the user's price override", () => {
  it("takes any of the four prices, and refuses any other key by name (the older cacheWrite included)", () => {
    expect(PriceOverrideSchema.safeParse({ opus: { input: 5, cacheCreation: 6.25 } }).success).toBe(true);
    expect(PriceOverrideSchema.safeParse({ opus: { cacheWrite: 6.25 } }).success).toBe(false);
    expect(PriceOverrideSchema.safeParse({ opus: { inptu: 5 } }).success).toBe(false);
    expect(PriceOverrideSchema.safeParse({ gpt: { input: 5 } }).success).toBe(false);
  });
});
