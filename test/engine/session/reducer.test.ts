import { describe, expect, it } from "vitest";
import { decideCall } from "../../../src/engine/session/decide.js";
import type { ScopeEvent } from "../../../src/engine/session/scope-events.js";
import { ScopeEventSchema } from "../../../src/engine/session/scope-events.js";
import { HISTORY_LIMIT, applyEvents } from "../../../src/engine/session/scope-reducer.js";
import { rootTaskSpend } from "../../../src/engine/session/scope-usage.js";
import { newScope, ScopeStateSchema, type ScopeState } from "../../../src/engine/session/state.js";
import { effectOf, inputDigest } from "../../../src/engine/redundancy.js";

const READ_A = { file_path: "/repo/a.ts" };

function callEvent(
  id: string,
  tool = "Read",
  input: unknown = READ_A,
  decision: "passed" | "observed" | "refused" = "observed",
  startedAt?: number,
): ScopeEvent {
  return {
    kind: "call",
    decision,
    tool,
    digest: inputDigest(input),
    effect: effectOf(tool, input),
    toolUseId: id,
    ...(startedAt !== undefined ? { startedAt } : {}),
  };
}
const result = (id: string, failed = false, bytes = 10, endedAt?: number): ScopeEvent => ({
  kind: "result",
  toolUseId: id,
  failed,
  bytes,
  ...(endedAt !== undefined ? { endedAt } : {}),
});
const tokens = (input: number, output: number, cacheCreation = 0, cacheRead = 0) => ({ input, output, cacheCreation, cacheRead });
const run = (events: ScopeEvent[], from: ScopeState = newScope()) => applyEvents(from, events);

/** Decides a call against the state, as the hooks and replay do, and feeds the decision back. */
function decideAndFeed(state: ScopeState, id: string, tool: string, input: unknown) {
  const decided = decideCall(state, "self", undefined, { tool, input, toolUseId: id });
  return { decided, state: applyEvents(state, [decided.event]).state };
}

describe("the scope reducer", () => {
  it("starts a task only at a typed prompt (a notification or a wakeup is no task)", () => {
    const s = run([callEvent("t1"), result("t1"), { kind: "prompt", typed: false }]).state;
    expect(s).toMatchObject({ task: 1, step: 1 });
    const next = run([{ kind: "prompt", typed: true }], s).state;
    expect(next).toMatchObject({ task: 2, step: 0, refusals: 0, pending: {} });
    expect(next.history).toHaveLength(1); // repeats are per compaction, not per task
  });

  it("counts a let-through call as a step, pending until its result, then remembered with its outcome", () => {
    const { state, outcomes } = run([
      callEvent("t1", "Read", READ_A, "observed", 1000),
      { kind: "usage", messageId: "m1", model: "claude-x", tokens: tokens(3, 7), toolUseIds: ["t1"] },
      result("t1", false, 42, 1250),
    ]);
    expect(state.step).toBe(1);
    expect(state.pending).toEqual({});
    expect(state.history).toEqual([
      { tool: "Read", digest: inputDigest(READ_A), effect: { kind: "read", paths: ["/repo/a.ts"] }, at: 1, task: 1, toolUseId: "t1" },
    ]);
    expect(outcomes).toEqual([
      { toolUseId: "t1", tool: "Read", step: 1, outcome: "ran", resultBytes: 42, durationMs: 250, tokens: tokens(3, 7) },
    ]);
  });

  it("learns each outcome once, and never for a call it does not know", () => {
    const { outcomes, state } = run([callEvent("t1"), result("t1", true), result("t1"), result("unknown"), result("constructor")]);
    expect(outcomes.map((o) => o.outcome)).toEqual(["failed"]);
    expect(state.history).toMatchObject([{ toolUseId: "t1", failed: true }]);
  });

  it("a call Claude Code refused after the gate let it through never ran: no step, not remembered, its outcome says so", () => {
    const { state, outcomes } = run([
      callEvent("t1", "Write", { file_path: "/x", content: "y" }),
      { kind: "denied", toolUseId: "t1" },
      { kind: "turn_end", subagent: false },
    ]);
    expect(state).toMatchObject({ step: 0, pending: {}, history: [] });
    expect(state.spend!.toolCalls).toBe(0);
    expect(outcomes).toMatchObject([{ toolUseId: "t1", outcome: "denied", step: 1 }]);
  });

  it("a refused call is no step and never pending", () => {
    const s = run([callEvent("t1", "Bash", { command: "ls" }, "refused")]).state;
    expect(s).toMatchObject({ step: 0, refusals: 1, pending: {} });
  });

  it("keeps at most HISTORY_LIMIT calls, the newest", () => {
    const events: ScopeEvent[] = [];
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) events.push(callEvent(`t${i}`, "Read", { file_path: `/f${i}` }), result(`t${i}`));
    const s = run(events).state;
    expect(s.history).toHaveLength(HISTORY_LIMIT);
    expect(s.history[0]!.toolUseId).toBe("t5");
  });

  it("a compaction forgets what ran: nothing before it is a repeat", () => {
    let s = run([callEvent("t1"), result("t1")]).state;
    expect(decideCall(s, "self", undefined, { tool: "Read", input: READ_A }).repeat).toBeDefined();
    s = run([{ kind: "compact" }], s).state;
    expect(decideCall(s, "self", undefined, { tool: "Read", input: READ_A }).repeat).toBeUndefined();
  });

  it("a call whose result is not known yet counts as in between: no repeat can be proved past it", () => {
    let s = run([callEvent("t1"), result("t1")]).state;
    s = decideAndFeed(s, "b1", "Bash", { command: "make" }).state; // still pending
    expect(decideCall(s, "self", undefined, { tool: "Read", input: READ_A }).repeat).toBeUndefined();
  });

  it("a background job blocks every repeat until its end is recorded, then only counts where it stands", () => {
    let s = run([callEvent("bg", "Bash", { command: "sleep 9", run_in_background: true }), result("bg")]).state;
    s = run([callEvent("t1"), result("t1")], s).state;
    expect(decideCall(s, "self", undefined, { tool: "Read", input: READ_A }).repeat).toBeUndefined();
    s = run([{ kind: "background_ended", toolUseId: "bg" }], s).state;
    // t1 ran while the job was still running, so the job is in between it and now (engine/background.ts) ...
    expect(decideCall(s, "self", undefined, { tool: "Read", input: READ_A }).repeat).toBeUndefined();
    // ... but a read after the job's end is the original of a repeat: the job blocks no more.
    s = run([callEvent("t2"), result("t2")], s).state;
    expect(decideCall(s, "self", undefined, { tool: "Read", input: READ_A }).repeat?.toolUseId).toBe("t2");
    // Still a shell in between for a call before it.
    const before = run([
      callEvent("t0", "Read", { file_path: "/b" }),
      result("t0"),
      callEvent("bg2", "Bash", { command: "x", run_in_background: true }),
      result("bg2"),
      { kind: "background_ended", toolUseId: "bg2" },
    ]).state;
    expect(decideCall(before, "self", undefined, { tool: "Read", input: { file_path: "/b" } }).repeat).toBeUndefined();
  });

  it("counts a message spanning several lines once, at its largest counts, by model", () => {
    const { state } = run([
      { kind: "usage", messageId: "m1", model: "claude-a", tokens: tokens(3, 8, 100, 50), toolUseIds: [] },
      { kind: "usage", messageId: "m1", model: "claude-a", tokens: tokens(3, 322, 100, 50), toolUseIds: [] },
      { kind: "usage", messageId: "m1", model: "claude-a", tokens: tokens(3, 30, 100, 50), toolUseIds: [] },
      { kind: "usage", messageId: "m2", model: "claude-b", tokens: tokens(1, 1), toolUseIds: [] },
    ]);
    expect(state.spend!.tokens).toEqual(tokens(4, 323, 100, 50));
    expect(state.spend!.byModel).toEqual({ "claude-a": tokens(3, 322, 100, 50), "claude-b": tokens(1, 1) });
  });

  it("counts tool calls and agents launched; a new task starts its spend over", () => {
    const s = run([callEvent("a1", "Agent", { prompt: "x" }), callEvent("a2", "Agent", { prompt: "y" }), callEvent("r1")]).state;
    expect(s.spend).toMatchObject({ toolCalls: 3, agentsLaunched: 2 });
    expect(run([{ kind: "prompt", typed: true }], s).state.spend).toBeUndefined();
  });

  it("at the end of a turn, calls let through that never ran are no steps; a subagent's scope ends", () => {
    const s = run([callEvent("t1"), result("t1"), callEvent("t2", "Bash", { command: "ls" })]).state;
    expect(run([{ kind: "turn_end", subagent: false }], s).state).toMatchObject({ step: 1, pending: {} });
    expect(run([{ kind: "turn_end", subagent: true }], s).state).toMatchObject({ step: 1, ended: true, history: [] });
  });

  it("never changes the state it is given, and its result is a valid state", () => {
    const before = run([callEvent("t1"), { kind: "usage", messageId: "m", model: "x", tokens: tokens(1, 1), toolUseIds: ["t1"] }]).state;
    const copy = JSON.parse(JSON.stringify(before));
    const after = run(
      [result("t1"), { kind: "usage", messageId: "m", model: "x", tokens: tokens(1, 5), toolUseIds: [] }, { kind: "prompt", typed: true }],
      before,
    ).state;
    expect(before).toEqual(copy);
    expect(ScopeStateSchema.safeParse(after).success).toBe(true);
  });

  it("every event it handles is one the schema accepts", () => {
    for (const e of [
      callEvent("t"),
      result("t"),
      { kind: "compact" },
      { kind: "background_ended", toolUseId: "t" },
      { kind: "turn_end", subagent: true },
      { kind: "subagent_started", rootTask: 2 },
    ]) {
      expect(ScopeEventSchema.safeParse(e).success).toBe(true);
    }
    expect(ScopeEventSchema.safeParse({ kind: "prompt" }).success).toBe(false);
  });
});

describe("rootTaskSpend", () => {
  it("adds every subagent launched in the main scope's current task, nested ones included", () => {
    const main = run([{ kind: "usage", messageId: "m", model: "x", tokens: tokens(10, 1), toolUseIds: [] }]).state;
    const agent = (rootTask: number, t: number) =>
      run([
        { kind: "subagent_started", rootTask },
        { kind: "usage", messageId: `a${t}`, model: "x", tokens: tokens(t, 0), toolUseIds: [] },
      ]).state;
    const total = rootTaskSpend(main, [agent(1, 5), agent(1, 7), agent(0, 100)]);
    expect(total.tokens).toEqual(tokens(22, 1));
  });
});
