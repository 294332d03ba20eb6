// decideInSession (src/engine/session/decide.ts): what it returns beside the decision (the gate
// in force, the budget, the events to reduce) and what of the call and the user's settings
// reaches the gate (the writing model, an invalid setting).
import { describe, expect, it } from "vitest";
import { decideInSession, type UserSettings } from "../../../src/engine/session/decide.js";
import { scoped, type SessionEvent } from "../../../src/engine/session/events.js";
import { reduceAll } from "../../../src/engine/session/reduce.js";
import { newSession, type GateSource, type SessionState } from "../../../src/engine/session/state.js";
import { defaultConfig } from "../../../src/engine/signals.js";

const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0";
const READ = {
  tool: "Read",
  input: { file_path: "/repo/a.ts" },
  toolUseId: "t1",
  reportText: `Action: retrieve\nUtility: 0.28\nBreakdown: ${GOOD}\nRationale: "go"`,
};
const gate: GateSource = { file: "/s/SKILL.md", gated: true, scope: "self", config: defaultConfig(), extraTools: {} };
const run = (...events: SessionEvent[]): SessionState => reduceAll(newSession("s"), events).session;
const gated = () => run({ kind: "skill_loaded", scope: "main", source: gate });
const NONE: UserSettings = { budgets: {} };
const rule = (d: ReturnType<typeof decideInSession>) => (d.decision.decision === "refused" ? d.decision.rule : d.decision.decision);

describe("decideInSession's answer", () => {
  it("names the gate in force, or none, and the scope it decided in", () => {
    const d = decideInSession(gated(), "main", READ, NONE);
    expect(d.gate?.file).toBe("/s/SKILL.md");
    expect(d.scopeName).toBe("self");
    const ungated = decideInSession(run(), "agent:a", READ, NONE);
    expect(ungated).not.toHaveProperty("gate");
    expect(ungated.scopeName).toBe("subagent");
  });

  it("names the runaway guards it decided under: the user's, the gate's over them, else the defaults", () => {
    expect(decideInSession(run(), "main", READ, NONE).guards).toEqual({ stuckAfter: 3 });
    const user: UserSettings = { budgets: {}, guards: { stuckAfter: 0, confirmAboveUncertainty: 0.7 } };
    expect(decideInSession(run(), "main", READ, user).guards).toEqual({ stuckAfter: 0, confirmAboveUncertainty: 0.7 });
    const strict = run({ kind: "skill_loaded", scope: "main", source: { ...gate, guards: { stuckAfter: 2 } } });
    expect(decideInSession(strict, "main", READ, user).guards).toEqual({ stuckAfter: 2, confirmAboveUncertainty: 0.7 });
  });

  it("gives the one event to reduce: the call, in the scope it was made in", () => {
    const d = decideInSession(run(), "agent:a", READ, NONE);
    expect(d.events).toEqual([scoped("agent:a", d.event)]);
    const after = reduceAll(run(), d.events).session;
    expect(after.agents.a?.pending).toHaveProperty("t1");
  });
});

describe("hooks that run outside the gate", () => {
  const hooksRan = (file: string): SessionEvent[] => [
    { kind: "activation_awaited", scope: "main", toolUseId: "h1", hooks: file },
    scoped("main", { kind: "result", toolUseId: "h1", failed: false, bytes: 1 }),
  ];
  const todo = { tool: "TodoWrite", input: { todos: [] }, toolUseId: "t2" };

  it("registered earlier by another skill: every checked call of a gated scope is refused, naming the file; planning tools still pass", () => {
    const s = reduceAll(run(...hooksRan("/h/SKILL.md")), [{ kind: "skill_loaded", scope: "main", source: gate }]).session;
    const d = decideInSession(s, "main", READ, NONE);
    expect(rule(d)).toBe("foreign_hooks");
    expect(d.decision.decision === "refused" && d.decision.reason).toContain("registered the hooks in /h/SKILL.md");
    expect(rule(decideInSession(s, "main", todo, NONE))).toBe("neutral");
  });

  it("registered by the skill that gates the scope, or in an ungated scope: nothing is refused for them", () => {
    const own = reduceAll(run(...hooksRan(gate.file)), [{ kind: "skill_loaded", scope: "main", source: gate }]).session;
    expect(rule(decideInSession(own, "main", READ, NONE))).toBe("passed");
    expect(rule(decideInSession(run(...hooksRan("/h/SKILL.md")), "main", READ, NONE))).toBe("observed");
  });

  it("a Skill call that would register them is refused under the gate, and only there", () => {
    const skill = { tool: "Skill", input: { skill: "h" }, toolUseId: "s1", registersHooks: "/h/SKILL.md" };
    const acting = { ...skill, actsAs: { action: "tool_call" as const, why: "registers hooks" } };
    const d = decideInSession(gated(), "main", acting, NONE);
    expect(rule(d)).toBe("foreign_hooks");
    expect(d.decision.decision === "refused" && d.decision.reason).toContain("loading it would register the hooks in /h/SKILL.md");
    expect(rule(decideInSession(run(), "main", skill, NONE))).toBe("neutral");
  });
});

describe("what reaches the gate", () => {
  it("an invalid user setting refuses every call in a gated scope, and only warns in an ungated one", () => {
    const broken: UserSettings = { budgets: {}, problem: "token_budget must be a number" };
    const d = decideInSession(gated(), "main", READ, broken);
    expect(rule(d)).toBe("budget_invalid");
    expect(d.decision.decision === "refused" && d.decision.reason).toContain("token_budget must be a number");
    expect(d.budget?.userProblem).toBe("token_budget must be a number");
    expect(rule(decideInSession(run(), "main", READ, broken))).toBe("observed");
  });

  it("a computed StepCost is measured for the model that wrote the call's message", () => {
    // Nothing spent yet: without the call's model the measure falls back to the dearest tier,
    // which the report's StepCost of 0.12 understates; for haiku it does not.
    const computed: UserSettings = { budgets: { stepCost: "computed" } };
    expect(rule(decideInSession(gated(), "main", { ...READ, model: "claude-haiku-4-5" }, computed))).toBe("passed");
    expect(rule(decideInSession(gated(), "main", READ, computed))).toBe("step_cost_understated");
    expect(rule(decideInSession(gated(), "main", { ...READ, model: "claude-opus-4-5" }, computed))).toBe("step_cost_understated");
  });

  it("a subagent past its task's agent budget is named by its ordinal in the budget", () => {
    const s = run({ kind: "subagent_started", agentId: "a" }, { kind: "subagent_started", agentId: "b" });
    expect(decideInSession(s, "agent:b", READ, { budgets: { maxAgents: 1 } }).budget?.startedAs).toBe(2);
    expect(decideInSession(s, "agent:a", READ, { budgets: { maxAgents: 1 } }).budget).not.toHaveProperty("startedAs");
  });

  it("no budget at all when nothing binds the scope", () => {
    expect(decideInSession(gated(), "main", READ, NONE)).not.toHaveProperty("budget");
    expect(
      decideInSession(run(scoped("main", { kind: "prompt", typed: true })), "main", READ, { budgets: { tokenBudget: 5 } }).budget,
    ).toMatchObject({
      user: { tokenBudget: 5 },
      gate: {},
      launched: 0,
    });
  });
});
