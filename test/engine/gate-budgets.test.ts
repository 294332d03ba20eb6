// Past a spent budget (SPEC §12, src/engine/gate-budgets.ts): calls that stop
// work go on in every scope, gated or not, until a few stopped nothing; planning
// calls go on, at most PLANNING_CALLS_PAST_BUDGET and no repeat; a Skill call that
// acts as more is refused like the call it acts as.
import { describe, expect, it } from "vitest";
import { decideToolCall, type GateBudget, type GateDecision, type GateInput } from "../../src/engine/gate.js";
import { spentBudget, windDownKind, type WindDown } from "../../src/engine/gate-budgets.js";
import { FAILED_STOPS_PAST_BUDGET, PLANNING_CALLS_PAST_BUDGET } from "../../src/engine/defaults.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { defaultConfig } from "../../src/engine/signals.js";
import { zeroSpend, type Spend } from "../../src/engine/spend.js";
import { WORK_STOP_TOOLS } from "../../src/engine/tools.js";
import { decideCall } from "../../src/engine/session/decide.js";
import { applyEvents } from "../../src/engine/session/scope-reducer.js";
import { newScope, type ScopeState } from "../../src/engine/session/state.js";

function spentTokens(n: number): Spend {
  const s = zeroSpend();
  s.tokens.output = n;
  s.byModel["claude-sonnet-4-5"] = { ...s.tokens };
  return s;
}
const budget = (over: Partial<GateBudget> = {}): GateBudget => ({
  spend: zeroSpend(),
  user: {},
  prices: DEFAULT_PRICES,
  launched: 0,
  ...over,
});
const SPENT = budget({ user: { tokenBudget: 100 }, spend: spentTokens(150) });
const report = `Action: tool_call\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "go"`;

function decide(over: Partial<GateInput>): GateDecision {
  return decideToolCall({ scope: "self", gated: true, tool: "TaskStop", step: 0, config: defaultConfig(), extraTools: {}, ...over });
}
const ruleOf = (d: GateDecision) => (d.decision === "refused" ? d.rule : d.decision);

describe("calls that stop work past a spent budget", () => {
  const spentEveryWay: Array<[string, Partial<GateInput>]> = [
    ["the task's tokens (the user's setting)", { budget: SPENT }],
    ["the task's tokens (frontmatter)", { budget: budget({ gate: { tokenBudget: 10 }, spend: spentTokens(10) }) }],
    ["the session's tokens", { budget: budget({ beyond: { budgets: { sessionTokenBudget: 5 }, spent: { session: spentTokens(9) } } }) }],
    [
      "the window's dollars",
      {
        budget: budget({
          beyond: { budgets: { windowCostBudgetUsd: 0.0001 }, spent: { session: zeroSpend(), window: spentTokens(10_000) } },
        }),
      },
    ],
    ["a subagent started past max_agents", { scope: "subagent", budget: budget({ user: { maxAgents: 1 }, startedAs: 2 }) }],
  ];
  const steps: Partial<GateInput> = { step: 10 };

  it.each(spentEveryWay)("go on past %s, gated with no report and ungated, with a line saying why", (_, over) => {
    for (const tool of WORK_STOP_TOOLS)
      for (const gated of [true, false]) {
        const d = decide({ ...over, tool, gated });
        expect(d).toMatchObject({ decision: "observed", pastBudget: true });
        expect(d.decision === "observed" && d.hint).toContain(`utility: this ${tool} call goes on though a budget is spent`);
      }
  });

  it("go on past a gated task's steps, with no report; ungated, no step budget binds", () => {
    expect(decide({ ...steps, tool: "TaskStop" })).toMatchObject({ decision: "observed", pastBudget: true });
    expect(decide({ ...steps, tool: "TaskStop", gated: false })).toEqual({ decision: "observed" });
    expect(ruleOf(decide({ ...steps, tool: "Bash", reportText: report }))).toBe("budget_spent");
  });

  it("the calls they stop were refused there: a Bash past the same budgets is", () => {
    for (const [, over] of spentEveryWay)
      for (const gated of [true, false]) {
        const d = decide({ ...over, gated, tool: "Bash", reportText: report });
        expect(["budget_spent", "agents_exhausted"]).toContain(ruleOf(d));
      }
  });

  it("with no budget spent, a gated stop still needs its tool_call report; an ungated one is observed", () => {
    expect(ruleOf(decide({}))).toBe("no_report");
    expect(decide({ reportText: report })).toMatchObject({ decision: "passed" });
    expect(decide({ gated: false })).toEqual({ decision: "observed" });
  });

  it("where gated, hooks registered outside the gate and a protected target still refuse it; an invalid opt-in does not", () => {
    expect(ruleOf(decide({ budget: SPENT, foreignHooks: "skill x registers hooks" }))).toBe("foreign_hooks");
    expect(ruleOf(decide({ budget: SPENT, protectedTarget: "task_id names the data folder" }))).toBe("protected_target");
    expect(decide({ budget: SPENT, optInProblem: "utility_max_steps is x" }).decision).toBe("observed");
    expect(decide({ budget: SPENT, gated: false, foreignHooks: "h" }).decision).toBe("observed");
  });

  it("invalid budget settings, which refuse every other gated call, do not refuse a stop", () => {
    const invalid = budget({ userProblem: "token_budget is x" });
    expect(ruleOf(decide({ tool: "Bash", budget: invalid, reportText: report }))).toBe("budget_invalid");
    expect(decide({ budget: invalid, reportText: report }).decision).toBe("passed");
  });

  it(`are refused once ${FAILED_STOPS_PAST_BUDGET} of them since the budget was spent came back with an error`, () => {
    const failed = { tool: "TaskStop", digest: "d", failed: true };
    const fewer = Array.from({ length: FAILED_STOPS_PAST_BUDGET - 1 }, () => failed);
    const ok = { tool: "TaskStop", digest: "e" };
    expect(decide({ budget: SPENT, windDown: { digest: "x", earlier: [...fewer, ok, ok, ok] } }).decision).toBe("observed");
    const d = decide({ budget: SPENT, windDown: { digest: "x", earlier: [...fewer, failed] } });
    expect(ruleOf(d)).toBe("budget_spent");
    expect(d.decision === "refused" && d.reason).toContain(
      `This task's token budget is spent: 150 tokens of 100 (your token_budget setting; input 0, output 150, cache writes 0, cache reads 0). Respond with what you have, or stop. Past it, calls that stop work go on until ${FAILED_STOPS_PAST_BUDGET} of them stopped nothing; ${FAILED_STOPS_PAST_BUDGET} came back with an error, so this TaskStop call is refused too.`,
    );
  });

  it("only the stopping tools: polls and a Skill call that acts as tool_call are no wind-down", () => {
    expect(windDownKind({ tool: "TaskOutput" } as GateInput)).toBeUndefined();
    expect(windDownKind({ tool: "TodoWrite" } as GateInput)).toBe("plans");
    expect(windDownKind({ tool: "Skill", actsAs: { action: "tool_call", why: "w" } } as GateInput)).toBeUndefined();
    expect(spentBudget({ tool: "x", gated: false, step: 99, config: defaultConfig() } as GateInput)).toBeUndefined();
  });
});

describe("a Skill call whose skill acts as more, in a scope no skill gates", () => {
  const shell = { action: "tool_call" as const, why: 'skill "x" runs shell commands when it loads' };
  const fork = { action: "delegate" as const, why: 'skill "f" runs in a forked subagent' };
  it("is refused like the call it acts as past a spent budget, and observed within the budgets: it counts as a call (red team 10)", () => {
    expect(ruleOf(decide({ tool: "Skill", gated: false, actsAs: shell, budget: SPENT }))).toBe("budget_spent");
    expect(decide({ tool: "Skill", gated: false, actsAs: shell, budget: budget({ user: { tokenBudget: 100 } }) })).toEqual({
      decision: "observed",
    });
  });

  it("a forked one is refused once the task's agents are launched", () => {
    const full = budget({ user: { maxAgents: 1 }, launched: 1 });
    expect(ruleOf(decide({ tool: "Skill", gated: false, actsAs: fork, budget: full }))).toBe("agents_exhausted");
    expect(decide({ tool: "Skill", gated: false, actsAs: shell, budget: full }).decision).toBe("observed");
  });
});

describe("planning calls past a spent budget", () => {
  const plan = (tool: string, digest: string, earlier: WindDown["earlier"]) =>
    decide({ tool, gated: false, budget: SPENT, windDown: { digest, earlier } });

  it("go on while no budget is spent, as always, unmarked", () => {
    expect(decide({ tool: "ToolSearch", gated: false })).toEqual({ decision: "neutral" });
    expect(decide({ tool: "ToolSearch", step: 3 })).toEqual({ decision: "neutral" });
  });

  it(`go on past it, ${PLANNING_CALLS_PAST_BUDGET} of them, each marked for the session to count`, () => {
    expect(plan("ToolSearch", "a", [])).toEqual({ decision: "neutral", pastBudget: true });
    expect(plan("TodoWrite", "b", [{ tool: "ToolSearch", digest: "a" }])).toEqual({ decision: "neutral", pastBudget: true });
  });

  it("a repeat of one made since it was spent is refused, naming the budget and the rule", () => {
    const d = plan("ToolSearch", "a", [{ tool: "ToolSearch", digest: "a" }]);
    expect(ruleOf(d)).toBe("budget_spent");
    expect(d.decision === "refused" && d.reason).toMatch(
      new RegExp(
        `^This task's token budget is spent: .* Past it, at most ${PLANNING_CALLS_PAST_BUDGET} planning calls go on, none repeating another; this ToolSearch call repeats one made since it was spent\\.$`,
      ),
    );
    // The same digest under another tool is no repeat.
    expect(plan("TodoWrite", "a", [{ tool: "ToolSearch", digest: "a" }]).decision).toBe("neutral");
  });

  it(`the one after ${PLANNING_CALLS_PAST_BUDGET} is refused, however it differs; stops made in between do not count`, () => {
    const made = Array.from({ length: PLANNING_CALLS_PAST_BUDGET }, (_, i) => ({ tool: "ToolSearch", digest: `q${i}` }));
    const d = plan("ToolSearch", "new", [...made, { tool: "TaskStop", digest: "s" }]);
    expect(d.decision === "refused" && d.reason).toContain(`; ${PLANNING_CALLS_PAST_BUDGET} were made since it was spent.`);
    expect(plan("ToolSearch", "new", [...made.slice(1), { tool: "TaskStop", digest: "s" }]).decision).toBe("neutral");
  });
});

describe("the session remembers the wind-down calls of the task", () => {
  const ask = (scope: ScopeState, tool: string, input: unknown, id: string) =>
    decideCall(scope, "self", undefined, { tool, input, toolUseId: id, budget: SPENT });

  it("counts planning calls past the budget, refuses a repeat and the one past the cap, and starts over with a typed prompt", () => {
    let scope = newScope();
    for (let i = 0; i < PLANNING_CALLS_PAST_BUDGET; i++) {
      const d = ask(scope, "ToolSearch", { query: `select:T${i}` }, `p${i}`);
      expect(d.event).toMatchObject({ decision: "neutral", pastBudget: true });
      scope = applyEvents(scope, [d.event]).state;
    }
    expect(scope.windDown?.map((c) => c.toolUseId)).toEqual(["p0", "p1", "p2"]);
    expect(ruleOf(ask(scope, "ToolSearch", { query: "select:T0" }, "again").decision)).toBe("budget_spent");
    expect(ruleOf(ask(scope, "TodoWrite", { todos: [] }, "more").decision)).toBe("budget_spent");
    const refused = ask(scope, "TodoWrite", { todos: [] }, "more");
    expect(applyEvents(scope, [refused.event]).state.windDown).toHaveLength(PLANNING_CALLS_PAST_BUDGET);
    const next = applyEvents(scope, [{ kind: "prompt", typed: true }]).state;
    expect(next.windDown).toBeUndefined();
    expect(ask(next, "TodoWrite", { todos: [] }, "fresh").decision.decision).toBe("neutral");
  });

  it("counts the stops past the budget that came back with an error, from their results", () => {
    let scope = newScope();
    for (let i = 0; i < FAILED_STOPS_PAST_BUDGET; i++) {
      const d = ask(scope, "TaskStop", { task_id: `nope${i}` }, `s${i}`);
      expect(d.event).toMatchObject({ decision: "observed", pastBudget: true });
      scope = applyEvents(scope, [d.event, { kind: "result", toolUseId: `s${i}`, failed: true, bytes: 9 }]).state;
    }
    expect(ruleOf(ask(scope, "TaskStop", { task_id: "real" }, "last").decision)).toBe("budget_spent");
  });

  it("counts only the stops' own errors: stops that worked, and another call that failed, leave the next stop free", () => {
    let scope = newScope();
    for (let i = 0; i < FAILED_STOPS_PAST_BUDGET; i++) {
      const d = ask(scope, "TaskStop", { task_id: `job${i}` }, `s${i}`);
      scope = applyEvents(scope, [d.event, { kind: "result", toolUseId: `s${i}`, failed: false, bytes: 9 }]).state;
      // Run before the budget was spent (no budget given), and failed.
      const other = decideCall(scope, "self", undefined, { tool: "Bash", input: { command: `false ${i}` }, toolUseId: `b${i}` });
      scope = applyEvents(scope, [other.event, { kind: "result", toolUseId: `b${i}`, failed: true, bytes: 9 }]).state;
    }
    expect(ask(scope, "TaskStop", { task_id: "real" }, "last").decision).toMatchObject({ decision: "observed", pastBudget: true });
  });
});
