import { describe, expect, it } from "vitest";
import { decideToolCall } from "../../src/engine/gate.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { defaultConfig } from "../../src/engine/signals.js";
import { zeroSpend } from "../../src/engine/spend.js";
import { gateBudgetFrom, userBudgetsSet } from "../../src/hooks/budgets.js";
import type { GateSource } from "../../src/engine/session/state.js";

const gate = (budgets?: GateSource["budgets"]): GateSource => ({
  file: "s/SKILL.md",
  gated: true,
  scope: "self",
  config: defaultConfig(),
  extraTools: {},
  ...(budgets ? { budgets } : {}),
});
const spent = (n: number) => ({
  ...zeroSpend(),
  tokens: { input: n, output: 0, cacheCreation: 0, cacheRead: 0 },
  byModel: { "claude-sonnet-4-5": { input: n, output: 0, cacheCreation: 0, cacheRead: 0 } },
});

describe("gateBudgetFrom: the hook's budget input to the gate", () => {
  it("is undefined when no budget applies, so the gate decides as before", () => {
    expect(gateBudgetFrom({ spend: zeroSpend(), env: {}, gate: undefined, launched: 0 })).toBeUndefined();
    expect(
      gateBudgetFrom({ spend: zeroSpend(), env: { CLAUDE_PLUGIN_OPTION_STEP_COST: "reported" }, gate: gate(), launched: 0 }),
    ).toBeUndefined();
    expect(userBudgetsSet({})).toBe(false);
  });

  it("carries the user's budgets, the gating file's, the price override and the user's problems", () => {
    const b = gateBudgetFrom({
      spend: spent(10),
      env: { CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "10", CLAUDE_PLUGIN_OPTION_PRICES: '{"sonnet":{"input":100}}' },
      gate: gate({ maxAgents: 1 }),
      launched: 1,
      model: "claude-sonnet-4-5",
    })!;
    expect(b.user).toEqual({ tokenBudget: 10 });
    expect(b.gate).toEqual({ maxAgents: 1 });
    expect(b.prices.families.sonnet.input).toBe(100);
    expect(b.prices.families.opus).toEqual(DEFAULT_PRICES.families.opus);
    expect(b.userProblem).toBeUndefined();
    expect(userBudgetsSet({ CLAUDE_PLUGIN_OPTION_MAX_AGENTS: "x" })).toBe(true);
    expect(
      gateBudgetFrom({ spend: zeroSpend(), env: { CLAUDE_PLUGIN_OPTION_MAX_AGENTS: "x" }, gate: undefined, launched: 0 })?.userProblem,
    ).toContain("max_agents");
  });

  it("end to end through the gate: the user's token budget refuses in an ungated scope", () => {
    const budget = gateBudgetFrom({ spend: spent(10), env: { CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "10" }, gate: undefined, launched: 0 })!;
    const d = decideToolCall({ scope: "self", gated: false, tool: "Bash", step: 0, config: defaultConfig(), extraTools: {}, budget });
    expect(d.decision === "refused" && d.rule).toBe("budget_spent");
  });
});
