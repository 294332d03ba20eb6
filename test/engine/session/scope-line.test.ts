// The line a gated scope is given (scopeLineOf, src/engine/session/decide.ts): only for a gated
// scope of a known tier; its steps, the actions still open and its spend against the budgets
// that bind its task, closed when any of them is spent.
import { describe, expect, it } from "vitest";
import { scopeLineOf, type UserSettings } from "../../../src/engine/session/decide.js";
import { scoped, type ScopeKey, type SessionEvent } from "../../../src/engine/session/events.js";
import { reduceAll } from "../../../src/engine/session/reduce.js";
import type { ScopeEvent } from "../../../src/engine/session/scope-events.js";
import { newSession, type GateSource, type SessionState } from "../../../src/engine/session/state.js";
import { defaultConfig } from "../../../src/engine/signals.js";

const OPUS = "claude-opus-4-5";
const NONE: UserSettings = { budgets: {} };
const gate = (over: Partial<GateSource> = {}): GateSource => ({
  file: "/s/SKILL.md",
  gated: true,
  scope: "self",
  config: { ...defaultConfig(), maxSteps: 10 },
  extraTools: {},
  ...over,
});
const passed = (id: string, tool = "Read"): ScopeEvent => ({
  kind: "call",
  decision: "passed",
  tool,
  digest: `d-${id}`,
  effect: tool === "Agent" ? { kind: "exec", background: true } : { kind: "neutral" },
  toolUseId: id,
});
const used = (input: number): ScopeEvent => ({
  kind: "usage",
  messageId: `m${input}`,
  model: OPUS,
  tokens: { input, output: 0, cacheCreation: 0, cacheRead: 0 },
  toolUseIds: [],
});
const run = (...events: SessionEvent[]): SessionState => reduceAll(newSession("s"), events).session;
const gatedMain = (source = gate(), ...events: SessionEvent[]) => run({ kind: "skill_loaded", scope: "main", source }, ...events);
const line = (s: SessionState, user: UserSettings = NONE, key: ScopeKey = "main", ...model: [string?]) =>
  scopeLineOf(s, key, user, model.length > 0 ? model[0] : OPUS);

describe("which scopes get a line", () => {
  it("none for an ungated scope, an unknown model or no model at all", () => {
    expect(line(run())).toBeUndefined();
    expect(line(run(), { budgets: { tokenBudget: 10 } })).toBeUndefined();
    expect(line(gatedMain(), NONE, "main", undefined)).toBeUndefined();
    expect(line(gatedMain(), NONE, "main", "gpt-9")).toBeUndefined();
    expect(line(gatedMain(), NONE, "main", OPUS)).toMatch(/^utility: 0 of 10 steps taken · opus · StepCost /);
  });

  it("a gated subagent gets its own steps, and no delegate among its actions", () => {
    const s = run(
      { kind: "subagent_started", agentId: "a" },
      { kind: "definition_loaded", agentId: "a", agentType: "helper", definition: gate({ file: "/a/helper.md" }) },
      scoped("agent:a", passed("t1")),
      scoped("agent:a", passed("t2")),
    );
    expect(line(s, NONE, "agent:a")).toMatch(/^utility: 2 of 10 steps taken · opus · StepCost retrieve\/verify\/tool_call [\d.]+ · /);
    expect(line(s, NONE, "main")).toBeUndefined();
  });
});

describe("the line without a budget", () => {
  it("counts the scope's steps and lists every action; no spend is shown", () => {
    const text = line(gatedMain(gate(), scoped("main", passed("t1")), scoped("main", used(5000))));
    expect(text).toMatch(
      /^utility: 1 of 10 steps taken · opus · StepCost retrieve\/verify\/tool_call\/delegate [\d.]+ · respond [\d.]+ · stop 0$/,
    );
  });

  it("a dispatching main scope pays for the subagents it launched in its StepCost", () => {
    const stepCost = (s: SessionState) => /StepCost retrieve\S* ([\d.]+)/.exec(line(s) ?? "")?.[1];
    // Four launches: past the first band of dispatch overhead (1 to 3 add nothing).
    const launches = ["a1", "a2", "a3", "a4"].map((id) => scoped("main", passed(id, "Agent")));
    const self = gatedMain(gate(), ...launches);
    const dispatch = gatedMain(gate({ scope: "dispatch" }), ...launches);
    expect(stepCost(self)).toBeDefined();
    expect(Number(stepCost(dispatch))).toBeGreaterThan(Number(stepCost(self)));
  });
});

describe("the line against the budgets in force", () => {
  it("shows the task's tokens against the user's budget, and closes once it is spent", () => {
    const s = gatedMain(gate(), scoped("main", used(400)));
    expect(line(s, { budgets: { tokenBudget: 1000 } })).toContain("· tokens 400/1k");
    expect(line(s, { budgets: { tokenBudget: 1000 } })).not.toContain("no tool call left");
    expect(line(s, { budgets: { tokenBudget: 400 } })).toContain("no tool call left");
  });

  it("a budget the gating skill sets binds the same way", () => {
    const s = gatedMain(gate({ budgets: { tokenBudget: 300 } }), scoped("main", used(400)));
    expect(line(s)).toContain("no tool call left");
    expect(line(s)).toContain("tokens 400/300");
  });

  it("shows cost against a cost budget and closes once it is spent", () => {
    const s = gatedMain(gate(), scoped("main", used(1_000_000)));
    const open = line(s, { budgets: { costBudgetUsd: 100 } });
    expect(open).toMatch(/ · \$\d+\.\d\d\/\$100\.00$/);
    expect(open).not.toContain("no tool call left");
    expect(line(s, { budgets: { costBudgetUsd: 0.01 } })).toContain("no tool call left");
  });

  it("is closed while the user's settings are invalid, whatever was spent", () => {
    expect(line(gatedMain(), { budgets: {}, problem: "token_budget must be a number" })).toContain("no tool call left");
  });

  it("is closed once the session's own budget is spent, a task's budget aside", () => {
    const s = gatedMain(gate(), scoped("main", used(600)));
    expect(line(s, { budgets: {}, session: { sessionTokenBudget: 600 } })).toContain("no tool call left");
    expect(line(s, { budgets: {}, session: { sessionTokenBudget: 601 } })).not.toContain("no tool call left");
  });

  it("leaves delegate out once the task's agent budget is reached, counting agents as admitted or started", () => {
    const oneAdmitted = gatedMain(gate(), scoped("main", passed("a1", "Agent")));
    const open = line(oneAdmitted, { budgets: { maxAgents: 2 } });
    expect(open).toContain("StepCost retrieve/verify/tool_call/delegate ");
    expect(open).toContain("· agents 1/2");
    const full = line(oneAdmitted, { budgets: { maxAgents: 1 } });
    expect(full).toContain("StepCost retrieve/verify/tool_call ");
    expect(full).toContain("· agents 1/1");
    expect(full).not.toContain("no tool call left");
    // Two subagents started from one admitted launch (a Workflow): the budget counts two.
    const twoStarted = run(
      { kind: "skill_loaded", scope: "main", source: gate() },
      scoped("main", passed("w1", "Agent")),
      { kind: "subagent_started", agentId: "x" },
      { kind: "subagent_started", agentId: "y" },
    );
    expect(line(twoStarted, { budgets: { maxAgents: 3 } })).toContain("· agents 2/3");
    expect(line(twoStarted, { budgets: { maxAgents: 2 } })).not.toContain("delegate");
  });

  it("is closed for a subagent that started past its task's agent budget", () => {
    const helper = gate({ file: "/a/helper.md" });
    const s = run(
      { kind: "subagent_started", agentId: "a" },
      { kind: "definition_loaded", agentId: "a", agentType: "helper", definition: helper },
      { kind: "subagent_started", agentId: "b" },
      { kind: "definition_loaded", agentId: "b", agentType: "helper", definition: helper },
    );
    expect(line(s, { budgets: { maxAgents: 1 } }, "agent:a")).not.toContain("no tool call left");
    expect(line(s, { budgets: { maxAgents: 1 } }, "agent:b")).toContain("no tool call left");
    expect(line(s, { budgets: { maxAgents: 2 } }, "agent:b")).not.toContain("no tool call left");
  });
});
