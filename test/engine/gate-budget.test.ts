import { describe, expect, it } from "vitest";
import { budgetsInForce, decideToolCall, type GateBudget, type GateDecision, type GateInput } from "../../src/engine/gate.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { defaultConfig } from "../../src/engine/signals.js";
import { zeroSpend, type Spend } from "../../src/engine/spend.js";

const report = (stepCost: string, utility: string) =>
  `Action: tool_call\nUtility: ${utility}\nBreakdown: Gain=0.7 StepCost=${stepCost} Uncertainty=0.6 Redundancy=0.0\nRationale: "because"`;

function spentTokens(n: number): Spend {
  const s = zeroSpend();
  s.tokens.output = n;
  s.byModel["claude-sonnet-4-5"] = { ...s.tokens };
  return s;
}

function budget(over: Partial<GateBudget> = {}): GateBudget {
  return { spend: zeroSpend(), user: {}, prices: DEFAULT_PRICES, launched: 0, ...over };
}

function decide(over: Partial<GateInput>): GateDecision {
  return decideToolCall({
    scope: "self",
    gated: true,
    tool: "Bash",
    step: 0,
    config: defaultConfig(),
    extraTools: {},
    reportText: report("0.12", "0.28"),
    ...over,
  });
}

const ruleOf = (d: GateDecision) => (d.decision === "refused" ? d.rule : d.decision);

describe("the gate with spend and budgets (SPEC §12)", () => {
  it("no budget input: today's decisions, unchanged", () => {
    expect(decide({}).decision).toBe("passed");
    expect(decide({ gated: false }).decision).toBe("observed");
  });

  it("budget_spent refuses every further call once the user's token budget is reached, gated or not", () => {
    const b = budget({ user: { tokenBudget: 100 }, spend: spentTokens(100) });
    const gated = decide({ budget: b });
    expect(ruleOf(gated)).toBe("budget_spent");
    expect(ruleOf(decide({ gated: false, budget: b }))).toBe("budget_spent");
    expect(ruleOf(decide({ gated: false, budget: b, tool: "Read", reportText: undefined }))).toBe("budget_spent");
    expect(decide({ gated: false, budget: { ...b, spend: spentTokens(99) } }).decision).toBe("observed");
  });

  it("neutral tools are never refused, even over budget", () => {
    const b = budget({ user: { tokenBudget: 1 }, spend: spentTokens(5) });
    expect(decide({ tool: "TodoWrite", budget: b }).decision).toBe("neutral");
  });

  it("the frontmatter budgets the session machine says bind the scope apply, gated or not (which bind: test/engine/session/views.test.ts)", () => {
    const b = budget({ gate: { tokenBudget: 10, maxAgents: 0 }, spend: spentTokens(50) });
    expect(ruleOf(decide({ budget: b }))).toBe("budget_spent");
    expect(ruleOf(decide({ gated: false, budget: b }))).toBe("budget_spent");
    expect(budgetsInForce({ budget: { ...b, gate: undefined } })).toEqual({});
    expect(budgetsInForce({ budget: { ...b, user: { tokenBudget: 5 } } })).toEqual({ tokenBudget: 5, maxAgents: 0 });
  });

  it("the smallest of the user's and the frontmatter's budgets wins", () => {
    const b = budget({ user: { tokenBudget: 1000 }, gate: { tokenBudget: 200 }, spend: spentTokens(300) });
    expect(ruleOf(decide({ budget: b }))).toBe("budget_spent");
    expect(ruleOf(decide({ budget: { ...b, user: { tokenBudget: 200 }, gate: { tokenBudget: 1000 } } }))).toBe("budget_spent");
  });

  it("agents_exhausted: of three Agent calls in one message under a limit of 2, two go on", () => {
    const agent = (launched: number, gated: boolean) =>
      decide({
        gated,
        tool: "Agent",
        budget: budget({ user: { maxAgents: 2 }, launched }),
        reportText: "Action: delegate\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: x",
      });
    expect([0, 1, 2].map((n) => ruleOf(agent(n, true)))).toEqual(["passed", "passed", "agents_exhausted"]);
    expect([0, 1, 2].map((n) => ruleOf(agent(n, false)))).toEqual(["observed", "observed", "agents_exhausted"]);
  });

  it("invalid user settings refuse in a gated scope only, with the problem; the valid budgets still apply everywhere (SPEC §10)", () => {
    const b = budget({
      userProblem: "the plugin option max_agents (CLAUDE_PLUGIN_OPTION_MAX_AGENTS) is -1; expected a whole number of at least 0.",
    });
    const d = decide({
      gated: true,
      budget: b,
      reportText: "Action: tool_call\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: x",
    });
    expect(ruleOf(d)).toBe("budget_invalid");
    expect(d.decision === "refused" && d.reason).toContain("CLAUDE_PLUGIN_OPTION_MAX_AGENTS");
    expect(decide({ gated: false, budget: b }).decision).toBe("observed");
    expect(ruleOf(decide({ gated: false, budget: { ...b, user: { tokenBudget: 10 }, spend: spentTokens(20) } }))).toBe("budget_spent");
    expect(decide({ gated: false, tool: "Skill", budget: b }).decision).toBe("neutral");
  });

  describe("utility_step_cost: computed", () => {
    // step 3 of 10, 2,500 of 10,000 tokens on sonnet: 0.5·0.3 + 0.3·0.25 + 0.2·0.4 = 0.305
    const spend = spentTokens(2500);
    const b = budget({ gate: { stepCost: "computed", tokenBudget: 10000 }, spend });

    it("a report within 0.05 of the measured StepCost passes; one further below is refused with the computed value", () => {
      expect(decide({ step: 3, budget: b, reportText: report("0.26", "0.14") }).decision).toBe("passed");
      const d = decide({ step: 3, budget: b, reportText: report("0.25", "0.15") });
      expect(ruleOf(d)).toBe("step_cost_understated");
      expect(d.decision === "refused" && d.reason).toContain("StepCost=0.31");
    });

    it("the user's setting applies in every gated scope; reported (the default) checks nothing", () => {
      const user = budget({ user: { stepCost: "computed", tokenBudget: 10000 }, spend });
      expect(ruleOf(decide({ step: 3, budget: user, reportText: report("0.12", "0.28") }))).toBe("step_cost_understated");
      expect(
        decide({ step: 3, budget: budget({ spend, gate: { stepCost: "reported" } }), reportText: report("0.12", "0.28") }).decision,
      ).toBe("passed");
    });

    it("an ungated scope has no report to check", () => {
      expect(decide({ gated: false, step: 3, budget: { ...b, user: { stepCost: "computed" } } }).decision).toBe("observed");
    });
  });
});
