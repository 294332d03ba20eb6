/**
 * A call judged by what it can do, not by its name (SPEC §6): a Skill call
 * acting as tool_call or delegate, and Workflow, which launches agents.
 */
import { describe, expect, it } from "vitest";
import { decideToolCall, type GateBudget, type GateDecision, type GateInput } from "../../src/engine/gate.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { defaultConfig } from "../../src/engine/signals.js";
import { zeroSpend } from "../../src/engine/spend.js";
import { decideCall } from "../../src/engine/session/decide.js";
import { applyEvents } from "../../src/engine/session/scope-reducer.js";
import { newScope } from "../../src/engine/session/state.js";
import { actionPermitsActing, AGENT_LAUNCH_TOOLS, DELEGATE_TOOLS, launchesAgents, type ActsAs } from "../../src/engine/tools.js";
import { checkAgentLimit } from "../../src/engine/budget.js";

const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0";
const report = (action: string) => `Action: ${action}\nUtility: 0.28\nBreakdown: ${GOOD}\nRationale: "because"`;
const SHELL: ActsAs = { action: "tool_call", why: 'skill "sh" runs shell commands when it loads (/p/SKILL.md)' };
const FORK: ActsAs = { action: "delegate", why: 'skill "f" runs in a forked subagent when it loads' };

function decide(over: Partial<GateInput>): GateDecision {
  return decideToolCall({ scope: "self", gated: true, tool: "Skill", step: 0, config: defaultConfig(), extraTools: {}, ...over });
}
const budget = (over: Partial<GateBudget> = {}): GateBudget => ({
  spend: zeroSpend(),
  user: {},
  prices: DEFAULT_PRICES,
  launched: 0,
  ...over,
});
const reasonOf = (d: GateDecision) => (d.decision === "refused" ? `${d.rule}: ${d.reason}` : d.decision);

describe("a Skill call acting as tool_call", () => {
  it("needs a report, and the refusal says what the skill does", () => {
    expect(reasonOf(decide({ actsAs: SHELL }))).toMatch(
      /^no_report: No action report before this Skill call \(skill "sh" runs shell commands when it loads \(\/p\/SKILL.md\), so it counts as tool_call\)\./,
    );
  });

  it("passes under a tool_call report and is refused under any other action", () => {
    expect(decide({ actsAs: SHELL, reportText: report("tool_call") }).decision).toBe("passed");
    for (const action of ["retrieve", "verify", "delegate"])
      expect(reasonOf(decide({ actsAs: SHELL, reportText: report(action) }))).toBe(
        `tool_not_permitted: Action ${action} does not permit this Skill call: ${SHELL.why}, so it counts as tool_call. Rescore with tool_call if it is the best.`,
      );
  });

  it("is permitted by an action whose extra names list Skill", () => {
    expect(decide({ actsAs: SHELL, reportText: report("verify"), extraTools: { verify: ["Skill"] } }).decision).toBe("passed");
  });

  it("without actsAs a Skill call is neutral, as before", () => {
    expect(decide({}).decision).toBe("neutral");
  });

  it("outside the gate (where a budget binds, the hooks judge its skill) it is observed as the call it acts as: it counts; only a spent budget refuses it (test/engine/gate-budgets.test.ts)", () => {
    expect(decide({ actsAs: SHELL, gated: false }).decision).toBe("observed");
    expect(decide({ actsAs: FORK, gated: false }).decision).toBe("observed");
  });
});

describe("a Skill call acting as delegate", () => {
  it("needs a delegate report: tool_call does not permit it", () => {
    expect(decide({ actsAs: FORK, reportText: report("delegate") }).decision).toBe("passed");
    expect(reasonOf(decide({ actsAs: FORK, reportText: report("tool_call") }))).toMatch(
      /does not permit this Skill call: .* so it counts as delegate/,
    );
  });

  it("in a subagent scope no action permits it", () => {
    expect(reasonOf(decide({ scope: "subagent", actsAs: FORK, reportText: report("tool_call") }))).toMatch(
      /In subagent scope no action permits it\.$/,
    );
  });

  it("counts as an agent launch for utility_max_agents; a tool_call Skill does not", () => {
    const over = budget({ user: { maxAgents: 1 }, launched: 1 });
    expect(reasonOf(decide({ actsAs: FORK, reportText: report("delegate"), budget: over }))).toMatch(
      /^agents_exhausted: .*this Skill call would be one more/,
    );
    expect(decide({ actsAs: SHELL, reportText: report("tool_call"), budget: over }).decision).toBe("passed");
    expect(decide({ actsAs: FORK, reportText: report("delegate"), budget: budget({ user: { maxAgents: 1 } }) }).decision).toBe("passed");
  });
});

describe("every tool that launches agents is delegate", () => {
  it("Workflow is refused under a tool_call report and passes under delegate", () => {
    expect(reasonOf(decide({ tool: "Workflow", reportText: report("tool_call") }))).toMatch(
      /^tool_not_permitted: Action tool_call does not permit Workflow; .* Workflow fits delegate/,
    );
    expect(decide({ tool: "Workflow", reportText: report("delegate") }).decision).toBe("passed");
  });

  it("one definition: Agent, Task and Workflow launch agents; SendMessage is delegate and launches none", () => {
    expect([...AGENT_LAUNCH_TOOLS]).toEqual(["Agent", "Task", "Workflow"]);
    expect([...DELEGATE_TOOLS]).toEqual(["Agent", "Task", "Workflow", "SendMessage"]);
    expect(["Agent", "Task", "Workflow", "SendMessage", "Bash", "Skill"].map(launchesAgents)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(checkAgentLimit("Workflow", 0, { maxAgents: 0 })?.rule).toBe("agents_exhausted");
    expect(checkAgentLimit("Skill", 0, { maxAgents: 0 }, true)?.rule).toBe("agents_exhausted");
    expect(checkAgentLimit("Agent", 0, { maxAgents: 0 }, false)).toBeUndefined();
  });

  it("ending actions permit no acting call", () => {
    expect(actionPermitsActing("respond", "Skill", SHELL, { respond: ["Skill"] })).toBe(false);
    expect(actionPermitsActing("tool_call", "Skill", SHELL)).toBe(true);
  });
});

describe("the reducer and decideCall", () => {
  const gate = { file: "/s/SKILL.md", gated: true as const, scope: "self" as const, config: defaultConfig(), extraTools: {} };

  it("a passed Skill acting as delegate counts a launch, and so does Workflow; a passed Skill acting as tool_call does not", () => {
    const fork = decideCall(newScope(), "self", gate, {
      tool: "Skill",
      input: { skill: "f" },
      toolUseId: "t1",
      reportText: report("delegate"),
      actsAs: FORK,
    });
    expect(fork.event).toMatchObject({ decision: "passed", actsAs: "delegate", effect: { kind: "exec" } });
    const shell = decideCall(newScope(), "self", gate, {
      tool: "Skill",
      input: { skill: "s" },
      toolUseId: "t2",
      reportText: report("tool_call"),
      actsAs: SHELL,
    });
    const flow = decideCall(newScope(), "self", gate, {
      tool: "Workflow",
      input: { script: "x" },
      toolUseId: "t3",
      reportText: report("delegate"),
    });
    const state = applyEvents(newScope(), [fork.event, shell.event, flow.event]).state;
    expect(state.spend).toMatchObject({ agentsLaunched: 2, toolCalls: 3 });
    expect(state.step).toBe(3);
  });

  it("a neutral Skill call is no step and its effect stays neutral", () => {
    const d = decideCall(newScope(), "self", gate, { tool: "Skill", input: { skill: "n" }, toolUseId: "t1" });
    expect(d.decision).toEqual({ decision: "neutral" });
    expect(d.event).toMatchObject({ effect: { kind: "neutral" } });
    expect(d.event).not.toHaveProperty("actsAs");
    expect(applyEvents(newScope(), [d.event]).state.step).toBe(0);
  });
});
