// Whether a call reads up to its own line before it is decided (src/engine/session/call-waits.ts).
import { describe, expect, it } from "vitest";
import {
  atStepLimit,
  budgetsBind,
  isPlanning,
  mayBeUnprovenRepeat,
  mayGate,
  planningDecided,
  readsOwnLine,
} from "../../../src/engine/session/call-waits.js";
import type { SessionEvent } from "../../../src/engine/session/events.js";
import { reduceAll, scopeAt } from "../../../src/engine/session/reduce.js";
import { newScope, newSession, type GateSource, type SessionState } from "../../../src/engine/session/state.js";
import { callDigest } from "../../../src/engine/redundancy.js";
import { defaultConfig } from "../../../src/engine/signals.js";

const gate: GateSource = { file: "/s/SKILL.md", gated: true, scope: "self", config: { ...defaultConfig(), maxSteps: 1 }, extraTools: {} };
const run = (...events: SessionEvent[]): SessionState => reduceAll(newSession("s"), events).session;
const gated = () => run({ kind: "skill_loaded", scope: "main", source: gate });
const NONE = { budgets: {} };
const read = { file_path: "/a" };
const call = (toolUseId: string, input: { file_path: string } = read): SessionEvent => ({
  kind: "scope",
  scope: "main",
  event: {
    kind: "call",
    decision: "passed",
    tool: "Read",
    digest: callDigest("Read", input),
    effect: { kind: "read", paths: [input.file_path] },
    toolUseId,
  },
});

describe("call-waits", () => {
  it("planning tools need no report; a Skill call is judged by its skill", () => {
    expect([isPlanning("TodoWrite"), isPlanning("Skill"), isPlanning("Read")]).toEqual([true, false, false]);
  });

  it("a budget binds where the user set one, or the gate's frontmatter does", () => {
    expect(budgetsBind(run(), "main", NONE)).toBe(false);
    expect(budgetsBind(run(), "main", { budgets: { tokenBudget: 10 } })).toBe(true);
    expect(budgetsBind(run(), "main", { budgets: {}, session: { sessionTokenBudget: 10 } })).toBe(true);
    const bound = run({ kind: "skill_loaded", scope: "main", source: { ...gate, budgets: { tokenBudget: 5 } } });
    expect(budgetsBind(bound, "main", NONE)).toBe(true);
  });

  it("under the gate a call reads its own line, planning only at the step limit, a Skill call only acting as more than text", () => {
    expect(readsOwnLine(run(), "main", "Read", undefined)).toBe(false);
    expect(readsOwnLine(gated(), "main", "Read", undefined)).toBe(true);
    expect(readsOwnLine(gated(), "main", "TodoWrite", undefined)).toBe(false);
    expect(readsOwnLine(gated(), "main", "Skill", undefined)).toBe(false);
    expect(readsOwnLine(gated(), "main", "Skill", { action: "tool_call", why: "its skill runs shell" })).toBe(true);
    const full = reduceAll(gated(), [call("t1")]).session;
    expect(atStepLimit(full, "main")).toBe(true);
    expect([atStepLimit(run(call("t1")), "main"), atStepLimit(gated(), "main")]).toEqual([false, false]);
    expect(readsOwnLine(full, "main", "TodoWrite", undefined)).toBe(true);
  });

  it("a planning call is decided where a budget may be spent: the user's budgets, a gate, a skill that may have loaded", () => {
    expect(planningDecided(undefined, "main", NONE)).toBe(false);
    expect(planningDecided(undefined, "main", { budgets: { tokenBudget: 1 } })).toBe(true);
    expect(planningDecided(run(), "main", NONE)).toBe(false);
    expect(planningDecided(gated(), "main", NONE)).toBe(true);
    expect(planningDecided(run({ kind: "activation_awaited", scope: "main", toolUseId: "s1" }), "main", NONE)).toBe(true);
  });

  it("a scope may be gated by now while a skill is awaited, or a Skill call let through has not loaded yet", () => {
    expect(mayGate(newScope())).toBe(false);
    expect(mayGate({ ...newScope(), awaitingActivation: true })).toBe(true);
    const { awaitingActivation: _awaiting, ...called } = scopeAt(
      run({ kind: "activation_awaited", scope: "main", toolUseId: "s1", source: gate }),
      "main",
    );
    expect(called.skillCalls).toHaveProperty("s1");
    expect(mayGate(called)).toBe(true);
  });

  it("an ungated call may repeat a pending one: the same tool and input while calls are pending", () => {
    expect(mayBeUnprovenRepeat(run(), "main", "Read", read)).toBe(false);
    const pending = run(call("t1"));
    expect(mayBeUnprovenRepeat(pending, "main", "Read", read)).toBe(true);
    expect(mayBeUnprovenRepeat(pending, "main", "Read", { file_path: "/b" })).toBe(false);
  });

  it("any pending call will do, and an earlier call that ran is a repeat to prove only while another is pending", () => {
    const two = run(call("t1"), call("t2", { file_path: "/b" }));
    expect(mayBeUnprovenRepeat(two, "main", "Read", read)).toBe(true);
    const ran = run(call("t1"), { kind: "scope", scope: "main", event: { kind: "result", toolUseId: "t1", failed: false, bytes: 1 } });
    expect(scopeAt(ran, "main").pending).toEqual({});
    expect(mayBeUnprovenRepeat(ran, "main", "Read", read)).toBe(false);
  });
});
