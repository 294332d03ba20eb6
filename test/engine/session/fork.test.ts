// Forks (src/engine/session/fork.ts, issue 31 hole 9): `Agent{subagent_type: "fork"}` carries its launcher's
// conversation, so a gated scope's fork is gated as its launcher was at the launch, and its steps go on from
// the launcher's count. Decided and reduced as the hooks and replay do.
import { describe, expect, it } from "vitest";
import { decideInSession, type UserSettings } from "../../../src/engine/session/decide.js";
import type { SessionEvent } from "../../../src/engine/session/events.js";
import { FORKS_LIMIT, forkLaunchEvents, isForkLaunch } from "../../../src/engine/session/fork.js";
import { reduceAll } from "../../../src/engine/session/reduce.js";
import { newSession, type GateSource, type SessionState } from "../../../src/engine/session/state.js";
import { gateOf } from "../../../src/engine/session/views.js";
import { defaultConfig } from "../../../src/engine/signals.js";

const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0";
const report = (action: string) => `Action: ${action}\nUtility: 0.28\nBreakdown: ${GOOD}\nRationale: "go"`;
const gate: GateSource = { file: "/s/SKILL.md", gated: true, scope: "self", config: { ...defaultConfig(), maxSteps: 3 }, extraTools: {} };
const NONE: UserSettings = { budgets: {} };
const fold = (events: SessionEvent[], from: SessionState = newSession("s")) => reduceAll(from, events).session;
const fork = (id: string) => ({
  tool: "Agent",
  input: { subagent_type: "fork", description: "d", prompt: "p" },
  toolUseId: id,
  reportText: report("delegate"),
});
const start = (agentId: string): SessionEvent[] => [{ kind: "subagent_started", agentId }];
const bash = { tool: "Bash", input: { command: "true" }, toolUseId: "b1" };

/** A gated main scope that launched a fork, decided and reduced. */
function launched(id = "f1", from = fold([{ kind: "skill_loaded", scope: "main", source: gate }])) {
  const d = decideInSession(from, "main", fork(id), NONE);
  expect(d.decision.decision).toBe("passed");
  return fold(d.events, from);
}

describe("a fork launched by a gated scope", () => {
  it("is recorded with the launcher's gate and its step after the launch", () => {
    const s = launched();
    expect(s.main.step).toBe(1);
    expect(s.forks).toEqual({ f1: { source: gate, step: 1 } });
  });

  it("the fork that names the launch inherits the gate and the count: a report-less call is refused, and it runs out at the launcher's limit", () => {
    const s = fold([...start("a1"), { kind: "fork_joined", agentId: "a1", toolUseId: "f1" }], launched());
    expect(s.forks).toBeUndefined();
    expect(s.agents.a1).toMatchObject({ forkOf: "f1", step: 1 });
    expect(gateOf(s, "agent:a1")?.file).toBe("/s/SKILL.md");
    const bare = decideInSession(s, "agent:a1", bash, NONE);
    expect(bare.decision).toMatchObject({ decision: "refused", rule: "no_report" });
    let at = s;
    const outcomes: string[] = [];
    for (const id of ["c1", "c2", "c3"]) {
      const d = decideInSession(
        at,
        "agent:a1",
        { ...bash, toolUseId: id, input: { command: `echo ${id}` }, reportText: report("verify") },
        NONE,
      );
      outcomes.push(d.decision.decision === "refused" ? d.decision.rule : d.decision.decision);
      at = fold(d.events, at);
    }
    // Steps 2 and 3 of 3; the launcher had taken step 1.
    expect(outcomes).toEqual(["passed", "passed", "budget_spent"]);
  });

  it("a fork whose file names a launch not recorded (an ungated scope's) is not gated, and leaves the record", () => {
    const s = fold([...start("a2"), { kind: "fork_joined", agentId: "a2", toolUseId: "other" }], launched());
    expect(s.agents.a2?.forkOf).toBe("");
    expect(gateOf(s, "agent:a2")).toBeUndefined();
    expect(Object.keys(s.forks ?? {})).toEqual(["f1"]);
  });

  it("a fork whose file could not be read joins the oldest launch waiting, and leaves it for its own fork (fail closed)", () => {
    const s = fold(
      [...start("a3"), { kind: "fork_joined", agentId: "a3" }, ...start("a4"), { kind: "fork_joined", agentId: "a4", toolUseId: "f1" }],
      launched(),
    );
    expect(gateOf(s, "agent:a3")?.file).toBe("/s/SKILL.md");
    expect(gateOf(s, "agent:a4")?.file).toBe("/s/SKILL.md");
    expect(s.forks).toBeUndefined();
  });

  it("with no launch waiting, a fork is not gated", () => {
    const s = fold([...start("a5"), { kind: "fork_joined", agentId: "a5", toolUseId: "" }]);
    expect(s.agents.a5?.forkOf).toBe("");
    expect(gateOf(s, "agent:a5")).toBeUndefined();
  });

  it(`keeps the newest ${FORKS_LIMIT} launches waiting`, () => {
    let s = fold([{ kind: "skill_loaded", scope: "main", source: { ...gate, config: defaultConfig() } }]);
    for (let i = 0; i < FORKS_LIMIT + 2; i++) s = fold([{ kind: "fork_launched", scope: "main", toolUseId: `f${i}` }], s);
    expect(Object.keys(s.forks ?? {})).toEqual(Array.from({ length: FORKS_LIMIT }, (_, i) => `f${i + 2}`));
  });
});

describe("what is a fork launch", () => {
  it("an Agent (or Task) call with subagent_type fork, let through in a gated scope", () => {
    expect(isForkLaunch("Agent", { subagent_type: "fork" })).toBe(true);
    expect(isForkLaunch("Task", { subagent_type: "fork" })).toBe(true);
    expect(isForkLaunch("Agent", { subagent_type: "general-purpose" })).toBe(false);
    expect(isForkLaunch("Bash", { subagent_type: "fork" })).toBe(false);
    expect(isForkLaunch("Agent", null)).toBe(false);
    const call = fork("f9");
    expect(forkLaunchEvents("main", call, true, "passed")).toEqual([{ kind: "fork_launched", scope: "main", toolUseId: "f9" }]);
    expect(forkLaunchEvents("main", call, false, "observed")).toEqual([]);
    expect(forkLaunchEvents("main", call, true, "refused")).toEqual([]);
  });

  it("an ungated scope records none", () => {
    const d = decideInSession(newSession("s"), "main", fork("f1"), NONE);
    expect(fold(d.events).forks).toBeUndefined();
  });
});

// Issue 31, second red-team pass: a gated skill with `context: fork` starts a subagent of its agent type that
// carries the skill's text, before that subagent's transcript shows it.
describe("a gated skill that forks", () => {
  const skillFork = (toolUseId = "k1"): SessionEvent => ({ kind: "skill_fork_launched", toolUseId, source: gate });
  const arrive = (agentId: string, agentType: string): SessionEvent[] => [
    ...start(agentId),
    { kind: "definition_loaded", agentId, agentType },
  ];

  it("gates a subagent that starts before its Skill call ends, from step 0", () => {
    const s = fold([skillFork(), ...arrive("a1", "general-purpose")]);
    expect(gateOf(s, "agent:a1")?.file).toBe(gate.file);
    expect(s.agents.a1!.step).toBe(0);
    const d = decideInSession(s, "agent:a1", bash, NONE);
    expect(d.decision).toMatchObject({ decision: "refused", rule: "no_report" });
  });

  it("gates every subagent that starts meanwhile, whatever its type (fail closed: Claude Code may start it as another type)", () => {
    const s = fold([skillFork("k1"), ...arrive("a1", "general-purpose"), ...arrive("a2", "Explore")]);
    expect([gateOf(s, "agent:a1")?.file, gateOf(s, "agent:a2")?.file]).toEqual([gate.file, gate.file]);
  });

  it("ends with its Skill call's result: a subagent that starts after is not gated by it", () => {
    const s = fold([
      skillFork("k1"),
      { kind: "activation_awaited", scope: "main", toolUseId: "k1" },
      { kind: "scope", scope: "main", event: { kind: "result", toolUseId: "k1", failed: false, bytes: 1 } },
      ...arrive("a1", "general-purpose"),
    ]);
    expect(s.skillForks).toBeUndefined();
    expect(gateOf(s, "agent:a1")).toBeUndefined();
  });

  it("keeps at most FORKS_LIMIT waiting, the newest", () => {
    let s = newSession("s");
    for (let i = 0; i < FORKS_LIMIT + 3; i++) s = fold([skillFork(`k${i}`)], s);
    expect(Object.keys(s.skillForks ?? {})).toHaveLength(FORKS_LIMIT);
    expect(Object.hasOwn(s.skillForks ?? {}, `k${FORKS_LIMIT + 2}`)).toBe(true);
  });
});
