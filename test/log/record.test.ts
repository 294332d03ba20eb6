import { describe, expect, it } from "vitest";
import { importsUnder } from "../support/imports.js";
import { LogRecordSchema } from "../../src/log/record.js";
import { RULES } from "../../src/engine/vocabulary.js";

describe("src/log/record.ts", () => {
  it("takes its words from the vocabulary, not from the report checker", () => {
    const targets = importsUnder("src/log").map((i) => i.target);
    expect(targets).toContain("src/engine/vocabulary.js");
    expect(targets.filter((t) => t.startsWith("src/engine/report/"))).toEqual([]);
  });

  it("accepts every rule id of the vocabulary and no other", () => {
    const rule = LogRecordSchema.shape.rule;
    for (const id of RULES) expect(rule.safeParse(id).success).toBe(true);
    expect(rule.safeParse("is_not_a_rule").success).toBe(false);
  });

  it("carries the budgets in force as the engine defines them, and no budget the engine would refuse", () => {
    const budgets = LogRecordSchema.shape.budgets;
    expect(budgets.safeParse(undefined).success).toBe(true);
    expect(budgets.safeParse({ tokenBudget: 200_000, costBudgetUsd: 0.5, maxAgents: 2, stepCost: "computed" }).success).toBe(true);
    expect(budgets.safeParse({ tokenBudget: 0 }).success).toBe(false);
    expect(budgets.safeParse({ costBudgetUsd: -1 }).success).toBe(false);
  });
});
