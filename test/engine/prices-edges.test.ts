import { describe, expect, it } from "vitest";
import { assumedModels, DEFAULT_PRICES, formatUsd, parseModelId, PriceSchema, PriceTableSchema } from "../../src/engine/prices.js";

const tokens = (input: number, output = 0, cacheCreation = 0, cacheRead = 0) => ({ input, output, cacheCreation, cacheRead });

describe("parseModelId's edges", () => {
  it("reads a two-digit major version and a two-digit minor one", () => {
    expect(parseModelId("claude-opus-10")).toEqual({ family: "opus", version: "10" });
    expect(parseModelId("claude-sonnet-4-10")).toEqual({ family: "sonnet", version: "4.10" });
  });

  it("finds an alias after any non-letter, at the start or the end", () => {
    expect(parseModelId("bedrock/opus")).toEqual({ family: "opus" });
    expect(parseModelId("haiku-latest")).toEqual({ family: "haiku" });
  });
});

describe("assumedModels", () => {
  it("counts every one of the four counts as spending", () => {
    expect(assumedModels({ a: tokens(0, 0, 0, 1), b: tokens(0, 0, 1, 0), c: tokens(0, 1), d: tokens(1), e: tokens(0) })).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
  });

  it("lists them sorted", () => {
    expect(assumedModels({ zeta: tokens(1), alpha: tokens(1) })).toEqual(["alpha", "zeta"]);
  });
});

describe("formatUsd", () => {
  it("shows a cent with two decimals and less than a cent with four", () => {
    expect(formatUsd(0.01)).toBe("$0.01");
    expect(formatUsd(0.0099)).toBe("$0.0099");
    expect(formatUsd(0)).toBe("$0");
  });
});

describe("the price schemas", () => {
  it("keep every figure of the default table", () => {
    expect(PriceTableSchema.parse(DEFAULT_PRICES)).toEqual(DEFAULT_PRICES);
    expect(PriceSchema.parse(DEFAULT_PRICES.families.opus)).toEqual(DEFAULT_PRICES.families.opus);
  });

  it("refuse a negative price or a family left out", () => {
    expect(PriceSchema.safeParse({ ...DEFAULT_PRICES.families.opus, cacheRead: -1 }).success).toBe(false);
    const { haiku: _haiku, ...twoFamilies } = DEFAULT_PRICES.families;
    expect(PriceTableSchema.safeParse({ ...DEFAULT_PRICES, families: twoFamilies }).success).toBe(false);
  });
});
