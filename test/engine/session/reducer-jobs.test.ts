import { describe, expect, it } from "vitest";
import type { ScopeEvent } from "../../../src/engine/session/scope-events.js";
import { applyEvents } from "../../../src/engine/session/scope-reducer.js";
import { callMessageOf } from "../../../src/engine/session/scope-usage.js";
import { newScope, type RanCallState, type ScopeState } from "../../../src/engine/session/state.js";

type Effect = RanCallState["effect"];
const BG: Effect = { kind: "exec", background: true };
const tokens = (input: number) => ({ input, output: 0, cacheCreation: 0, cacheRead: 0 });
const call = (id: string, tool: string, effect: Effect, over: Partial<Extract<ScopeEvent, { kind: "call" }>> = {}): ScopeEvent => ({
  kind: "call",
  decision: "observed",
  tool,
  digest: `d-${id}`,
  effect,
  toolUseId: id,
  ...over,
});
const result = (id: string, over: Partial<Extract<ScopeEvent, { kind: "result" }>> = {}): ScopeEvent => ({
  kind: "result",
  toolUseId: id,
  failed: false,
  bytes: 1,
  ...over,
});
const usage = (messageId: string, ids: string[], n = 1): ScopeEvent => ({
  kind: "usage",
  messageId,
  model: "m",
  tokens: tokens(n),
  toolUseIds: ids,
});
const run = (events: ScopeEvent[], from: ScopeState = newScope()) => applyEvents(from, events).state;
const launchBash = [call("t1", "Bash", BG), result("t1", { jobId: "bash_1" })];
const pendingOnly = (): ScopeState => ({
  ...newScope(),
  step: 1,
  pending: { a: { tool: "Read", digest: "d", effect: { kind: "neutral" }, at: 1 } },
});

describe("background jobs in the reducer", () => {
  it("keeps the job id only of a background launch that reports one", () => {
    expect(run(launchBash).history[0]).toMatchObject({ jobId: "bash_1", effect: BG });
    expect(run([call("t1", "Bash", { kind: "exec" }), result("t1", { jobId: "bash_1" })]).history[0]).not.toHaveProperty("jobId");
    expect(run([call("t1", "Bash", BG), result("t1")]).history[0]).not.toHaveProperty("jobId");
  });

  it("a poll that shows the job finished ends it; a poll that does not, or a failed one, does not", () => {
    const poll = (over: Partial<Extract<ScopeEvent, { kind: "result" }>>) =>
      run([...launchBash, call("t2", "BashOutput", { kind: "poll" }, { jobOf: "bash_1" }), result("t2", over)]).history;
    expect(poll({ finished: true })[0]!.effect).toStrictEqual({ kind: "exec" });
    expect(poll({})[0]!.effect).toStrictEqual(BG);
    expect(poll({ finished: true, failed: true })[0]!.effect).toStrictEqual(BG);
  });

  it("a stop of the job ends it when it ran, and a call that names no job ends nothing", () => {
    const stop = (over: Partial<Extract<ScopeEvent, { kind: "result" }>>, jobOf: string | null = "bash_1") =>
      run([...launchBash, call("t2", "KillShell", { kind: "exec" }, jobOf ? { jobOf } : {}), result("t2", over)]).history;
    expect(stop({})[0]!.effect).toStrictEqual({ kind: "exec" });
    expect(stop({ failed: true })[0]!.effect).toStrictEqual(BG);
    expect(stop({}, null)[0]!.effect).toStrictEqual(BG);
  });

  it("a job's end by its call's id turns a still-pending launch into a plain exec; by job id alone it leaves pending calls be", () => {
    const pending = [call("t1", "Bash", BG)];
    expect(run([...pending, { kind: "background_ended", toolUseId: "t1" }]).pending.t1!.effect).toStrictEqual({ kind: "exec" });
    expect(run([...pending, { kind: "background_ended", jobId: "t1" }]).pending.t1!.effect).toStrictEqual(BG);
    expect(
      run([call("t1", "Read", { kind: "read", paths: ["/a"] }), { kind: "background_ended", toolUseId: "t1" }]).pending.t1!.effect,
    ).toStrictEqual({ kind: "read", paths: ["/a"] });
    expect(run([...launchBash, { kind: "background_ended", jobId: "bash_1" }]).history[0]!.effect).toStrictEqual({ kind: "exec" });
  });
});

describe("a call's tokens", () => {
  it("a call decided after its message's line takes that message's tokens, and its outcome carries them", () => {
    const s = applyEvents(newScope(), [usage("m1", ["t1"], 5), call("t1", "Read", { kind: "neutral" }), result("t1")]);
    expect(s.outcomes[0]!.tokens).toStrictEqual(tokens(5));
    expect(run([usage("m1", ["t9"], 5), call("t1", "Read", { kind: "neutral" })]).pending.t1).not.toHaveProperty("tokens");
  });

  it("a call Claude Code denied keeps its message's tokens in its outcome (SPEC §8), and one made before any usage has none", () => {
    const denied: ScopeEvent = { kind: "denied", toolUseId: "t1" };
    const confirmed: ScopeEvent = { kind: "confirmed", messageId: "m2" };
    const known = applyEvents(newScope(), [usage("m1", ["t1"], 5), call("t1", "Read", { kind: "neutral" }), denied, confirmed]);
    expect(known.outcomes).toStrictEqual([
      { toolUseId: "t1", tool: "Read", step: 1, outcome: "denied", resultBytes: 0, tokens: tokens(5) },
    ]);
    const unknown = applyEvents(newScope(), [call("t1", "Read", { kind: "neutral" }), denied, { kind: "turn_end", subagent: false }]);
    expect(unknown.outcomes[0]).not.toHaveProperty("tokens");
  });

  it("a usage line naming a call that is not pending adds no pending call", () => {
    expect(run([usage("m1", ["t9"])]).pending).toStrictEqual({});
  });

  it("a later message never rewrites a pending call made by an earlier one", () => {
    const s = run([call("t2", "Read", { kind: "neutral" }), usage("m0", ["t2"], 2), usage("m1", ["t3"], 7)]);
    expect(s.pending.t2!.tokens).toStrictEqual(tokens(2));
  });

  it("callMessageOf is undefined before any line, and gives the model only when known", () => {
    expect(callMessageOf(newScope(), "t1")).toBeUndefined();
    expect(callMessageOf({ ...newScope(), callMessages: { t1: "m1" } }, "t1")).toBeUndefined();
    expect(callMessageOf({ ...newScope(), callMessages: { t1: "m1" }, messages: { m1: tokens(3) } }, "t1")).toStrictEqual({
      messageId: "m1",
      tokens: tokens(3),
    });
  });
});

describe("the reducer's result is a copy", () => {
  it("keeps the given state's messages, models, call messages and spend by model", () => {
    const before = run([call("t1", "Read", { kind: "neutral" }), usage("m1", ["t1"], 4)]);
    const after = run([{ kind: "usage", messageId: "m2", model: "other", tokens: tokens(1), toolUseIds: [] }], before);
    expect(after.messages).toMatchObject({ m1: tokens(4) });
    expect(after.messageModels).toMatchObject({ m1: "m" });
    expect(after.callMessages).toMatchObject({ t1: "m1" });
    expect(after.spend?.byModel.m).toStrictEqual(tokens(4));
  });
});

describe("steps without spend or ids", () => {
  it("a denial or a turn's end on a scope that has spent nothing leaves its spend absent", () => {
    expect(run([{ kind: "denied", toolUseId: "a" }], pendingOnly()).spend).toBeUndefined();
    expect(run([{ kind: "turn_end", subagent: false }], pendingOnly()).spend).toBeUndefined();
  });

  it("a call without an action sets none, and one without an id is never pending", () => {
    const s = run([{ kind: "call", decision: "observed", tool: "Read", digest: "d", effect: { kind: "neutral" } }]);
    expect(s).not.toHaveProperty("lastAction");
    expect(s.pending).toStrictEqual({});
    expect(s.step).toBe(1);
  });
});

describe("refunds", () => {
  it("a denied call never run is refunded at the turn's end, its outcome denied; one not denied is only taken off the count", () => {
    const denied = applyEvents(pendingOnly(), [
      { kind: "denied", toolUseId: "a" },
      { kind: "turn_end", subagent: false },
    ]);
    expect(denied.outcomes).toEqual([{ toolUseId: "a", tool: "Read", step: 1, outcome: "denied", resultBytes: 0 }]);
    expect(denied.state.step).toBe(0);
    expect(denied.state.spend).toBeUndefined();
    const notDenied = applyEvents(pendingOnly(), [{ kind: "turn_end", subagent: false }]);
    expect(notDenied.outcomes).toEqual([]);
    expect(notDenied.state.step).toBe(0);
  });

  it("a refund takes one tool call off the spend", () => {
    const s = run([
      call("t1", "Read", { kind: "neutral" }),
      result("t1"),
      call("t2", "Read", { kind: "neutral" }),
      call("t3", "Read", { kind: "neutral" }),
      { kind: "denied", toolUseId: "t3" },
      { kind: "turn_end", subagent: false },
    ]);
    expect(s.spend?.toolCalls).toBe(1); // t2 never came back, t3 was refused: only t1 ran
    expect(s.step).toBe(1);
  });

  it("a refused call's outcome names it by its own id, __proto__ included", () => {
    const r = applyEvents(newScope(), [
      call("__proto__", "Read", { kind: "neutral" }),
      { kind: "denied", toolUseId: "__proto__" },
      { kind: "turn_end", subagent: false },
    ]);
    expect(r.outcomes.map((o) => o.toolUseId)).toEqual(["__proto__"]);
  });

  it("a job's end by job id alone leaves a pending launch be, even one whose id is spelled undefined", () => {
    const s = run([call("undefined", "Bash", BG), { kind: "background_ended", jobId: "bash_1" }]);
    expect(s.pending.undefined!.effect).toEqual(BG);
  });

  it("a job's end naming a pending call that launched no job leaves it as it is", () => {
    const s = run([call("t1", "Read", { kind: "neutral" }), { kind: "background_ended", toolUseId: "t1" }]);
    expect(s.pending.t1!.effect).toEqual({ kind: "neutral" });
  });
});
