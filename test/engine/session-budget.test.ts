// Budgets beyond one task (SPEC §12): the session's tokens and dollars, and the rolling window's dollars.
import { describe, expect, it } from "vitest";
import {
  checkSessionBudgets,
  hasSessionBudget,
  SESSION_BUDGET_EXPECTED,
  SESSION_BUDGET_FIELD,
  SESSION_BUDGET_OPTIONS,
  SESSION_BUDGET_SCHEMAS,
  SessionBudgetsSchema,
  WindowHoursSchema,
  windowHoursOf,
} from "../../src/engine/session-budget.js";
import { DEFAULT_PRICES, estimateCostUsd } from "../../src/engine/prices.js";
import { zeroSpend, type Spend } from "../../src/engine/spend.js";
import { DEFAULT_WINDOW_HOURS, MAX_WINDOW_HOURS } from "../../src/engine/defaults.js";

const OPUS = "claude-opus-4-5-20251101";
const spent = (input: number, output = 0): Spend => {
  const tokens = { input, output, cacheCreation: 0, cacheRead: 0 };
  return { ...zeroSpend(), tokens, byModel: { [OPUS]: { ...tokens } } };
};
const usd = (s: Spend) => estimateCostUsd(s.byModel, DEFAULT_PRICES);

describe("the settings", () => {
  it("window_hours is 1 to a week, 5 unless set", () => {
    expect(DEFAULT_WINDOW_HOURS).toBe(5);
    expect(MAX_WINDOW_HOURS).toBe(168);
    for (const ok of [1, 5, 2.5, 168]) expect(WindowHoursSchema.safeParse(ok).success).toBe(true);
    for (const bad of [0, 0.5, 169, "5"]) expect(WindowHoursSchema.safeParse(bad).success).toBe(false);
    expect(windowHoursOf(undefined)).toBe(5);
    expect(windowHoursOf({ windowHours: 24 })).toBe(24);
  });

  it("a budget is set when any of the three is; window_hours alone sets none", () => {
    expect(hasSessionBudget(undefined)).toBe(false);
    expect(hasSessionBudget({})).toBe(false);
    expect(hasSessionBudget({ windowHours: 3 })).toBe(false);
    expect(hasSessionBudget({ sessionTokenBudget: 1 })).toBe(true);
    expect(hasSessionBudget({ sessionCostBudgetUsd: 1 })).toBe(true);
    expect(hasSessionBudget({ windowCostBudgetUsd: 1 })).toBe(true);
    expect(SessionBudgetsSchema.safeParse({ sessionTokenBudget: 0 }).success).toBe(false);
    expect(SessionBudgetsSchema.safeParse({ windowCostBudgetUsd: 0 }).success).toBe(false);
  });
});

describe("checkSessionBudgets", () => {
  it("refuses once the session's tokens reach the budget, naming it, with the spend", () => {
    expect(checkSessionBudgets({ session: spent(999) }, { sessionTokenBudget: 1000 }, DEFAULT_PRICES)).toBeUndefined();
    const over = checkSessionBudgets({ session: spent(990, 10) }, { sessionTokenBudget: 1000 }, DEFAULT_PRICES);
    expect(over).toEqual({
      rule: "budget_spent",
      reason:
        "This session's token budget is spent: 1,000 tokens of 1,000 (session_token_budget; input 990, output 10, cache writes 0, cache reads 0). Respond with what you have, or stop.",
    });
  });

  it("names a session or window budget the organization set as the organization's, and only that one", () => {
    const org = ["session_max_tool_calls", "window_cost_budget_usd"];
    const calls = { ...zeroSpend(), toolCalls: 3 };
    expect(checkSessionBudgets({ session: calls }, { sessionMaxToolCalls: 3 }, DEFAULT_PRICES, org)?.reason).toContain(
      "3 tool calls of 3 (your organization's session_max_tool_calls setting).",
    );
    expect(checkSessionBudgets({ session: spent(10) }, { sessionTokenBudget: 10 }, DEFAULT_PRICES, org)?.reason).toContain(
      "(session_token_budget; input 10",
    );
    const w = spent(100_000);
    expect(
      checkSessionBudgets({ session: zeroSpend(), window: w }, { windowCostBudgetUsd: usd(w) }, DEFAULT_PRICES, org)?.reason,
    ).toContain("(your organization's window_cost_budget_usd setting, window_hours 5;");
    expect(checkSessionBudgets({ session: calls }, { sessionMaxToolCalls: 3 }, DEFAULT_PRICES)?.reason).toContain(
      "(session_max_tool_calls).",
    );
  });

  it("refuses once the session's estimated dollars reach the budget", () => {
    const s = spent(200_000);
    const cost = usd(s);
    expect(cost).toBeGreaterThan(0);
    expect(checkSessionBudgets({ session: s }, { sessionCostBudgetUsd: cost * 1.01 }, DEFAULT_PRICES)).toBeUndefined();
    const over = checkSessionBudgets({ session: s }, { sessionCostBudgetUsd: cost }, DEFAULT_PRICES);
    expect(over?.rule).toBe("budget_spent");
    expect(over?.reason).toMatch(
      /^This session's cost budget is spent: an estimated \$[0-9.]+ of \$[0-9.]+ \(session_cost_budget_usd; 200,000 tokens at the prices of /,
    );
  });

  it("refuses once the window's dollars reach its budget, naming the window's length", () => {
    const w = spent(100_000);
    const budget = { windowCostBudgetUsd: usd(w), windowHours: 5 };
    const over = checkSessionBudgets({ session: zeroSpend(), window: w }, budget, DEFAULT_PRICES);
    expect(over?.reason).toMatch(
      /^Your cost budget for the last 5 hours, across all your sessions, is spent: an estimated \$[0-9.]+ of \$[0-9.]+ \(window_cost_budget_usd, window_hours 5; 100,000 tokens at the prices of .*\)\. Respond with what you have, or stop\. It frees up as the window moves on\.$/,
    );
    expect(over?.rule).toBe("budget_spent");
    expect(checkSessionBudgets({ session: zeroSpend(), window: spent(99_000) }, budget, DEFAULT_PRICES)).toBeUndefined();
    expect(checkSessionBudgets({ session: zeroSpend(), window: w }, { windowCostBudgetUsd: usd(w) }, DEFAULT_PRICES)?.reason).toContain(
      "the last 5 hours",
    );
  });

  it("does not check the window when its spend was not read (replay), and checks nothing unset", () => {
    expect(checkSessionBudgets({ session: spent(10 ** 9) }, { windowCostBudgetUsd: 0.01 }, DEFAULT_PRICES)).toBeUndefined();
    expect(checkSessionBudgets({ session: spent(10 ** 9), window: spent(10 ** 9) }, {}, DEFAULT_PRICES)).toBeUndefined();
  });

  it("names the first budget spent: the session's tokens, its dollars, then the window", () => {
    const all = { sessionTokenBudget: 1, sessionCostBudgetUsd: 0.000001, windowCostBudgetUsd: 0.000001 };
    expect(checkSessionBudgets({ session: spent(10), window: spent(10) }, all, DEFAULT_PRICES)?.reason).toContain("session_token_budget");
    const { sessionTokenBudget: _t, ...noTokens } = all;
    expect(checkSessionBudgets({ session: spent(10), window: spent(10) }, noTokens, DEFAULT_PRICES)?.reason).toContain(
      "session_cost_budget_usd",
    );
    expect(checkSessionBudgets({ session: zeroSpend(), window: spent(10) }, noTokens, DEFAULT_PRICES)?.reason).toContain(
      "window_cost_budget_usd",
    );
  });
});

describe("the options' tables, for the user's settings", () => {
  it("each option sets its field, is checked by its schema and says what it expects", () => {
    expect(SESSION_BUDGET_OPTIONS).toEqual([
      "session_token_budget",
      "session_cost_budget_usd",
      "session_max_tool_calls",
      "window_cost_budget_usd",
      "window_hours",
    ]);
    expect(SESSION_BUDGET_FIELD).toEqual({
      session_token_budget: "sessionTokenBudget",
      session_cost_budget_usd: "sessionCostBudgetUsd",
      session_max_tool_calls: "sessionMaxToolCalls",
      window_cost_budget_usd: "windowCostBudgetUsd",
      window_hours: "windowHours",
    });
    expect(SESSION_BUDGET_EXPECTED).toEqual({
      session_token_budget: "a whole number of at least 1",
      session_cost_budget_usd: "a number of US dollars greater than 0, such as 5",
      session_max_tool_calls: "a whole number of at least 1",
      window_cost_budget_usd: "a number of US dollars greater than 0, such as 20",
      window_hours: "a number of hours from 1 to 168, such as 5",
    });
    const accepts = (option: keyof typeof SESSION_BUDGET_SCHEMAS, value: unknown) =>
      SESSION_BUDGET_SCHEMAS[option].safeParse(value).success;
    expect([accepts("session_token_budget", 1), accepts("session_token_budget", 1.5)]).toEqual([true, false]);
    expect([accepts("session_cost_budget_usd", 0.5), accepts("session_cost_budget_usd", 0)]).toEqual([true, false]);
    expect([accepts("window_cost_budget_usd", 0.5), accepts("window_cost_budget_usd", 0)]).toEqual([true, false]);
    expect([accepts("window_hours", 168), accepts("window_hours", 169)]).toEqual([true, false]);
    expect([accepts("session_max_tool_calls", 1), accepts("session_max_tool_calls", 0)]).toEqual([true, false]);
  });
});
