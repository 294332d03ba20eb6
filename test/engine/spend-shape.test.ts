import { describe, expect, it } from "vitest";
import { SpendSchema, TokenCountsSchema, totalTokens, zeroSpend, zeroTokens } from "../../src/engine/spend.js";

describe("the Spend shape", () => {
  it("starts at zero, each a fresh object", () => {
    expect(zeroSpend()).toEqual({
      tokens: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 },
      byModel: {},
      toolCalls: 0,
      agentsLaunched: 0,
    });
    expect(SpendSchema.parse(zeroSpend())).toEqual(zeroSpend());
    const a = zeroTokens();
    a.input = 5;
    expect(zeroTokens().input).toBe(0);
  });

  it("totals the four counts", () => {
    expect(totalTokens({ input: 1, output: 20, cacheCreation: 300, cacheRead: 4000 })).toBe(4321);
  });

  it("takes whole counts ≥ 0 only", () => {
    expect(TokenCountsSchema.safeParse({ input: 0, output: 1, cacheCreation: 2, cacheRead: 3 }).success).toBe(true);
    expect(TokenCountsSchema.safeParse({ input: -1, output: 1, cacheCreation: 2, cacheRead: 3 }).success).toBe(false);
    expect(TokenCountsSchema.safeParse({ input: 0.5, output: 1, cacheCreation: 2, cacheRead: 3 }).success).toBe(false);
    expect(TokenCountsSchema.safeParse({ input: 0, output: 1, cacheCreation: 2 }).success).toBe(false);
    expect(SpendSchema.safeParse({ ...zeroSpend(), toolCalls: -1 }).success).toBe(false);
    expect(
      SpendSchema.safeParse({ ...zeroSpend(), byModel: { "claude-x": { input: 1, output: 1, cacheCreation: 0, cacheRead: 0 } } }).success,
    ).toBe(true);
  });
});
