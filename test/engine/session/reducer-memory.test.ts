// The scope reducer's memories of messages (src/engine/session/scope-usage.ts, `usage`): each
// message counted once however many lines repeat it, the newest kept, a repeated line copying
// nothing (issue 23: copying the memories was replay's cost); ids that a plain object cannot
// hold as keys; a transient fold changing the given state in place.
import { describe, expect, it } from "vitest";
import type { ScopeEvent } from "../../../src/engine/session/scope-events.js";
import { applyEvents } from "../../../src/engine/session/scope-reducer.js";
import { callMessageOf, MESSAGE_MEMORY } from "../../../src/engine/session/scope-usage.js";
import { newScope, ScopeStateSchema, type ScopeState } from "../../../src/engine/session/state.js";

const tokens = (input: number, output = 0, cacheCreation = 0, cacheRead = 0) => ({ input, output, cacheCreation, cacheRead });
const usage = (messageId: string, n: number, ids: string[] = [], model = "claude-opus-4-5"): ScopeEvent => ({
  kind: "usage",
  messageId,
  model,
  tokens: tokens(n),
  toolUseIds: ids,
});
const call = (id: string): ScopeEvent => ({
  kind: "call",
  decision: "observed",
  tool: "Read",
  digest: `d-${id}`,
  effect: { kind: "neutral" },
  toolUseId: id,
});
const run = (events: ScopeEvent[], from: ScopeState = newScope()) => applyEvents(from, events);

describe("each message is counted once, while it is remembered", () => {
  it("a message seen again becomes the newest: it outlives the next MESSAGE_MEMORY - 1 messages", () => {
    const events: ScopeEvent[] = [usage("m0", 10)];
    for (let i = 1; i < MESSAGE_MEMORY; i++) events.push(usage(`m${i}`, 1));
    // m0 again, unchanged (a later line of the same message), then one more message: m1 is the oldest now.
    events.push(usage("m0", 10), usage("new", 1), usage("m0", 10));
    const s = run(events).state;
    expect(s.spend?.tokens.input).toBe(10 + (MESSAGE_MEMORY - 1) + 1);
    expect(s.messages).toHaveProperty("m0");
    expect(s.messages).not.toHaveProperty("m1");
  });

  it("a message's model is the one its newest line names", () => {
    const s = run([usage("m1", 1, ["t1"], "claude-haiku-4-5"), usage("m1", 1, [], "claude-opus-4-5")]).state;
    expect(callMessageOf(s, "t1")?.model).toBe("claude-opus-4-5");
  });

  it("a call is made by the newest message that names it", () => {
    const s = run([usage("m1", 1, ["t1"]), usage("m2", 2, ["t1"])]).state;
    expect(callMessageOf(s, "t1")).toMatchObject({ messageId: "m2", tokens: tokens(2) });
  });

  it("a message naming calls again takes each of them, though another message named one first", () => {
    const s = run([usage("m1", 1, ["t1"]), usage("m2", 2, ["t2"]), usage("m2", 2, ["t1", "t2"])]).state;
    expect(callMessageOf(s, "t1")?.messageId).toBe("m2");
    expect(callMessageOf(s, "t2")?.messageId).toBe("m2");
  });

  it("an empty id and __proto__ are two messages; a call no message named has none, whatever ids are remembered", () => {
    const s = run([usage("", 3), usage("__proto__", 5), usage("undefined", 7)]).state;
    expect(s.spend?.tokens.input).toBe(15);
    expect(callMessageOf(s, "t1")).toBeUndefined();
  });

  it("the call-message memory keeps the newest ids: an id named again outlives those named after it first", () => {
    const keep = 4 * MESSAGE_MEMORY;
    const events: ScopeEvent[] = [usage("m0", 1, ["t0"])];
    for (let i = 1; i < keep; i++) events.push(usage(`m${i % 8}`, 1, [`t${i}`]));
    // t0 named again by its own message, then one new id: t1 is the one forgotten.
    events.push(usage("m0", 1, ["t0"]), usage("m9", 1, ["fresh"]));
    const s = run(events).state;
    expect(s.callMessages).toHaveProperty("t0");
    expect(s.callMessages).not.toHaveProperty("t1");
    expect(Object.keys(s.callMessages!)).toHaveLength(keep);
  });
});

describe("a line that tells nothing new copies nothing", () => {
  it("the repeated newest line of a message leaves every memory shared with the given state", () => {
    const before = run([call("t1"), call("t2"), usage("m1", 5, ["t1", "t2"])]).state;
    const after = run([usage("m1", 5, ["t1", "t2"])], before).state;
    expect(after.messages).toBe(before.messages);
    expect(after.messageModels).toBe(before.messageModels);
    expect(after.callMessages).toBe(before.callMessages);
    expect(after.pending).toBe(before.pending);
    expect(after.history).toBe(before.history);
    expect(after.spend).toEqual(before.spend);
  });

  it("a line with larger counts, another model or another call changes that memory only", () => {
    const before = run([call("t1"), usage("m1", 5, ["t1"])]).state;
    const grown = run([usage("m1", 6, ["t1"])], before).state;
    expect(grown.messages).not.toBe(before.messages);
    expect(grown.messages?.m1).toEqual(tokens(6));
    expect(grown.pending.t1?.tokens).toEqual(tokens(6));
    expect(grown.messageModels).toBe(before.messageModels);
    expect(grown.callMessages).toBe(before.callMessages);
    const model = run([usage("m1", 5, ["t1"], "claude-haiku-4-5")], before).state;
    expect(model.messageModels).not.toBe(before.messageModels);
    expect(model.messages).toBe(before.messages);
    const named = run([usage("m1", 5, ["t1", "t2"])], before).state;
    expect(named.callMessages).not.toBe(before.callMessages);
    expect(named.callMessages).toMatchObject({ t1: "m1", t2: "m1" });
  });

  it("each of the four counts growing is news", () => {
    const before = run([usage("m1", 5)]).state;
    for (const grown of [tokens(5, 1), tokens(5, 0, 1), tokens(5, 0, 0, 1)]) {
      const after = run([{ kind: "usage", messageId: "m1", model: "claude-opus-4-5", tokens: grown, toolUseIds: [] }], before).state;
      expect(after.messages?.m1).toEqual(grown);
      expect(after.spend?.tokens).toEqual(grown);
    }
  });
});

describe("ids a plain object cannot hold as keys", () => {
  it("a call with the id __proto__ is pending, then ran, like any other", () => {
    const r = run([
      usage("__proto__", 3, ["__proto__"]),
      call("__proto__"),
      { kind: "result", toolUseId: "__proto__", failed: false, bytes: 2 },
    ]);
    expect(r.outcomes).toEqual([{ toolUseId: "__proto__", tool: "Read", step: 1, outcome: "ran", resultBytes: 2, tokens: tokens(3) }]);
    expect(r.state.history.map((c) => c.toolUseId)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(r.state.pending)).toBe(Object.prototype);
    expect(callMessageOf(r.state, "__proto__")).toMatchObject({ messageId: "__proto__", tokens: tokens(3) });
  });

  it("a state read back with an own __proto__ key keeps it when a copy of that map is changed", () => {
    const read = ScopeStateSchema.parse(newScope()) as ScopeState;
    const withKey = JSON.parse(
      JSON.stringify({ ...read, pending: {} }).replace(
        '"pending":{}',
        '"pending":{"__proto__":{"tool":"Read","digest":"d","effect":{"kind":"neutral"},"at":1}}',
      ),
    ) as ScopeState;
    expect(Object.keys(withKey.pending)).toEqual(["__proto__"]);
    const after = run([call("t2")], withKey).state;
    expect(Object.keys(after.pending)).toEqual(["__proto__", "t2"]);
    expect(Object.getPrototypeOf(after.pending)).toBe(Object.prototype);
  });
});

describe("a transient fold", () => {
  it("changes the given state in place and returns it", () => {
    const given = run([call("t1")]).state;
    const pending = given.pending;
    const r = applyEvents(given, [call("t2"), usage("m1", 4, ["t2"])], true);
    expect(r.state).toBe(given);
    expect(r.state.pending).toBe(pending);
    expect(Object.keys(pending)).toEqual(["t1", "t2"]);
  });
});
