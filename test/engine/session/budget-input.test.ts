// The budgets a scope is decided under (src/engine/session/budget-input.ts): a
// subagent's own caps beside its task's, tool calls as a budget, and what the
// model is told of them (SPEC §16), through the session machine.
import { describe, expect, it } from "vitest";
import { budgetNoticeIn, type UserSettings } from "../../../src/engine/session/budget-input.js";
import { planCall } from "../../../src/engine/session/call-plan.js";
import { decideInSession } from "../../../src/engine/session/decide.js";
import { scoped, type ScopeKey, type SessionEvent } from "../../../src/engine/session/events.js";
import { reduceAll } from "../../../src/engine/session/reduce.js";
import { newSession, type SessionState } from "../../../src/engine/session/state.js";
import { defaultConfig } from "../../../src/engine/signals.js";

const typed: SessionEvent = scoped("main", { kind: "prompt", typed: true });
const usage = (key: ScopeKey, id: string, input: number): SessionEvent =>
  scoped(key, {
    kind: "usage",
    messageId: id,
    model: "claude-opus-5-5",
    tokens: { input, output: 0, cacheCreation: 0, cacheRead: 0 },
    toolUseIds: [],
  });
const bash = (id: string) => ({ tool: "Bash", input: { command: `echo ${id}` }, toolUseId: id });
const run = (...events: SessionEvent[]): SessionState => reduceAll(newSession("s"), [typed, ...events]).session;
const rule = (d: ReturnType<typeof decideInSession>) => (d.decision.decision === "refused" ? d.decision.rule : d.decision.decision);
const reason = (d: ReturnType<typeof decideInSession>) => (d.decision.decision === "refused" ? d.decision.reason : "");

/** Plans calls one after another, keeping the session each returns, and gives each call's context. */
function planAll(session: SessionState, key: ScopeKey, user: UserSettings, ids: string[]) {
  const contexts: Array<string | undefined> = [];
  let s = session;
  for (const id of ids) {
    const plan = planCall(s, key, bash(id), user);
    contexts.push(plan.context);
    s = plan.session;
  }
  return { session: s, contexts };
}

describe("a cap on one subagent", () => {
  const user: UserSettings = { budgets: { agentTokenBudget: 1000 } };
  const started = run({ kind: "subagent_started", agentId: "a" }, usage("agent:a", "m1", 1000));

  it("refuses the subagent's next call once its own tokens reach the cap, naming it; the main conversation goes on", () => {
    const d = decideInSession(started, "agent:a", bash("t1"), user);
    expect(rule(d)).toBe("budget_spent");
    expect(reason(d)).toContain("(agent a) has spent its token cap: 1,000 tokens of 1,000 (your agent_token_budget setting)");
    expect(rule(decideInSession(started, "main", bash("t2"), user))).toBe("observed");
  });

  it("holds each subagent to its own spend: another one, or a nested one, under the cap goes on", () => {
    const two = reduceAll(started, [{ kind: "subagent_started", agentId: "b" }, usage("agent:b", "m2", 999)]).session;
    expect(rule(decideInSession(two, "agent:b", bash("t3"), user))).toBe("observed");
  });

  it("the frontmatter's cap and the user's: the smaller wins, named by its key", () => {
    const gate = {
      file: "/s/SKILL.md",
      gated: true,
      scope: "self" as const,
      config: defaultConfig(),
      extraTools: {},
      budgets: { agentTokenBudget: 500 },
    };
    const s = reduceAll(run({ kind: "skill_loaded", scope: "main", source: gate }), [
      { kind: "subagent_started", agentId: "c" },
      usage("agent:c", "m3", 600),
    ]).session;
    const d = decideInSession(s, "agent:c", bash("t4"), user);
    expect(reason(d)).toContain("600 tokens of 500 (utility_agent_token_budget)");
  });

  it("planning calls stay allowed past it (a few), so the subagent can wrap up", () => {
    const todo = { tool: "TodoWrite", input: { todos: [] }, toolUseId: "p1" };
    expect(rule(decideInSession(started, "agent:a", todo, user))).toBe("neutral");
  });
});

describe("tool calls as a budget", () => {
  it("a task's: counts its subagents' calls; the call after the last allowed one is refused", () => {
    const user: UserSettings = { budgets: { maxToolCalls: 2 } };
    const { session } = planAll(run({ kind: "subagent_started", agentId: "a" }), "main", user, ["t1"]);
    const after = planAll(session, "agent:a", user, ["t2"]).session;
    const d = decideInSession(after, "main", bash("t3"), user);
    expect(reason(d)).toContain("This task's tool-call budget is spent: 2 tool calls of 2 (your max_tool_calls setting)");
  });

  it("a session's: every task together", () => {
    const user: UserSettings = { budgets: {}, session: { sessionMaxToolCalls: 2 } };
    const first = planAll(run(), "main", user, ["t1", "t2"]).session;
    const next = reduceAll(first, [typed]).session;
    expect(reason(decideInSession(next, "main", bash("t3"), user))).toContain("2 tool calls of 2 (session_max_tool_calls)");
  });

  it("a subagent's own", () => {
    const user: UserSettings = { budgets: { agentMaxToolCalls: 1 } };
    const { session } = planAll(run({ kind: "subagent_started", agentId: "a" }), "agent:a", user, ["t1"]);
    expect(reason(decideInSession(session, "agent:a", bash("t2"), user))).toContain("has made its 1 tool call (");
    expect(rule(decideInSession(session, "main", bash("t3"), user))).toBe("observed");
  });
});

describe("the budget in the model's view", () => {
  it("no budget, no word", () => {
    expect(budgetNoticeIn(run(), "main", { budgets: {} })).toEqual({ events: [] });
    expect(planAll(run(), "main", { budgets: {} }, ["t1"]).contexts).toEqual([undefined]);
  });

  it("what is left at the first call of a task, then at one half, four fifths and all, never otherwise", () => {
    const user: UserSettings = { budgets: { maxToolCalls: 10 } };
    const { contexts } = planAll(run(), "main", user, ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11"]);
    // Each is told after its call, which it counts (it arrives with the call's result).
    expect(contexts).toEqual([
      "utility budget left: task 9 tool calls",
      undefined,
      undefined,
      undefined,
      "utility budget: task tool calls 50% used, 5 tool calls left",
      undefined,
      undefined,
      "utility budget: task tool calls 80% used, 2 tool calls left",
      undefined,
      "utility budget: task tool calls all used (10 of 10): answer with what you have",
      // The refusal says it is spent: not told twice.
      undefined,
    ]);
  });

  it("told at the start (a prompt's hook) is not told again at the task's first call; a new task starts over", () => {
    const user: UserSettings = { budgets: { tokenBudget: 1000 } };
    const s = run();
    const start = budgetNoticeIn(s, "main", user);
    expect(start.text).toBe("utility budget left: task 1k tokens");
    const told = reduceAll(s, start.events).session;
    expect(planAll(told, "main", user, ["t1"]).contexts).toEqual([undefined]);
    const next = reduceAll(told, [typed]).session;
    expect(planAll(next, "main", user, ["t2"]).contexts).toEqual(["utility budget left: task 1k tokens"]);
  });

  it("a subagent starts told its own cap only; the task's budgets it shares come as they cross a threshold (red team 11: cost)", () => {
    const user: UserSettings = { budgets: { agentTokenBudget: 50_000, tokenBudget: 200_000 } };
    const s = run({ kind: "subagent_started", agentId: "a" });
    expect(budgetNoticeIn(s, "agent:a", user).text).toBe("utility budget left: this subagent 50k tokens");
    expect(budgetNoticeIn(s, "main", user).text).toBe("utility budget left: task 200k tokens");
    expect(budgetNoticeIn(s, "agent:a", { budgets: { tokenBudget: 200_000 } }).text).toBeUndefined();
  });

  it("an invalid setting tells nothing (the warning says what is wrong)", () => {
    expect(budgetNoticeIn(run(), "main", { budgets: { tokenBudget: 10 }, problem: "bad" })).toEqual({ events: [] });
  });
});
