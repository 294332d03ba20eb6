/**
 * The Stop and SubagentStop handlers (SPEC §6, last point): in a gated scope,
 * block a stop once when the last report selected an action never taken.
 */
import { describe, expect, it } from "vitest";
import { stopHook, untakenAction } from "../../src/hooks/stop.js";
import { MemoryStateStore } from "../support/memory-store.js";
import { draftSession, fakeContext, GOOD, NO_TRANSCRIPT, report, SESSION, seedMainGate, source } from "./fake-context.js";

const stopInput = (last: unknown, over: Record<string, unknown> = {}) => ({
  session_id: SESSION,
  transcript_path: NO_TRANSCRIPT,
  hook_event_name: "Stop",
  stop_hook_active: false,
  last_assistant_message: last,
  ...over,
});

describe("untakenAction (pure)", () => {
  it("finds a report selecting an action that takes a call", () => {
    expect(untakenAction(`${report("verify", "0.28", GOOD)}\n\nNext I run it.`)).toEqual({ action: "verify", utility: 0.28 });
    expect(untakenAction({ content: [{ type: "text", text: report("retrieve", "0.28", GOOD) }] })).toEqual({
      action: "retrieve",
      utility: 0.28,
    });
  });
  it("ignores ending actions, no report and malformed reports", () => {
    expect(untakenAction(report("respond", "0.28", GOOD))).toBeUndefined();
    expect(untakenAction(report("stop", "0.28", GOOD))).toBeUndefined();
    expect(untakenAction("The answer is 42.")).toBeUndefined();
    expect(untakenAction(report("verify", "0.28", "Gain=2"))).toBeUndefined();
    expect(untakenAction(undefined)).toBeUndefined();
  });
});

describe("the Stop hook", () => {
  it("blocks once in a gated scope, with the reason, and logs it", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source("/s/SKILL.md"));
    const last = `${report("verify", "0.28", GOOD)}\nI will run the test.`;
    const first = await stopHook(stopInput(last), ctx, "Stop");
    expect(first.output).toEqual({
      decision: "block",
      reason:
        "utility gate: your last report selected verify (Utility 0.28) but no call was made. Take that action now, or write a new report that selects respond or stop.",
    });
    expect(await stopHook(stopInput(last), ctx, "Stop")).toEqual({}); // the scope remembers
    expect(ctx.records.map((r) => [r.event, r.decision, r.gated])).toEqual([
      ["Stop", "blocked", true],
      ["Stop", "observed", true],
    ]);
  });

  it("never blocks when Claude Code says the stop hook is already active", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source("/s/SKILL.md"));
    expect(await stopHook(stopInput(report("verify", "0.28", GOOD), { stop_hook_active: true }), ctx, "Stop")).toEqual({});
  });

  it("never blocks an ungated scope or a final answer", async () => {
    const ctx = fakeContext();
    expect(await stopHook(stopInput(report("verify", "0.28", GOOD)), ctx, "Stop")).toEqual({});
    seedMainGate(ctx, source("/s/SKILL.md"));
    expect(await stopHook(stopInput(`${report("respond", "0.28", GOOD)}\nThe cause is X.`), ctx, "Stop")).toEqual({});
  });

  it("waits for the final message first when a skill may just have been activated, or the scope is gated", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source("/s/SKILL.md"), (s) => void (s.main.awaitingActivation = true));
    await stopHook(stopInput("Final."), ctx, "Stop");
    expect(ctx.finals).toEqual(["Final."]);
    expect(ctx.state()!.main.awaitingActivation).toBeUndefined();
    await stopHook(stopInput("Final again."), ctx, "Stop");
    expect(ctx.finals).toEqual(["Final.", "Final again."]);
  });

  it("waits in an ungated scope too, so the last reply is counted now, but reads no report from it", async () => {
    const ctx = fakeContext();
    let read = 0;
    ctx.readFinal = () => {
      read++;
      return undefined;
    };
    expect(await stopHook(stopInput("Final."), ctx, "Stop")).toEqual({});
    expect(ctx.finals).toEqual(["Final."]);
    expect(read).toBe(0);
  });

  it("does not wait when there is nothing to wait for: an empty message, or a stop already blocked once", async () => {
    const ctx = fakeContext();
    await stopHook(stopInput(""), ctx, "Stop");
    await stopHook(stopInput("Final.", { stop_hook_active: true }), ctx, "Stop");
    expect(ctx.finals).toEqual([]);
  });

  it("reads every text block of the final message from the transcript, not only the last one it is handed", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source("/s/SKILL.md"));
    ctx.readFinal = () => [report("verify", "0.28", GOOD), "Next I run it."];
    const out = await stopHook(stopInput("Next I run it."), ctx, "Stop");
    expect(out.output).toMatchObject({ decision: "block", reason: expect.stringContaining("selected verify") });
    ctx.readFinal = () => undefined;
    expect(await stopHook(stopInput("Next I run it.", { stop_hook_active: true }), ctx, "Stop")).toEqual({});
  });

  it("logs the final message's report, as PreToolUse records log theirs; none when it has none or it does not parse", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source("/s/SKILL.md"));
    await stopHook(stopInput(`${report("respond", "0.28", GOOD, "done")}\n\nThe cause is X.`), ctx, "Stop");
    await stopHook(stopInput("The answer is 42."), ctx, "Stop");
    await stopHook(stopInput(report("stop", "0.28", "Gain=2")), ctx, "Stop");
    expect(ctx.records.map((r) => r.report)).toEqual([
      { action: "respond", utility: 0.28, gain: 0.7, stepCost: 0.12, uncertainty: 0.6, redundancy: 0, rationale: "done" },
      undefined,
      undefined,
    ]);
    const ungated = fakeContext();
    await stopHook(stopInput(report("stop", "0.28", GOOD)), ungated, "Stop");
    expect(ungated.records.map((r) => [r.gated, r.report?.action])).toEqual([[false, "stop"]]);
  });

  it("SubagentStop ends a subagent's scope; a gated one blocks once too", async () => {
    const store = new MemoryStateStore();
    const ctx = fakeContext(store);
    const session = draftSession();
    session.agents.a1 = { ...session.main, definition: source("/agents/h.md"), agentType: "p:h" };
    store.states.set(SESSION, session);
    const input = stopInput(report("verify", "0.28", GOOD), { agent_id: "a1", agent_type: "p:h", hook_event_name: "SubagentStop" });
    expect((await stopHook(input, ctx, "SubagentStop")).output).toMatchObject({ decision: "block" });
    expect(await stopHook({ ...input, stop_hook_active: true }, ctx, "SubagentStop")).toEqual({});
    expect(ctx.state()!.agents.a1).toMatchObject({ ended: true, history: [], pending: {} });
    expect(ctx.records.map((r) => [r.event, r.scope, r.agentId, r.decision])).toEqual([
      ["SubagentStop", "subagent", "a1", "blocked"],
      ["SubagentStop", "subagent", "a1", "observed"],
    ]);
  });

  it("a compaction's SubagentStop (no type, an agent that never started: 2.1.328's /compact) makes no subagent, no record", async () => {
    const store = new MemoryStateStore();
    const ctx = fakeContext(store);
    store.states.set(SESSION, draftSession());
    const compaction = stopInput("<summary>…</summary>", { agent_id: "a6d1adb1709d20937", hook_event_name: "SubagentStop" });
    expect(await stopHook(compaction, ctx, "SubagentStop")).toEqual({});
    expect(await stopHook({ ...compaction, agent_type: "" }, ctx, "SubagentStop")).toEqual({});
    expect(Object.keys(ctx.state()!.agents)).toEqual([]);
    expect(ctx.records).toEqual([]);
    // An agent that started is a subagent whatever its type says; so is one with a type.
    const started = draftSession();
    started.agents.a1 = { ...started.main };
    store.states.set(SESSION, started);
    await stopHook({ ...compaction, agent_id: "a1" }, ctx, "SubagentStop");
    await stopHook({ ...compaction, agent_id: "a2", agent_type: "general-purpose" }, ctx, "SubagentStop");
    expect(ctx.records.map((r) => [r.event, r.agentId])).toEqual([
      ["SubagentStop", "a1"],
      ["SubagentStop", "a2"],
    ]);
    expect(Object.keys(ctx.state()!.agents).sort()).toEqual(["a1", "a2"]);
  });
});
