// planCall (src/engine/session/call-plan.ts): one call planned as PreToolUse plans it: the call's own line confirmed
// where gated, the decision, what a Skill call will load, the settings warning once, the line the model is told.
import { describe, expect, it } from "vitest";
import { identicalNotices, planCall, skillWillLoad, type PlannedCall } from "../../../src/engine/session/call-plan.js";
import type { SessionEvent } from "../../../src/engine/session/events.js";
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
    expect(skillWillLoad("main", { tool: "Skill", skill: {} }, decided("observed"))).toEqual([
      { kind: "activation_awaited", scope: "main" },
    ]);
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
    expect(identicalNotices(learned, "main", { stuckAfter: 3 })).toHaveLength(1);
    expect(identicalNotices(learned, "main", { stuckAfter: 0 })).toEqual([]);
  });
});
