// The session machine's part in the runaway rules: result digests in the history,
// identical outcomes learned when a result comes (SPEC §13), stuck loops decided over
// the history, the guards and budgets beyond one task in force (SPEC §12, §14), and
// `utility_max_agents` over the whole tree of a task, nested launches included.
import { describe, expect, it } from "vitest";
import { decideCall, decideInSession, scopeLineOf, type UserSettings } from "../../../src/engine/session/decide.js";
import type { SessionEvent } from "../../../src/engine/session/events.js";
import { reduceAll, scopeAt } from "../../../src/engine/session/reduce.js";
import type { ScopeEvent } from "../../../src/engine/session/scope-events.js";
import { applyEvents } from "../../../src/engine/session/scope-reducer.js";
import { newScope, newSession, type GateSource, type ScopeState, type SessionState } from "../../../src/engine/session/state.js";
import { launchesOf } from "../../../src/engine/session/views.js";
import { effectOf, inputDigest } from "../../../src/engine/redundancy.js";
import { defaultConfig } from "../../../src/engine/signals.js";
import { zeroSpend } from "../../../src/engine/spend.js";

const TEST = { command: "npm test" };
/** An edit that changes nothing the test reads: each round a different one (the same edit again would be a loop of its own). */
const edit = (n: number) => ({ file_path: "/p/a.ts", old_string: "a", new_string: `a${" ".repeat(n)}` });
const call = (id: string, tool = "Bash", input: unknown = TEST, exactRepeat = false): ScopeEvent => ({
  kind: "call",
  decision: "observed",
  tool,
  digest: inputDigest(input),
  effect: effectOf(tool, input),
  toolUseId: id,
  ...(exactRepeat ? { exactRepeat: true } : {}),
});
const result = (id: string, digest: string | undefined, failed = true): ScopeEvent => ({
  kind: "result",
  toolUseId: id,
  failed,
  bytes: 4,
  ...(digest !== undefined ? { digest } : {}),
});
/** One run of the test and an edit after it: the loop of SPEC §13. */
const round = (n: number, output = "FAIL"): ScopeEvent[] => [
  call(`t${n}`),
  result(`t${n}`, output),
  call(`e${n}`, "Edit", edit(n)),
  result(`e${n}`, "ok", false),
];

const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0";
const report = (action: string, utility = "0.28", signals = GOOD) =>
  `Action: ${action}\nUtility: ${utility}\nBreakdown: ${signals}\nRationale: "go"`;
const gate = (over: Partial<GateSource> = {}): GateSource => ({
  file: "/s/SKILL.md",
  gated: true,
  scope: "self",
  config: defaultConfig(),
  extraTools: {},
  ...over,
});

describe("identical outcomes in the reducer (SPEC §13)", () => {
  it("keeps each result's digest in the history, and an Outcome names the run it repeated", () => {
    const { state, outcomes } = applyEvents(newScope(), [...round(1), ...round(2)]);
    expect(state.history.map((c) => c.result)).toEqual(["FAIL", "ok", "FAIL", "ok"]);
    const identical = outcomes.filter((o) => o.identical);
    expect(identical).toEqual([
      expect.objectContaining({ toolUseId: "t2", tool: "Bash", step: 3, identical: { ofStep: 1, toolUseId: "t1", retry: true } }),
    ]);
  });

  it("is no retry when the earlier run succeeded: something ran in between", () => {
    const ok = applyEvents(newScope(), [
      call("a"),
      result("a", "X", false),
      call("e", "Edit", edit(1)),
      result("e", "ok", false),
      call("b"),
      result("b", "X", false),
    ]);
    expect(ok.outcomes.find((o) => o.identical)?.identical).toEqual({ ofStep: 1, toolUseId: "a" });
  });

  it("is no identical outcome when the result differs, when there is no digest, or when the call was an exact repeat", () => {
    expect(applyEvents(newScope(), [...round(1), ...round(2, "PASS")]).outcomes.some((o) => o.identical)).toBe(false);
    expect(
      applyEvents(newScope(), [call("a"), result("a", undefined), call("b"), result("b", undefined)]).outcomes.some((o) => o.identical),
    ).toBe(false);
    const repeat = applyEvents(newScope(), [call("a"), result("a", "X", false), call("b", "Bash", TEST, true), result("b", "X", false)]);
    expect(repeat.outcomes.some((o) => o.identical)).toBe(false);
    expect(repeat.state.history.map((c) => c.result)).toEqual(["X", "X"]);
    expect(repeat.state.history.every((c) => !("exactRepeat" in c))).toBe(true);
  });

  it("forgets what ran before a compaction: the first run after it repeats nothing", () => {
    const { outcomes } = applyEvents(newScope(), [...round(1), { kind: "compact" }, ...round(2)]);
    expect(outcomes.some((o) => o.identical)).toBe(false);
  });

  it("an identical outcome without the earlier run's id names its step only", () => {
    const unnamed: ScopeEvent = {
      kind: "ran_unchecked",
      tool: "Bash",
      digest: inputDigest(TEST),
      effect: { kind: "exec" },
      failed: true,
      result: "FAIL",
    };
    const { state, outcomes } = applyEvents(newScope(), [unnamed, call("b"), result("b", "FAIL")]);
    expect(state.history[0]).toMatchObject({ result: "FAIL", failed: true });
    expect(outcomes[0]?.identical).toEqual({ ofStep: 0, retry: true });
  });
});

/** A scope after `rounds` runs of the test, each with the same failing result and an edit after it. */
const stuckScope = (rounds: number): ScopeState =>
  applyEvents(newScope(), Array.from({ length: rounds }, (_, i) => round(i + 1)).flat()).state;

describe("stuck loops in the decision (SPEC §13)", () => {
  it("finds the last runs of the call and refuses its next run under the gate, naming their steps", () => {
    const d = decideCall(stuckScope(3), "self", gate(), { tool: "Bash", input: TEST, reportText: report("tool_call") });
    expect(d.stuck?.map((r) => r.at)).toEqual([1, 3, 5]);
    expect(d.decision.decision === "refused" && d.decision.rule).toBe("no_progress");
    expect(d.event).not.toHaveProperty("exactRepeat");
  });

  it("runs of an earlier task are named with their task, never read as the current task's steps (issue 34)", () => {
    const next = applyEvents(stuckScope(3), [{ kind: "prompt", typed: true }]).state;
    const d = decideCall(next, "self", gate(), { tool: "Bash", input: TEST, reportText: report("tool_call") });
    expect(d.decision.decision === "refused" && d.decision.reason).toContain(
      "The last 3 runs of this Bash call (steps 1, 3 and 5 of task 1)",
    );
    const hint = decideCall(next, "self", undefined, { tool: "Bash", input: TEST });
    expect(hint.decision.decision === "observed" && hint.decision.hint).toContain("(steps 1, 3 and 5 of task 1)");
    const same = decideCall(stuckScope(3), "self", undefined, { tool: "Bash", input: TEST });
    expect(same.decision.decision === "observed" && same.decision.hint).toContain("(steps 1, 3 and 5)");
  });

  it("two runs are no loop under the default; stuck_after 2 makes them one; 0 turns it off", () => {
    expect(decideCall(stuckScope(2), "self", gate(), { tool: "Bash", input: TEST, reportText: report("tool_call") }).stuck).toBeUndefined();
    const two = decideCall(stuckScope(2), "self", gate(), { tool: "Bash", input: TEST, guards: { stuckAfter: 2 } });
    expect(two.stuck?.map((r) => r.at)).toEqual([1, 3]);
    expect(decideCall(stuckScope(5), "self", gate(), { tool: "Bash", input: TEST, guards: { stuckAfter: 0 } }).stuck).toBeUndefined();
  });

  it("marks an exact repeat on its event, so its same result is no identical outcome", () => {
    const ran = applyEvents(newScope(), [call("a"), result("a", "X", false)]).state;
    const d = decideCall(ran, "self", undefined, { tool: "Bash", input: TEST, toolUseId: "b" });
    expect(d.repeat?.toolUseId).toBe("a");
    expect(d.event.exactRepeat).toBe(true);
  });
});

/** A session whose main scope has run the loop `rounds` times, gated by `source` when given. */
function session(rounds: number, source?: GateSource): SessionState {
  const events: SessionEvent[] = Array.from({ length: rounds }, (_, i) => round(i + 1))
    .flat()
    .map((event) => ({ kind: "scope", scope: "main", event }));
  if (source) events.unshift({ kind: "skill_loaded", scope: "main", source });
  return reduceAll(newSession("s"), events).session;
}
const NONE: UserSettings = { budgets: {} };
const BASH = { tool: "Bash", input: TEST, reportText: report("tool_call") };

describe("the guards in force (decideInSession)", () => {
  it("the user's stuck_after applies in every scope; a gated skill's only while it gates", () => {
    expect(decideInSession(session(2), "main", BASH, { budgets: {}, guards: { stuckAfter: 2 } }).stuck).toHaveLength(2);
    expect(decideInSession(session(2), "main", BASH, NONE).stuck).toBeUndefined();
    expect(decideInSession(session(2, gate({ guards: { stuckAfter: 2 } })), "main", BASH, NONE).stuck).toHaveLength(2);
    expect(decideInSession(session(2, gate({ gated: false, guards: { stuckAfter: 2 } })), "main", BASH, NONE).stuck).toBeUndefined();
  });

  it("the user turns the rule off; a gated skill that asks for it keeps it", () => {
    const off: UserSettings = { budgets: {}, guards: { stuckAfter: 0 } };
    expect(decideInSession(session(4), "main", BASH, off).stuck).toBeUndefined();
    expect(decideInSession(session(4, gate({ guards: { stuckAfter: 3 } })), "main", BASH, off).stuck).toHaveLength(3);
  });

  it("an uncertainty threshold from the user or the skill asks the user in a gated scope", () => {
    const unsure = { ...BASH, input: { command: "deploy" } };
    const fromUser = decideInSession(session(0, gate()), "main", unsure, { budgets: {}, guards: { confirmAboveUncertainty: 0.5 } });
    expect(fromUser.decision.decision === "passed" && fromUser.decision.fallback?.to).toBe("user");
    const fromSkill = decideInSession(session(0, gate({ guards: { confirmAboveUncertainty: 0.6 } })), "main", unsure, NONE);
    expect(fromSkill.decision.decision === "passed" && fromSkill.decision.fallback?.to).toBe("user");
    expect(decideInSession(session(0, gate()), "main", unsure, NONE).decision).not.toHaveProperty("fallback");
  });
});

describe("budgets beyond one task (decideInSession)", () => {
  /** The main scope spent `n` input tokens in task 1, then the user typed a new prompt (task 2 spends nothing yet). */
  function spentEarlier(n: number): SessionState {
    const usage: SessionEvent = {
      kind: "scope",
      scope: "main",
      event: {
        kind: "usage",
        messageId: "m1",
        model: "claude-opus-4-5",
        tokens: { input: n, output: 0, cacheCreation: 0, cacheRead: 0 },
        toolUseIds: [],
      },
    };
    return reduceAll(newSession("s"), [usage, { kind: "scope", scope: "main", event: { kind: "prompt", typed: true } }]).session;
  }

  it("the session's budget counts every task, where a task's budget starts afresh", () => {
    const s = spentEarlier(500);
    expect(scopeAt(s, "main").spend).toBeUndefined();
    const user: UserSettings = { budgets: { tokenBudget: 400 }, session: { sessionTokenBudget: 500 } };
    const d = decideInSession(s, "main", BASH, user);
    expect(d.decision.decision === "refused" && d.decision.reason).toContain("This session's token budget is spent: 500 tokens of 500");
    expect(d.budget?.beyond?.spent.session.tokens.input).toBe(500);
    expect(decideInSession(s, "main", BASH, { budgets: {}, session: { sessionTokenBudget: 501 } }).decision.decision).toBe("observed");
  });

  it("the scope's line says no tool call is left once the session's budget is spent", () => {
    const gated = reduceAll(spentEarlier(500), [{ kind: "skill_loaded", scope: "main", source: gate() }]).session;
    const line = (budget: number) =>
      scopeLineOf(gated, "main", { budgets: {}, session: { sessionTokenBudget: budget } }, "claude-opus-4-5");
    expect(line(500)).toContain("no tool call left");
    expect(line(501)).not.toContain("no tool call left");
  });

  it("the window's spend is what the caller read from the ledger; without it the window is not checked", () => {
    const window = { ...zeroSpend(), tokens: { input: 10 ** 7, output: 0, cacheCreation: 0, cacheRead: 0 } };
    window.byModel["claude-opus-4-5"] = { ...window.tokens };
    const user: UserSettings = { budgets: {}, session: { windowCostBudgetUsd: 1 } };
    const d = decideInSession(newSession("s"), "main", { ...BASH, windowSpend: window }, user);
    expect(d.decision.decision === "refused" && d.decision.reason).toContain("window_cost_budget_usd");
    expect(decideInSession(newSession("s"), "main", BASH, user).decision.decision).toBe("observed");
    expect(decideInSession(newSession("s"), "main", { ...BASH, windowSpend: window }, NONE).budget).toBeUndefined();
  });
});

describe("utility_max_agents counts the whole tree of a task, nested launches included (SPEC §12)", () => {
  const agentCall: ScopeEvent = {
    kind: "call",
    decision: "observed",
    tool: "Agent",
    digest: "d",
    effect: { kind: "exec", background: true },
    toolUseId: "launch-nested",
  };
  /** The main scope launched a1; a1 launched a2 (nested); a2 launched a3. */
  const tree = reduceAll(newSession("s"), [
    { kind: "subagent_started", agentId: "a1" },
    { kind: "scope", scope: "agent:a1", event: agentCall },
    { kind: "subagent_started", agentId: "a2" },
    { kind: "scope", scope: "agent:a2", event: { ...agentCall, toolUseId: "launch-deeper" } },
    { kind: "subagent_started", agentId: "a3" },
  ]).session;
  const user = (maxAgents: number): UserSettings => ({ budgets: { maxAgents } });
  const AGENT = { tool: "Agent", input: { prompt: "more", subagent_type: "general-purpose" } };

  it("every subagent of the tree counts toward the task that launched the first, in order", () => {
    expect(["a1", "a2", "a3"].map((id) => tree.agents[id]?.rootTask)).toEqual([1, 1, 1]);
    expect(["a1", "a2", "a3"].map((id) => tree.agents[id]?.ordinal)).toEqual([1, 2, 3]);
    for (const key of ["main", "agent:a1", "agent:a2", "agent:a3"] as const) expect(launchesOf(tree, key)).toBe(3);
  });

  it("a launch anywhere in the tree is refused once the task's limit is reached", () => {
    for (const key of ["main", "agent:a1", "agent:a3"] as const) {
      const d = decideInSession(tree, key, AGENT, user(3));
      expect(d.decision.decision === "refused" && d.decision.rule).toBe("agents_exhausted");
    }
    expect(decideInSession(tree, "agent:a1", AGENT, user(4)).decision.decision).toBe("observed");
  });

  it("a nested subagent that started past the limit runs none of its calls", () => {
    const d = decideInSession(tree, "agent:a3", BASH, user(2));
    expect(d.decision.decision === "refused" && d.decision.reason).toContain("This subagent is number 3 of its task, which may launch 2");
    expect(decideInSession(tree, "agent:a2", BASH, user(2)).decision.decision).toBe("observed");
  });
});
