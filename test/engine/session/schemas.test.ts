import { describe, expect, it } from "vitest";
import { ScopeEventSchema, type ScopeEvent } from "../../../src/engine/session/scope-events.js";
import {
  GateSourceSchema,
  RanCallSchema,
  ScopeStateSchema,
  SessionStateSchema,
  newScope,
  newSession,
} from "../../../src/engine/session/state.js";
import { agentIdOf, agentKey, ScopeKeySchema, SessionEventSchema, type SessionEvent } from "../../../src/engine/session/events.js";
import { defaultConfig } from "../../../src/engine/signals.js";

const tokens = { input: 1, output: 2, cacheCreation: 3, cacheRead: 4 };
const spend = { tokens, byModel: { "claude-x": tokens }, toolCalls: 5, agentsLaunched: 1 };
const readEffect = { kind: "read" as const, paths: ["/repo/a.ts"] };

// One event of each kind with every field it can carry: parsing must keep each field as it is.
const EVERY_EVENT: ScopeEvent[] = [
  { kind: "prompt", typed: true },
  {
    kind: "call",
    decision: "passed",
    tool: "Read",
    digest: "d1",
    effect: readEffect,
    toolUseId: "t1",
    action: "retrieve",
    startedAt: 10,
    jobOf: "job1",
  },
  { kind: "result", toolUseId: "t1", failed: false, bytes: 42, endedAt: 20, durationMs: 10, jobId: "job2", finished: true },
  { kind: "denied", toolUseId: "t1" },
  { kind: "ran_unchecked", tool: "Bash", digest: "d2", effect: { kind: "exec", background: true }, toolUseId: "t2", failed: true },
  { kind: "compact" },
  { kind: "background_ended", toolUseId: "t2", jobId: "job2" },
  { kind: "usage", messageId: "m1", model: "claude-x", tokens, toolUseIds: ["t1", "t2"] },
  { kind: "subagent_started", rootTask: 3 },
  { kind: "turn_end", subagent: true },
  { kind: "confirmed", messageId: "m2" },
];

describe("ScopeEventSchema", () => {
  it.each(EVERY_EVENT.map((e) => [e.kind, e] as const))("keeps every field of a %s event", (_kind, event) => {
    expect(ScopeEventSchema.parse(event)).toEqual(event);
  });

  it("refuses an unknown kind, a kind written empty, and a decision outside the four", () => {
    expect(ScopeEventSchema.safeParse({ kind: "" }).success).toBe(false);
    expect(ScopeEventSchema.safeParse({ kind: "wakeup" }).success).toBe(false);
    for (const decision of ["passed", "observed", "refused", "neutral"]) {
      expect(ScopeEventSchema.safeParse({ ...EVERY_EVENT[1], decision }).success).toBe(true);
    }
    expect(ScopeEventSchema.safeParse({ ...EVERY_EVENT[1], decision: "" }).success).toBe(false);
    expect(ScopeEventSchema.safeParse({ ...EVERY_EVENT[1], action: "wander" }).success).toBe(false);
    for (const actsAs of ["tool_call", "delegate"]) expect(ScopeEventSchema.parse({ ...EVERY_EVENT[1], actsAs })).toMatchObject({ actsAs });
    expect(ScopeEventSchema.safeParse({ ...EVERY_EVENT[1], actsAs: "" }).success).toBe(false);
    expect(ScopeEventSchema.safeParse({ ...EVERY_EVENT[1], actsAs: "retrieve" }).success).toBe(false);
  });

  it("checks each field's type", () => {
    expect(ScopeEventSchema.safeParse({ kind: "prompt", typed: "yes" }).success).toBe(false);
    expect(ScopeEventSchema.safeParse({ ...EVERY_EVENT[2], bytes: "42" }).success).toBe(false);
    expect(ScopeEventSchema.safeParse({ ...EVERY_EVENT[7], tokens: { input: 1 } }).success).toBe(false);
    expect(ScopeEventSchema.safeParse({ kind: "subagent_started", rootTask: "3" }).success).toBe(false);
    expect(ScopeEventSchema.safeParse({ kind: "turn_end" }).success).toBe(false);
    expect(ScopeEventSchema.safeParse({ kind: "confirmed" }).success).toBe(false);
    expect(ScopeEventSchema.safeParse({ kind: "denied" }).success).toBe(false);
    expect(ScopeEventSchema.safeParse({ ...EVERY_EVENT[6], jobId: 7 }).success).toBe(false);
  });
});

describe("the scope state's schemas", () => {
  it.each([
    readEffect,
    { kind: "write", paths: ["/repo/b.ts"] },
    { kind: "exec", background: false },
    { kind: "exec" },
    { kind: "poll" },
    { kind: "neutral" },
  ])("keeps a call's effect %j", (effect) => {
    const call = { tool: "T", digest: "d", effect, at: 1 };
    expect(RanCallSchema.parse(call)).toEqual(call);
  });

  it("refuses an effect of an unknown kind or without its paths", () => {
    const call = (effect: unknown) => RanCallSchema.safeParse({ tool: "T", digest: "d", effect, at: 1 }).success;
    expect(call({ kind: "" })).toBe(false);
    expect(call({ kind: "delete", paths: [] })).toBe(false);
    expect(call({ kind: "read" })).toBe(false);
    expect(call({ kind: "write" })).toBe(false);
    expect(call({ kind: "write", paths: [1] })).toBe(false);
    expect(call({ kind: "exec", background: "yes" })).toBe(false);
  });

  const fullCall = {
    tool: "Bash",
    digest: "d",
    effect: { kind: "exec", background: true },
    at: 2,
    toolUseId: "t1",
    jobId: "j1",
    jobOf: "j0",
    failed: false,
    startedAt: 5,
    tokens,
  };
  const source = {
    file: "/skills/a/SKILL.md",
    gated: true,
    scope: "self",
    config: defaultConfig(),
    extraTools: { tool_call: ["MyTool"] },
    problem: "bad",
    budgets: { maxAgents: 2 },
  };

  it("keeps every field of a ran call and of a gate source", () => {
    expect(RanCallSchema.parse(fullCall)).toEqual(fullCall);
    expect(GateSourceSchema.parse(source)).toEqual(source);
  });

  it("refuses a gate source with a scope outside the opt-in scopes or extra tools that are not lists of names", () => {
    expect(GateSourceSchema.safeParse({ ...source, scope: "subagent" }).success).toBe(false);
    expect(GateSourceSchema.safeParse({ ...source, extraTools: { tool_call: "MyTool" } }).success).toBe(false);
    expect(GateSourceSchema.safeParse({ ...source, extraTools: { tool_call: [1] } }).success).toBe(false);
    expect(GateSourceSchema.safeParse({ ...source, gated: "true" }).success).toBe(false);
  });

  it("keeps every field of a full scope state", () => {
    const state = {
      task: 2,
      step: 3,
      refusals: 1,
      offset: 100,
      sources: [source],
      pending: { t1: fullCall },
      history: [fullCall],
      lastAction: "verify",
      awaitingActivation: true,
      stopBlocked: false,
      agentType: "Explore",
      forkOf: "toolu_1",
      definition: source,
      ended: true,
      spend,
      rootTask: 1,
      messages: { m1: tokens },
      messageModels: { m1: "claude-x" },
      callMessages: { t1: "m1" },
    };
    expect(ScopeStateSchema.parse(state)).toEqual(state);
    expect(ScopeStateSchema.safeParse({ ...state, lastAction: "wander" }).success).toBe(false);
    expect(ScopeStateSchema.safeParse({ ...state, pending: { t1: { tool: "Bash" } } }).success).toBe(false);
  });

  it("starts a scope with nothing in it, at the task given (1 by default)", () => {
    expect(newScope()).toEqual({ task: 1, step: 0, refusals: 0, offset: 0, sources: [], pending: {}, history: [] });
    expect(newScope(4).task).toBe(4);
    expect(ScopeStateSchema.parse(newScope())).toEqual(newScope());
  });
});

const gateSource = { file: "/skills/a/SKILL.md", gated: true, scope: "self" as const, config: defaultConfig(), extraTools: {} };

// One session event of each kind with every field it can carry.
const EVERY_SESSION_EVENT: SessionEvent[] = [
  { kind: "prompt_vouched", key: "p1", own: false, switch: "on", slash: true },
  { kind: "command_typed", key: "p1", switch: "off", after: 120, transcriptId: "dev:ino" },
  { kind: "off_evidence", shown: true },
  { kind: "fork_launched", scope: "main", toolUseId: "t1" },
  { kind: "skill_fork_launched", toolUseId: "t2", source: gateSource },
  { kind: "fork_joined", agentId: "a1", toolUseId: "t1" },
  { kind: "session_forked" },
  { kind: "fork_origin", from: "s0", gated: true },
  { kind: "switch_restored" },
  { kind: "prompt_line", key: "p1", lineKind: "typed" },
  { kind: "subagent_started", agentId: "a1" },
  { kind: "definition_loaded", agentId: "a1", agentType: "Explore", definition: gateSource },
  { kind: "main_agent", agentType: "reviewer", definition: gateSource },
  { kind: "skill_loaded", scope: "agent:a1", source: gateSource },
  { kind: "lines_read", scope: "main", offset: 120, transcriptId: "dev:ino" },
  { kind: "activation_awaited", scope: "main" },
  { kind: "activation_seen", scope: "main" },
  { kind: "call_line_seen", scope: "main", toolUseId: "t1", messageId: "m1" },
  { kind: "stop_blocked", scope: "agent:a1" },
  { kind: "settings_warned", problem: "bad" },
  { kind: "user_budgets", budgets: { tokenBudget: 1000 } },
  { kind: "scope", scope: "main", event: { kind: "compact" } },
];

describe("SessionEventSchema", () => {
  it.each(EVERY_SESSION_EVENT.map((e) => [e.kind, e] as const))("keeps every field of a %s event", (_kind, event) => {
    expect(SessionEventSchema.parse(event)).toEqual(event);
  });

  it("has one example here per kind it knows, and refuses any other kind", () => {
    const kinds = (SessionEventSchema.def.options as ReadonlyArray<{ def: { shape: { kind: { def: { values: string[] } } } } }>).map(
      (option) => option.def.shape.kind.def.values[0],
    );
    expect(EVERY_SESSION_EVENT.map((e) => e.kind)).toEqual(kinds);
    expect(SessionEventSchema.safeParse({ kind: "" }).success).toBe(false);
    expect(SessionEventSchema.safeParse({ kind: "wakeup" }).success).toBe(false);
  });

  it("refuses a scope key that is neither main nor agent:<id>", () => {
    for (const scope of ["", "agent:", "Main", "sub:a1", "xagent:a1", 7]) {
      expect(SessionEventSchema.safeParse({ kind: "stop_blocked", scope }).success, String(scope)).toBe(false);
    }
  });

  it("refuses a line kind or a switch it does not know", () => {
    expect(SessionEventSchema.safeParse({ kind: "prompt_line", key: "p", lineKind: "shell" }).success).toBe(false);
    expect(SessionEventSchema.safeParse({ ...EVERY_SESSION_EVENT[0], switch: "toggle" }).success).toBe(false);
  });
});

describe("scope keys", () => {
  it("main and agent:<id>, and back", () => {
    expect(ScopeKeySchema.safeParse("main").success).toBe(true);
    expect(ScopeKeySchema.safeParse("agent:a1").success).toBe(true);
    // Not a string, though its text would match: an array or an object naming an agent.
    expect(ScopeKeySchema.safeParse(["agent:a1"]).success).toBe(false);
    expect(ScopeKeySchema.safeParse({ toString: () => "agent:a1" }).success).toBe(false);
    expect(agentKey("a1")).toBe("agent:a1");
    expect(agentIdOf(agentKey("a:b"))).toBe("a:b");
    expect(agentIdOf("main")).toBeUndefined();
  });
});

describe("SessionStateSchema", () => {
  it("keeps every field of a full session state, and a new one as it is", () => {
    const state = {
      ...newSession("s1"),
      manualGate: true,
      agents: { a1: newScope() },
      prompts: { p1: { own: true, seq: 2, switch: "off" }, p2: { own: false, seq: 3, contested: true } },
      promptSeq: 2,
      switchSeq: 1,
      pendingOff: { key: "p0", seq: 1, after: 120, transcriptId: "dev:ino" },
      forks: { t1: { source: gateSource, step: 2 } },
      forkedFrom: "s0",
      userBudgets: { maxAgents: 3 },
      settingsWarned: "bad",
      spend,
    };
    expect(SessionStateSchema.parse(state)).toEqual(state);
    expect(SessionStateSchema.parse(newSession("s2"))).toEqual(newSession("s2"));
  });

  it("refuses another version, a vouched prompt without its own flag, and a switch it does not know", () => {
    expect(SessionStateSchema.safeParse({ ...newSession("s"), version: 2 }).success).toBe(false);
    expect(SessionStateSchema.safeParse({ ...newSession("s"), prompts: { p: { seq: 1 } } }).success).toBe(false);
    expect(SessionStateSchema.safeParse({ ...newSession("s"), prompts: { p: { own: false, switch: "maybe" } } }).success).toBe(false);
  });
});
