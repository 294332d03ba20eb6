import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, EPSILON, UTILITY_MAX, UTILITY_MIN } from "../../src/engine/defaults.js";
import { formatUtility, roundUtility, sameValue, utility } from "../../src/engine/utility.js";

const lambdas = DEFAULT_CONFIG.lambdas;

describe("utility", () => {
  it("computes the canonical example: 0.7 − 0.12 − 0.30 − 0 = 0.28", () => {
    const u = utility({ gain: 0.7, stepCost: 0.12, uncertainty: 0.6, redundancy: 0 }, lambdas);
    expect(u).toBeCloseTo(0.28, 12);
    expect(formatUtility(u)).toBe("0.28");
  });

  it("spans [−2.3, 1.0] with the default λ", () => {
    expect(utility({ gain: 1, stepCost: 0, uncertainty: 0, redundancy: 0 }, lambdas)).toBe(UTILITY_MAX);
    expect(utility({ gain: 0, stepCost: 1, uncertainty: 1, redundancy: 1 }, lambdas)).toBeCloseTo(UTILITY_MIN, 12);
  });

  it("weights each signal by its own λ", () => {
    expect(utility({ gain: 0, stepCost: 1, uncertainty: 0, redundancy: 0 }, [2, 0, 0])).toBe(-2);
    expect(utility({ gain: 0, stepCost: 0, uncertainty: 1, redundancy: 0 }, [0, 3, 0])).toBe(-3);
    expect(utility({ gain: 0, stepCost: 0, uncertainty: 0, redundancy: 1 }, [0, 0, 4])).toBe(-4);
  });
});

describe("roundUtility: two decimals, half away from zero", () => {
  it.each([
    [0.285, 0.29],
    [-0.285, -0.29],
    [0.125, 0.13],
    [-0.125, -0.13],
    [0.005, 0.01],
    [-0.005, -0.01],
    [0.28499, 0.28],
    [-0.0049, 0],
    [1.0, 1.0],
    [-2.3, -2.3],
  ])("%s → %s", (input, expected) => {
    expect(roundUtility(input)).toBe(expected);
  });

  it("never returns negative zero", () => {
    expect(Object.is(roundUtility(-0.001), 0)).toBe(true);
    expect(formatUtility(-0.001)).toBe("0.00");
  });

  it("rounds computed halves the decimal way despite binary error", () => {
    // 0.7 − 0.5·0.83 = 0.285 exactly in decimal, 0.28500000000000003 or 0.2849999… in binary.
    expect(formatUtility(utility({ gain: 0.7, stepCost: 0, uncertainty: 0.83, redundancy: 0 }, lambdas))).toBe("0.29");
  });
});

describe("roundUtility at magnitudes a large λ can give", () => {
  it("keeps the nudge relative: a decimal half still rounds away from zero", () => {
    // 10000.005·100 is 1000000.4999999999 in binary, 1234567.285·100 is 123456728.49999999.
    expect(roundUtility(10000.005)).toBe(10000.01);
    expect(roundUtility(-10000.005)).toBe(-10000.01);
    expect(roundUtility(1234567.285)).toBe(1234567.29);
  });
});

describe("sameValue", () => {
  it("takes two numbers up to EPSILON apart, that bound included, as the same", () => {
    expect(sameValue(0.28, 0.28)).toBe(true);
    expect(sameValue(0, EPSILON)).toBe(true);
    expect(sameValue(EPSILON, 0)).toBe(true);
    expect(sameValue(0, 2 * EPSILON)).toBe(false);
    expect(sameValue(0.28, 0.29)).toBe(false);
  });
});
