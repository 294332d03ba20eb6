// planCall (src/engine/session/call-plan.ts): one call planned as PreToolUse plans it: the call's own line confirmed
// where gated, the decision, what a Skill call will load, the settings warning once, the line the model is told.
import { describe, expect, it } from "vitest";
import {
  arrival,
  identicalNotices,
  planCall,
  planConfirmed,
  skillWillLoad,
  type PlannedCall,
} from "../../../src/engine/session/call-plan.js";
import { scoped, type SessionEvent } from "../../../src/engine/session/events.js";
import { reduceAll, scopeAt } from "../../../src/engine/session/reduce.js";
import { newSession, type GateSource, type SessionState } from "../../../src/engine/session/state.js";
import { defaultConfig } from "../../../src/engine/signals.js";

const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0";
const REPORT = `Action: retrieve\nUtility: 0.28\nBreakdown: ${GOOD}\nRationale: "go"`;
const OPUS = "claude-opus-4-5";
const READ: PlannedCall = {
  tool: "Read",
  input: { file_path: "/repo/a.ts" },
  toolUseId: "t1",
  text: { text: REPORT, messageId: "m2", model: OPUS },
};
const gate: GateSource = { file: "/s/SKILL.md", gated: true, scope: "self", config: defaultConfig(), extraTools: {} };
const run = (...events: SessionEvent[]): SessionState => reduceAll(newSession("s"), events).session;
const gated = () => run({ kind: "skill_loaded", scope: "main", source: gate });
const NONE = { budgets: {} };

describe("planCall", () => {
  // A call of an earlier message (m1) let through, then denied by Claude Code: reading a later call's own line confirms it never ran.
  const denied: SessionEvent[] = [
    {
      kind: "scope",
      scope: "main",
      event: {
        kind: "usage",
        messageId: "m1",
        model: OPUS,
        tokens: { input: 1, output: 1, cacheCreation: 0, cacheRead: 0 },
        toolUseIds: ["t0"],
      },
    },
    {
      kind: "scope",
      scope: "main",
      event: { kind: "call", decision: "passed", tool: "Write", digest: "d", effect: { kind: "write", paths: ["/a"] }, toolUseId: "t0" },
    },
    { kind: "scope", scope: "main", event: { kind: "denied", toolUseId: "t0" } },
  ];

  it("ungated: the call observed, nothing confirmed, no line", () => {
    const plan = planCall(run(...denied), "main", READ, NONE);
    expect(plan.decided.decision.decision).toBe("observed");
    expect(plan.confirmed.outcomes).toEqual([]);
    expect(plan).not.toHaveProperty("context");
    expect(scopeAt(plan.session, "main").pending).toHaveProperty("t1");
  });

  it("gated, with its text: its line confirms the earlier denial, the call passes, the scope's line is told", () => {
    const plan = planCall(reduceAll(gated(), denied).session, "main", READ, NONE);
    expect(plan.confirmed.outcomes).toMatchObject([{ toolUseId: "t0", outcome: "denied" }]);
    expect(plan.decided.decision.decision).toBe("passed");
    expect(plan.context).toMatch(/^utility: /);
  });

  it("gated, with no text: nothing confirmed, refused for want of a report, with the line so the model can write one", () => {
    const { text: _text, ...bare } = READ;
    const plan = planCall(reduceAll(gated(), denied).session, "main", { ...bare, model: OPUS }, NONE);
    expect(plan.confirmed.outcomes).toEqual([]);
    expect(plan.decided.decision).toMatchObject({ decision: "refused", rule: "no_report" });
    expect(plan.context).toMatch(/^utility: /);
  });

  it("a Skill call whose skill gates: the line as the scope will be once it loads, and the activation it awaits", () => {
    const skill: PlannedCall = { tool: "Skill", input: { skill: "g" }, toolUseId: "s1", skill: { source: gate }, model: OPUS };
    const plan = planCall(run(), "main", skill, NONE);
    expect(plan.context).toMatch(/^utility: /);
    expect(scopeAt(plan.session, "main").skillCalls).toHaveProperty("s1");
  });

  it("an invalid setting is told once per session, and never with a refusal that says the same", () => {
    const warned = { budgets: {}, warning: "utility_max_steps: found -1, expected 1 to 500." };
    const first = planCall(run(), "main", READ, warned);
    expect(first.warning).toBe(warned.warning);
    expect(planCall(first.session, "main", { ...READ, toolUseId: "t2" }, warned)).not.toHaveProperty("warning");
  });
});

describe("skillWillLoad", () => {
  const decided = (decision: "observed" | "refused") => ({ decision: { decision } }) as never;

  it("a Skill call let through awaits its activation, with its gate and hooks; a gated one that forks launches the fork", () => {
    const call = { tool: "Skill", toolUseId: "s1", skill: { source: gate, hooks: "/h/SKILL.md", forksAs: "general-purpose" } };
    expect(skillWillLoad("main", call, decided("observed"))).toEqual([
      { kind: "activation_awaited", scope: "main", toolUseId: "s1", source: gate, hooks: "/h/SKILL.md" },
      { kind: "skill_fork_launched", toolUseId: "s1", source: gate },
    ]);
    expect(skillWillLoad("main", { tool: "Skill", skill: { source: gate } }, decided("observed"))).toStrictEqual([
      { kind: "activation_awaited", scope: "main" },
    ]);
  });

  it("no fork without both a gate and an agent to fork as; nothing named that the skill does not bring", () => {
    const awaited = { kind: "activation_awaited", scope: "main", toolUseId: "s1" };
    expect(skillWillLoad("main", { tool: "Skill", toolUseId: "s1", skill: { source: gate } }, decided("observed"))).toStrictEqual([
      { ...awaited, source: gate },
    ]);
    expect(skillWillLoad("main", { tool: "Skill", toolUseId: "s1", skill: { forksAs: "Explore" } }, decided("observed"))).toStrictEqual([
      awaited,
    ]);
    expect(skillWillLoad("main", { tool: "Skill", toolUseId: "s1" }, decided("observed"))).toStrictEqual([awaited]);
  });

  it("a refused Skill call, or any other tool, loads nothing", () => {
    expect(skillWillLoad("main", { tool: "Skill", toolUseId: "s1" }, decided("refused"))).toEqual([]);
    expect(skillWillLoad("main", { tool: "Read", toolUseId: "s1" }, decided("observed"))).toEqual([]);
  });
});

describe("identicalNotices", () => {
  const outcome = { scope: "main" as const, tool: "Bash", step: 4, toolUseId: "b", identical: { ofStep: 2 } };
  it("this scope's identical outcomes, told; none when the rule is off or the outcome is another scope's", () => {
    const learned = [{ outcomes: [outcome, { ...outcome, scope: "agent:x" as const }] }] as never;
    expect(identicalNotices(learned, "main", { stuckAfter: 3 })).toEqual([
      "utility: your Bash call at step 4 returned exactly what it returned at step 2, byte for byte, although something that could change it ran in between: it told you nothing new.",
    ]);
    expect(identicalNotices(learned, "main", { stuckAfter: 0 })).toEqual([]);
  });

  it("a failed run retried unchanged is told as a retry, with the earlier task named", () => {
    const retried = { ...outcome, identical: { ofStep: 1, ofTask: 1, retry: true } };
    expect(identicalNotices([{ outcomes: [retried] }] as never, "main", { stuckAfter: 3 })).toEqual([
      "utility: your Bash call at step 4 returned exactly what it returned at step 1 of task 1, byte for byte, when that run failed: retrying it unchanged told you nothing new.",
    ]);
  });
});

describe("arrival", () => {
  it("always sees the activation; confirms the call's own line only in a gated scope, for a call with an id and its text", () => {
    const seen = { kind: "activation_seen", scope: "main" };
    expect(arrival(run(), "main", READ)).toStrictEqual([seen]);
    expect(arrival(gated(), "main", { ...READ, text: undefined })).toStrictEqual([seen]);
    expect(arrival(gated(), "main", { ...READ, toolUseId: undefined })).toStrictEqual([seen]);
    expect(arrival(gated(), "main", READ)).toStrictEqual([
      seen,
      { kind: "call_line_seen", scope: "main", toolUseId: "t1", messageId: "m2" },
    ]);
  });
});

describe("what reaches the decision", () => {
  it("the model that wrote the call's message: a computed StepCost is measured for it", () => {
    const computed = { budgets: { stepCost: "computed" as const } };
    const haiku = { ...READ, text: { ...READ.text!, model: "claude-haiku-4-5" } };
    expect(planCall(gated(), "main", haiku, computed).decided.decision.decision).toBe("passed");
    expect(planCall(gated(), "main", READ, computed).decided.decision).toMatchObject({ rule: "step_cost_understated" });
  });

  it("what the call acts as, and the hooks its skill would register", () => {
    const report = `Action: tool_call\nUtility: 0.28\nBreakdown: ${GOOD}\nRationale: "go"`;
    const skill: PlannedCall = {
      tool: "Skill",
      input: { skill: "h" },
      toolUseId: "k1",
      actsAs: { action: "tool_call", why: "its skill runs shell" },
      text: { text: report, messageId: "m3", model: OPUS },
    };
    expect(planCall(gated(), "main", skill, NONE).decided.events).toMatchObject([
      { event: { actsAs: "tool_call", effect: { kind: "exec" } } },
    ]);
    const hooks = planCall(gated(), "main", { ...skill, skill: { hooks: "/h/SKILL.md" } }, NONE).decided.decision;
    expect(hooks).toMatchObject({ decision: "refused", rule: "foreign_hooks" });
  });
});

describe("what the model is told", () => {
  const usage = (input: number): SessionEvent =>
    scoped("main", {
      kind: "usage",
      messageId: "m1",
      model: OPUS,
      tokens: { input, output: 0, cacheCreation: 0, cacheRead: 0 },
      toolUseIds: [],
    });
  const typed = scoped("main", { kind: "prompt", typed: true });
  const halfway = () => run(typed, { kind: "skill_loaded", scope: "main", source: gate }, usage(500));

  it("the scope's line, then what is left of its budgets, one to a line", () => {
    const { context } = planCall(halfway(), "main", READ, { budgets: { tokenBudget: 1000 } });
    expect(context?.split("\n")).toEqual([
      expect.stringMatching(/^utility: 1 of 10 steps taken .* tokens 500\/1k$/),
      "utility budget left: task 500 tokens",
    ]);
  });

  it("a refusal for a spent budget or no subagent left says so itself: no line, no notice", () => {
    const spent = planCall(halfway(), "main", READ, { budgets: { tokenBudget: 400 } });
    expect(spent.decided.decision).toMatchObject({ rule: "budget_spent" });
    expect(spent).not.toHaveProperty("context");
    const launched = run(typed, { kind: "subagent_started", agentId: "a" });
    const agent: PlannedCall = { tool: "Agent", input: { prompt: "x", subagent_type: "general-purpose" }, toolUseId: "g1" };
    const exhausted = planCall(launched, "main", agent, { budgets: { maxAgents: 1 } });
    expect(exhausted.decided.decision).toMatchObject({ rule: "agents_exhausted" });
    expect(exhausted).not.toHaveProperty("context");
  });

  it("a refusal for another reason keeps the line and the budget notice, and the warning of an invalid setting", () => {
    const { text: _text, ...bare } = READ;
    const warned = { budgets: { tokenBudget: 1000 }, warning: "utility_stuck_after: found -1, expected 0 to 20." };
    const plan = planCall(halfway(), "main", { ...bare, model: OPUS }, warned);
    expect(plan.decided.decision).toMatchObject({ rule: "no_report" });
    expect(plan.context?.split("\n")).toEqual([expect.stringMatching(/^utility: /), "utility budget left: task 500 tokens"]);
    expect(plan.warning).toBe(warned.warning);
  });

  it("an invalid setting that refuses the call is not also warned of", () => {
    const broken = { budgets: {}, problem: "token_budget bad", warning: "token_budget bad" };
    const plan = planCall(halfway(), "main", READ, broken);
    expect(plan.decided.decision).toMatchObject({ rule: "budget_invalid" });
    expect(plan).not.toHaveProperty("warning");
  });

  it("no line for a call that is no Skill call, whatever skill it names, nor for a Skill call that brings no gate", () => {
    expect(planCall(run(), "main", { ...READ, skill: { source: gate } }, NONE)).not.toHaveProperty("context");
    expect(planCall(run(), "main", { tool: "Skill", input: { skill: "x" }, toolUseId: "k2", model: OPUS }, NONE)).not.toHaveProperty(
      "context",
    );
  });
});

describe("planConfirmed, transient or not", () => {
  it("leaves the given session as it was, unless asked to change it in place", () => {
    const given = reduceAll(gated(), arrival(gated(), "main", READ)).session;
    const before = structuredClone(given);
    const kept = planConfirmed(given, "main", READ, { user: NONE });
    expect(given).toEqual(before);
    expect(kept.session).not.toBe(given);
    const inPlace = planConfirmed(given, "main", READ, { user: NONE, transient: true });
    expect(inPlace.session).toBe(given);
    expect(given).not.toEqual(before);
  });
});
