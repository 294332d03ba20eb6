import { describe, expect, it } from "vitest";
import { agentLabel, checkAgentCaps, hasAgentCap } from "../../src/engine/agent-caps.js";
import { FRONTMATTER_NAMES, SETTING_NAMES } from "../../src/engine/budget.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { zeroSpend, type Spend } from "../../src/engine/spend.js";

function spent(input: number, toolCalls = 0, model = "claude-opus-5-5"): Spend {
  const s = zeroSpend();
  s.tokens.input = input;
  s.byModel[model] = { ...s.tokens };
  s.toolCalls = toolCalls;
  return s;
}
const label = agentLabel("Explore", "a1b2");

describe("caps on one subagent (SPEC §16)", () => {
  it("names the subagent by its type and id", () => {
    expect(label).toBe("the subagent Explore (agent a1b2)");
    expect(agentLabel(undefined, "x")).toBe("the subagent (no type) (agent x)");
  });

  it("any of the three caps makes one", () => {
    expect(hasAgentCap({})).toBe(false);
    expect(hasAgentCap({ tokenBudget: 5, maxToolCalls: 3 })).toBe(false);
    expect(hasAgentCap({ agentTokenBudget: 1 })).toBe(true);
    expect(hasAgentCap({ agentCostBudgetUsd: 0.1 })).toBe(true);
    expect(hasAgentCap({ agentMaxToolCalls: 1 })).toBe(true);
  });

  it("tokens: refused once its own tokens reach the cap, not one before; told to report to its parent", () => {
    const budgets = { agentTokenBudget: 1000 };
    expect(checkAgentCaps({ spend: spent(999), label }, budgets, DEFAULT_PRICES, SETTING_NAMES)).toBeUndefined();
    const over = checkAgentCaps({ spend: spent(1000), label }, budgets, DEFAULT_PRICES, SETTING_NAMES);
    expect(over).toEqual({
      rule: "budget_spent",
      reason:
        "the subagent Explore (agent a1b2) has spent its token cap: 1,000 tokens of 1,000 (your agent_token_budget setting). Stop now: reply to your parent with what you found and what is left to do. Your parent goes on.",
    });
  });

  it("dollars: estimated from its own spend at the table's prices, named by the key that set it", () => {
    // 200k opus input tokens at $5 per million: $1.00.
    const budgets = { agentCostBudgetUsd: 1 };
    expect(checkAgentCaps({ spend: spent(199_999), label }, budgets, DEFAULT_PRICES, FRONTMATTER_NAMES)).toBeUndefined();
    const over = checkAgentCaps({ spend: spent(200_000), label }, budgets, DEFAULT_PRICES, FRONTMATTER_NAMES);
    expect(over?.reason).toContain("has spent its cost cap: an estimated $1.00 of $1.00 (utility_agent_cost_budget_usd;");
  });

  it("tool calls: the call after the last allowed one is refused", () => {
    const budgets = { agentMaxToolCalls: 2 };
    expect(checkAgentCaps({ spend: spent(0, 1), label }, budgets, DEFAULT_PRICES, SETTING_NAMES)).toBeUndefined();
    expect(checkAgentCaps({ spend: spent(0, 2), label }, budgets, DEFAULT_PRICES, SETTING_NAMES)?.reason).toContain(
      "has made its 2 tool calls (your agent_max_tool_calls setting)",
    );
    expect(checkAgentCaps({ spend: spent(0, 1), label }, { agentMaxToolCalls: 1 }, DEFAULT_PRICES, SETTING_NAMES)?.reason).toContain(
      "its 1 tool call (",
    );
  });

  it("the first cap reached is named: tokens, then dollars, then calls", () => {
    const all = { agentTokenBudget: 10, agentCostBudgetUsd: 0.000001, agentMaxToolCalls: 1 };
    expect(checkAgentCaps({ spend: spent(10, 5), label }, all, DEFAULT_PRICES, SETTING_NAMES)?.reason).toContain("token cap");
    expect(checkAgentCaps({ spend: spent(5, 5), label }, all, DEFAULT_PRICES, SETTING_NAMES)?.reason).toContain("cost cap");
    const noCost = { agentTokenBudget: 10, agentMaxToolCalls: 1 };
    expect(checkAgentCaps({ spend: spent(5, 5), label }, noCost, DEFAULT_PRICES, SETTING_NAMES)?.reason).toContain("tool call");
  });
});
