import { describe, expect, it } from "vitest";
import type { ScopeEvent } from "../../../src/engine/session/scope-events.js";
import { HISTORY_LIMIT, applyEvent, applyEvents, neverRan } from "../../../src/engine/session/scope-reducer.js";
import { MESSAGE_MEMORY, callMessageOf } from "../../../src/engine/session/scope-usage.js";
import { newScope, type ScopeState } from "../../../src/engine/session/state.js";
import { sumSpend, zeroSpend } from "../../../src/engine/spend.js";

const tokens = (input: number, output = 0, cacheCreation = 0, cacheRead = 0) => ({ input, output, cacheCreation, cacheRead });
const call = (id: string | undefined, tool = "Read", over: Partial<Extract<ScopeEvent, { kind: "call" }>> = {}): ScopeEvent => ({
  kind: "call",
  decision: "observed",
  tool,
  digest: `d-${id ?? "none"}`,
  effect: tool === "Bash" ? { kind: "exec", background: true } : { kind: "read", paths: ["/a"] },
  ...(id !== undefined ? { toolUseId: id } : {}),
  ...over,
});
const result = (id: string, over: Partial<Extract<ScopeEvent, { kind: "result" }>> = {}): ScopeEvent => ({
  kind: "result",
  toolUseId: id,
  failed: false,
  bytes: 1,
  ...over,
});
const run = (events: ScopeEvent[], from: ScopeState = newScope()) => applyEvents(from, events);

describe("calls the gate never let through (ran_unchecked)", () => {
  it("are remembered at the current step, with their id and failure, and take no step", () => {
    const s = run([
      call("t1"),
      result("t1"),
      { kind: "ran_unchecked", tool: "Bash", digest: "x", effect: { kind: "exec" }, toolUseId: "u1", failed: true },
    ]).state;
    expect(s.step).toBe(1);
    expect(s.history.at(-1)).toStrictEqual({
      tool: "Bash",
      digest: "x",
      effect: { kind: "exec" },
      at: 1,
      task: 1,
      toolUseId: "u1",
      failed: true,
    });
    const plain = run([{ kind: "ran_unchecked", tool: "Read", digest: "y", effect: { kind: "read", paths: ["/b"] }, failed: false }]).state;
    expect(plain.history).toStrictEqual([{ tool: "Read", digest: "y", effect: { kind: "read", paths: ["/b"] }, at: 0, task: 1 }]);
    expect(plain.spend).toBeUndefined();
  });
});

describe("spends added together (sumSpend, src/engine/spend.ts)", () => {
  it("adds every count, by model too", () => {
    const add = { tokens: tokens(1, 2, 3, 4), byModel: { a: tokens(1, 2, 3, 4) }, toolCalls: 2, agentsLaunched: 1 };
    const total = sumSpend([add, { ...add, byModel: { a: tokens(1, 2, 3, 4), b: tokens(5) } }]);
    expect(sumSpend([])).toStrictEqual(zeroSpend());
    expect(add.tokens).toStrictEqual(tokens(1, 2, 3, 4));
    expect(total).toStrictEqual({
      tokens: tokens(2, 4, 6, 8),
      byModel: { a: tokens(2, 4, 6, 8), b: tokens(5) },
      toolCalls: 4,
      agentsLaunched: 2,
    });
  });
});

describe("a subagent's start", () => {
  it("keeps the first root task it is given", () => {
    const s = run([
      { kind: "subagent_started", rootTask: 2 },
      { kind: "subagent_started", rootTask: 5 },
    ]).state;
    expect(s.rootTask).toBe(2);
  });
});

describe("applyEvent", () => {
  it("is applyEvents of one event", () => {
    expect(applyEvent(newScope(), call("t1"))).toEqual(applyEvents(newScope(), [call("t1")]));
  });
});

describe("copying the state", () => {
  it("never changes the caller's messages, models, call messages or spend", () => {
    const before = run([call("t1"), { kind: "usage", messageId: "m1", model: "a", tokens: tokens(1), toolUseIds: ["t1"] }]).state;
    const frozen = structuredClone(before);
    run(
      [
        { kind: "usage", messageId: "m2", model: "b", tokens: tokens(7), toolUseIds: ["t2"] },
        { kind: "usage", messageId: "m1", model: "a", tokens: tokens(9), toolUseIds: ["t1"] },
      ],
      before,
    );
    expect(before).toStrictEqual(frozen);
  });
});

describe("steps and delegation", () => {
  it("counts an Agent launch as a subagent and a SendMessage as none", () => {
    expect(run([call("t1", "Agent")]).state.spend?.agentsLaunched).toBe(1);
    expect(run([call("t1", "SendMessage")]).state.spend?.agentsLaunched).toBe(0);
    expect(run([call("t1", "SendMessage")]).state.spend?.toolCalls).toBe(1);
  });

  it("records the action of a passed call, and a call without an id is a step but never pending", () => {
    const s = run([call(undefined, "Read", { decision: "passed", action: "retrieve" })]).state;
    expect(s).toMatchObject({ step: 1, lastAction: "retrieve", pending: {} });
    expect(run([call("t1")]).state.lastAction).toBeUndefined();
  });

  it("a neutral call changes nothing; a refused one only counts a refusal", () => {
    expect(run([call("t1", "Read", { decision: "neutral" })]).state).toStrictEqual(newScope());
    expect(run([call("t1", "Read", { decision: "refused" })]).state).toStrictEqual({ ...newScope(), refusals: 1 });
  });

  it("keeps a pending call's start and the job it names, and only those it has", () => {
    const s = run([call("t1", "BashOutput", { startedAt: 0, jobOf: "bash_1" }), call("t2")]).state;
    expect(s.pending.t1).toMatchObject({ startedAt: 0, jobOf: "bash_1", at: 1 });
    expect(Object.keys(s.pending.t2!).sort()).toEqual(["at", "digest", "effect", "task", "tool", "toolUseId"]);
  });
});

describe("results", () => {
  it("measure the duration from the start to the end, never below 0, and only with both", () => {
    const at = (startedAt: number | undefined, endedAt: number | undefined) =>
      run([call("t1", "Read", startedAt !== undefined ? { startedAt } : {}), result("t1", endedAt !== undefined ? { endedAt } : {})])
        .outcomes[0]!;
    expect(at(1000, 1250).durationMs).toBe(250);
    expect(at(1000, 900).durationMs).toBe(0);
    expect(at(undefined, 1250)).not.toHaveProperty("durationMs");
    expect(at(1000, undefined)).not.toHaveProperty("durationMs");
    expect(run([call("t1"), result("t1", { durationMs: 7, endedAt: 99 })]).outcomes[0]!.durationMs).toBe(7);
  });

  it("of a failed call are remembered as failed, and a background launch keeps its job id", () => {
    const s = run([call("t1", "Bash"), result("t1", { failed: true, jobId: "bash_9" })]).state;
    expect(s.history[0]).toMatchObject({ failed: true, jobId: "bash_9" });
    const read = run([call("t1"), result("t1", { jobId: "bash_9" })]).state;
    expect(read.history[0]).not.toHaveProperty("jobId");
    expect(read.history[0]).not.toHaveProperty("failed");
  });

  it("for an unknown or inherited id change nothing", () => {
    expect(run([result("constructor")])).toStrictEqual({ state: newScope(), outcomes: [] });
    expect(run([{ kind: "denied", toolUseId: "constructor" }])).toStrictEqual({ state: newScope(), outcomes: [] });
  });

  it("a denial line alone refunds nothing (a shell could have written it); the turn's end takes the step back, never below 0", () => {
    const seen = run([call("t1"), { kind: "denied", toolUseId: "t1" }]);
    expect(seen.state).toMatchObject({ step: 1, pending: { t1: { deniedSeen: true } } });
    expect(seen.outcomes).toStrictEqual([]);
    const { state, outcomes } = run([{ kind: "turn_end", subagent: false }], seen.state);
    expect(state).toMatchObject({ step: 0, pending: {} });
    expect(state.spend?.toolCalls).toBe(0);
    expect(outcomes).toStrictEqual([{ toolUseId: "t1", tool: "Read", step: 1, outcome: "denied", resultBytes: 0 }]);
    const fromZero = run(
      [
        { kind: "denied", toolUseId: "t1" },
        { kind: "turn_end", subagent: false },
      ],
      {
        ...newScope(),
        step: 0,
        spend: zeroSpend(),
        pending: { t1: { tool: "Read", digest: "d", effect: { kind: "neutral" }, at: 0 } },
      },
    ).state;
    expect(fromZero.step).toBe(0);
    expect(fromZero.spend?.toolCalls).toBe(0);
  });

  it("a denial is confirmed by a later message's own call line, never by one of the same message or of a message not known", () => {
    const usage = (messageId: string, ids: string[]): ScopeEvent => ({
      kind: "usage",
      messageId,
      model: "claude-opus-4-5",
      tokens: { input: 1, output: 1, cacheCreation: 0, cacheRead: 0 },
      toolUseIds: ids,
    });
    const base = run([
      usage("m1", ["t1", "t2"]),
      call("t1"),
      call("t2"),
      { kind: "denied", toolUseId: "t1" },
      { kind: "denied", toolUseId: "t9" },
    ]).state;
    expect(run([{ kind: "confirmed", messageId: "m1" }], base).state.step).toBe(2);
    const later = run([{ kind: "confirmed", messageId: "m2" }], base);
    expect(later.state.step).toBe(1);
    expect(Object.keys(later.state.pending)).toEqual(["t2"]);
    expect(later.outcomes).toMatchObject([{ toolUseId: "t1", outcome: "denied" }]);
    const unknown = run([call("t3"), { kind: "denied", toolUseId: "t3" }, { kind: "confirmed", messageId: "m2" }]).state;
    expect(unknown.step).toBe(1);
  });

  it("a real result wins over a denial line written before it: the call ran", () => {
    const { state, outcomes } = run([call("t1"), { kind: "denied", toolUseId: "t1" }, result("t1"), { kind: "turn_end", subagent: false }]);
    expect(state.step).toBe(1);
    expect(state.history.map((h) => h.toolUseId)).toEqual(["t1"]);
    expect(state.history[0]).not.toHaveProperty("deniedSeen");
    expect(outcomes).toMatchObject([{ toolUseId: "t1", outcome: "ran" }]);
  });
});

describe("the history", () => {
  it("keeps the newest HISTORY_LIMIT calls", () => {
    const events: ScopeEvent[] = [];
    for (let i = 0; i <= HISTORY_LIMIT; i++)
      events.push({ kind: "ran_unchecked", tool: "Read", digest: `d${i}`, effect: { kind: "neutral" }, failed: false });
    const s = run(events.slice(0, HISTORY_LIMIT)).state;
    expect(s.history).toHaveLength(HISTORY_LIMIT);
    expect(s.history[0]!.digest).toBe("d0");
    const over = run(events).state;
    expect(over.history).toHaveLength(HISTORY_LIMIT);
    expect(over.history[0]!.digest).toBe("d1");
  });
});

describe("the end of a turn", () => {
  it("takes back what never ran, never below 0, and ends a subagent's history", () => {
    const pendingTwo = {
      ...newScope(),
      step: 1,
      spend: { ...zeroSpend(), toolCalls: 1 },
      pending: {
        a: { tool: "Read", digest: "d", effect: { kind: "neutral" as const }, at: 1 },
        b: { tool: "Read", digest: "e", effect: { kind: "neutral" as const }, at: 1 },
      },
    };
    expect(neverRan(pendingTwo)).toBe(2);
    const s = run([{ kind: "turn_end", subagent: false }], pendingTwo).state;
    expect(s).toMatchObject({ step: 0, pending: {} });
    expect(s.spend?.toolCalls).toBe(0);
    expect(s.ended).toBeUndefined();
    const sub = run([call("t1"), result("t1"), call("t2"), { kind: "turn_end", subagent: true }]).state;
    expect(sub).toMatchObject({ step: 1, ended: true, history: [] });
    expect(sub.spend?.toolCalls).toBe(1);
  });
});

describe("usage", () => {
  it("counts a message once at its largest count per field, and a later line brings a pending call's tokens up to date", () => {
    const s = run([
      { kind: "usage", messageId: "m1", model: "a", tokens: tokens(10, 1, 5, 0), toolUseIds: ["t1"] },
      call("t1"),
      { kind: "usage", messageId: "m1", model: "a", tokens: tokens(10, 4, 2, 3), toolUseIds: [] },
    ]).state;
    expect(s.spend?.tokens).toStrictEqual(tokens(10, 4, 5, 3));
    expect(s.pending.t1!.tokens).toStrictEqual(tokens(10, 4, 5, 3));
    expect(callMessageOf(s, "t1")).toStrictEqual({ messageId: "m1", model: "a", tokens: tokens(10, 4, 5, 3) });
    expect(callMessageOf(s, "t9")).toBeUndefined();
  });

  it("remembers the newest MESSAGE_MEMORY messages and models", () => {
    const events: ScopeEvent[] = [];
    for (let i = 0; i <= MESSAGE_MEMORY; i++)
      events.push({ kind: "usage", messageId: `m${i}`, model: "a", tokens: tokens(1), toolUseIds: [`t${i}`] });
    const s = run(events).state;
    expect(Object.keys(s.messages!)).toHaveLength(MESSAGE_MEMORY);
    expect(s.messages).not.toHaveProperty("m0");
    expect(s.messageModels).not.toHaveProperty("m0");
    expect(s.messageModels).toHaveProperty("m1");
    expect(Object.keys(s.callMessages!)).toHaveLength(MESSAGE_MEMORY + 1);
    expect(s.spend?.tokens.input).toBe(MESSAGE_MEMORY + 1);
  });

  it("a call decided before its message's line gets the message's tokens from the call-message map", () => {
    const s = run([call("t1"), { kind: "usage", messageId: "m1", model: "a", tokens: tokens(3), toolUseIds: ["t1"] }]).state;
    expect(s.pending.t1!.tokens).toStrictEqual(tokens(3));
    const other = run([
      call("t1"),
      call("t2"),
      { kind: "usage", messageId: "m1", model: "a", tokens: tokens(3), toolUseIds: ["t1"] },
    ]).state;
    expect(other.pending.t2).not.toHaveProperty("tokens");
  });
});
