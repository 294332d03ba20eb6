// What every surface reads of the session machine (src/engine/session/views.ts), directly.
import { describe, expect, it } from "vitest";
import { manualSource } from "../../../src/engine/gate-policy.js";
import { newScope, newSession, type GateSource, type ScopeDraft, type SessionDraft } from "../../../src/engine/session/state.js";
import {
  decisionScopeOf,
  frontmatterBudgetsOf,
  gateOf,
  lastModelOf,
  launchesOf,
  pendingCalls,
  rootSpendOf,
  rootTaskOf,
  sessionSpend,
  startedPastLimit,
  stillAwaiting,
} from "../../../src/engine/session/views.js";
import { zeroSpend } from "../../../src/engine/spend.js";

const spent = (toolCalls: number, agentsLaunched = 0) => ({ ...zeroSpend(), toolCalls, agentsLaunched });
const gate = (file: string, over: Partial<GateSource> = {}): GateSource => ({ ...manualSource(), file, ...over });

function session(): SessionDraft {
  const s = structuredClone(newSession("s")) as SessionDraft;
  s.main = { ...newScope(3), spend: spent(1) } as ScopeDraft;
  s.agents = {
    now: { ...newScope(), rootTask: 3, ordinal: 1, spend: spent(10, 2) } as ScopeDraft,
    also: { ...newScope(), rootTask: 3, ordinal: 2 } as ScopeDraft,
    before: { ...newScope(), rootTask: 2, ordinal: 1, spend: spent(100) } as ScopeDraft,
  };
  return s;
}

describe("whose task a scope's spend counts toward", () => {
  it("the main scope counts its task and the subagents launched in it", () => {
    expect(rootTaskOf(session(), "main")).toBe(3);
    expect(rootSpendOf(session(), "main").toolCalls).toBe(11);
  });

  it("a subagent counts toward the task it was launched in, or the main one when it names none", () => {
    const s = session();
    expect(rootSpendOf(s, "agent:now").toolCalls).toBe(11);
    expect(rootSpendOf(s, "agent:before").toolCalls).toBe(100);
    s.agents.unknown = { ...newScope(), spend: spent(1000) } as ScopeDraft;
    expect(rootTaskOf(s, "agent:unknown")).toBe(3);
    expect(rootSpendOf(s, "agent:unknown").toolCalls).toBe(11); // a state from before rootTask: the task, not its own spend
  });
});

describe("launches: admitted or started, whichever is more", () => {
  it("counts the subagents of the root task that started, or the launches the gate admitted", () => {
    const s = session();
    expect(launchesOf(s, "main")).toBe(2); // two started, two admitted
    s.agents.third = { ...newScope(), rootTask: 3, ordinal: 3 } as ScopeDraft;
    expect(launchesOf(s, "main")).toBe(3); // a Workflow admitted once started three
    expect(launchesOf(s, "agent:before")).toBe(1);
  });

  it("a subagent started past maxAgents is named by its ordinal; the main scope, within, or no limit: none", () => {
    const s = session();
    expect(startedPastLimit(s, "agent:also", 1)).toBe(2);
    expect(startedPastLimit(s, "agent:also", 2)).toBeUndefined();
    expect(startedPastLimit(s, "agent:also", undefined)).toBeUndefined();
    expect(startedPastLimit(s, "main", 0)).toBeUndefined();
    s.agents.old = { ...newScope(), rootTask: 3 } as ScopeDraft; // a state from before ordinals
    expect(startedPastLimit(s, "agent:old", 0)).toBeUndefined();
  });
});

describe("the gate and the budgets that bind a scope", () => {
  it("the main scope's gate: /utility on, or its task's skills; a subagent's: its definition", () => {
    const s = session();
    expect(gateOf(s, "main")).toBeUndefined();
    s.manualGate = true;
    expect(gateOf(s, "main")?.file).toBe("/utility on");
    expect(gateOf(s, "agent:now")).toBeUndefined();
    s.agents.now!.definition = gate("/a/agents/h.md");
    expect(gateOf(s, "agent:now")?.file).toBe("/a/agents/h.md");
  });

  it("the decision scope: subagent, or dispatch when the main scope's gate asks for it", () => {
    expect(decisionScopeOf("agent:x", undefined)).toBe("subagent");
    expect(decisionScopeOf("agent:x", gate("g", { scope: "dispatch" }))).toBe("subagent");
    expect(decisionScopeOf("main", gate("g", { scope: "dispatch" }))).toBe("dispatch");
    expect(decisionScopeOf("main", gate("g"))).toBe("self");
    expect(decisionScopeOf("main", undefined)).toBe("self");
  });

  it("frontmatter budgets: a gated scope's own, and its root task's main gate's for a subagent launched in that task", () => {
    const s = session();
    s.main.sources = [gate("/s/SKILL.md", { budgets: { tokenBudget: 100, maxAgents: 2 } })];
    expect(frontmatterBudgetsOf(s, "main")).toEqual({ tokenBudget: 100, maxAgents: 2 });
    expect(frontmatterBudgetsOf(s, "agent:now")).toEqual({ tokenBudget: 100, maxAgents: 2 });
    expect(frontmatterBudgetsOf(s, "agent:before")).toEqual({});
    s.agents.now!.definition = gate("/a/h.md", { budgets: { tokenBudget: 50 } });
    expect(frontmatterBudgetsOf(s, "agent:now")).toEqual({ tokenBudget: 50, maxAgents: 2 });
    s.main.sources = [];
    expect(frontmatterBudgetsOf(s, "main")).toEqual({});
  });
});

describe("small views", () => {
  it("pending calls, and the session's spend (a copy)", () => {
    const s = session();
    expect(pendingCalls(s, "main")).toBe(0);
    s.main.pending = { t1: { tool: "Read", digest: "d", effect: { kind: "neutral" }, at: 1 } };
    expect(pendingCalls(s, "main")).toBe(1);
    expect(sessionSpend(s)).toEqual(zeroSpend());
    s.spend = { ...spent(4), byModel: { m: { input: 1, output: 0, cacheCreation: 0, cacheRead: 0 } } };
    const copy = sessionSpend(s);
    expect(copy).toEqual(s.spend);
    copy.byModel.m!.input = 9;
    expect(s.spend.byModel.m!.input).toBe(1);
  });

  it("stillAwaiting: not without an activation; the whole wait; a plain prompt until its line is seen", () => {
    const keys = (list: string[]) => () => list;
    expect(stillAwaiting(newScope(), keys([]))).toBe(false);
    expect(stillAwaiting({ ...newScope(), awaitingActivation: true }, keys(["k"]))).toBe(true);
    expect(stillAwaiting({ ...newScope(), awaitingActivation: true, awaitingPrompt: "k" }, keys(["j"]))).toBe(true);
    expect(stillAwaiting({ ...newScope(), awaitingActivation: true, awaitingPrompt: "k" }, keys(["j", "k"]))).toBe(false);
    let asked = false;
    stillAwaiting(newScope(), () => {
      asked = true;
      return [];
    });
    expect(asked).toBe(false);
    stillAwaiting({ ...newScope(), awaitingActivation: true }, () => {
      asked = true;
      return [];
    });
    expect(asked).toBe(false); // the whole wait: no line can end it, none is read
  });

  it("lastModelOf: the model of the newest message read in the scope, if any", () => {
    const s = session();
    expect(lastModelOf(s, "main")).toBeUndefined();
    s.main.messageModels = { m1: "claude-haiku-4-5", m2: "claude-sonnet-4-5", m3: "claude-opus-4-5" };
    expect(lastModelOf(s, "main")).toBe("claude-opus-4-5");
    expect(lastModelOf(s, "agent:now")).toBeUndefined();
  });
});
