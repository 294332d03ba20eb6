// The runaway guards' settings (SPEC §13, §14): what they accept and how sources merge.
import { describe, expect, it } from "vitest";
import {
  ConfirmAboveSchema,
  GUARD_EXPECTED,
  GUARD_FIELD,
  GUARD_KEYS,
  GuardsSchema,
  guardsInForce,
  StuckAfterSchema,
  tightestGuards,
} from "../../src/engine/guards.js";
import { DEFAULT_STUCK_AFTER } from "../../src/engine/defaults.js";

describe("the settings", () => {
  it("stuck_after is 0 (off) or a whole number of at least 2", () => {
    for (const ok of [0, 2, 3, 100]) expect(StuckAfterSchema.safeParse(ok).success).toBe(true);
    for (const bad of [1, -1, 2.5, "3"]) expect(StuckAfterSchema.safeParse(bad).success).toBe(false);
  });

  it("confirm_above_uncertainty is a number in [0, 1]", () => {
    for (const ok of [0, 0.5, 1]) expect(ConfirmAboveSchema.safeParse(ok).success).toBe(true);
    for (const bad of [-0.01, 1.01, "0.5"]) expect(ConfirmAboveSchema.safeParse(bad).success).toBe(false);
  });
});

describe("guardsInForce", () => {
  it("is the default stuck_after, and no threshold, when nothing sets them", () => {
    expect(DEFAULT_STUCK_AFTER).toBe(3);
    expect(guardsInForce()).toEqual({ stuckAfter: 3 });
    expect(guardsInForce(undefined, {})).toEqual({ stuckAfter: 3 });
  });

  it("takes the smallest stuck_after that counts, from any source", () => {
    expect(guardsInForce({ stuckAfter: 5 })).toEqual({ stuckAfter: 5 });
    expect(guardsInForce({ stuckAfter: 5 }, { stuckAfter: 2 })).toEqual({ stuckAfter: 2 });
    expect(guardsInForce({ stuckAfter: 2 }, { stuckAfter: 5 })).toEqual({ stuckAfter: 2 });
  });

  it("is off only when every source that sets it says 0: a gated skill that asks for the rule keeps it", () => {
    expect(guardsInForce({ stuckAfter: 0 })).toEqual({ stuckAfter: 0 });
    expect(guardsInForce({ stuckAfter: 0 }, { stuckAfter: 4 })).toEqual({ stuckAfter: 4 });
    expect(guardsInForce({ stuckAfter: 0 }, {})).toEqual({ stuckAfter: 0 });
  });

  it("takes the lowest uncertainty threshold (it asks the user more often)", () => {
    expect(guardsInForce({ confirmAboveUncertainty: 0.8 }, { confirmAboveUncertainty: 0.6 })).toEqual({
      stuckAfter: 3,
      confirmAboveUncertainty: 0.6,
    });
    expect(guardsInForce({ confirmAboveUncertainty: 0.6 }, { confirmAboveUncertainty: 0.8 }).confirmAboveUncertainty).toBe(0.6);
    expect(guardsInForce(undefined, { confirmAboveUncertainty: 0 }).confirmAboveUncertainty).toBe(0);
  });
});

describe("tightestGuards", () => {
  it("merges two sources into settings: only what one of them sets", () => {
    expect(tightestGuards(undefined, undefined)).toStrictEqual({});
    expect(tightestGuards({ stuckAfter: 4 }, undefined)).toStrictEqual({ stuckAfter: 4 });
    expect(tightestGuards(undefined, { stuckAfter: 0 })).toEqual({ stuckAfter: 0 });
    expect(tightestGuards({ stuckAfter: 4, confirmAboveUncertainty: 0.9 }, { stuckAfter: 2, confirmAboveUncertainty: 0.7 })).toEqual({
      stuckAfter: 2,
      confirmAboveUncertainty: 0.7,
    });
    expect(tightestGuards({ confirmAboveUncertainty: 0.9 }, {})).toEqual({ confirmAboveUncertainty: 0.9 });
  });
});

describe("the keys' tables, for the frontmatter and the user's settings", () => {
  it("each key sets its field and says what it expects", () => {
    expect(GUARD_KEYS).toEqual(["utility_stuck_after", "utility_confirm_above_uncertainty"]);
    expect(GUARD_FIELD).toEqual({ utility_stuck_after: "stuckAfter", utility_confirm_above_uncertainty: "confirmAboveUncertainty" });
    expect(GUARD_EXPECTED.utility_stuck_after).toBe("a whole number of at least 2, or 0 to turn the stuck-loop rule off");
    expect(GUARD_EXPECTED.utility_confirm_above_uncertainty).toBe("a number from 0 to 1, such as 0.7");
  });

  it("the schema keeps both settings and drops nothing valid", () => {
    expect(GuardsSchema.parse({ stuckAfter: 0, confirmAboveUncertainty: 0.7 })).toStrictEqual({
      stuckAfter: 0,
      confirmAboveUncertainty: 0.7,
    });
    expect(GuardsSchema.safeParse({ stuckAfter: 1 }).success).toBe(false);
    expect(GuardsSchema.safeParse({ confirmAboveUncertainty: 2 }).success).toBe(false);
  });
});
