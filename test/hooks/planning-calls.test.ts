/**
 * Planning calls in PreToolUse (SPEC §12, issue 31 hole 8): answered at once,
 * the state never read, where no budget can bind; past a spent budget (here a
 * gated task's steps) decided by the wind-down rules without waiting for
 * their own line: a few go on, the next is refused and logged.
 */
import { describe, expect, it } from "vitest";
import { PLANNING_CALLS_PAST_BUDGET } from "../../src/engine/defaults.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import type { SessionState } from "../../src/engine/session/state.js";
import { denyReason, fakeContext, preInput, seedMainGate, source } from "./fake-context.js";
import { MemoryStateStore } from "../support/memory-store.js";

class CountingStore extends MemoryStateStore {
  reads = 0;
  override read(sessionId: string): SessionState | undefined {
    this.reads += 1;
    return super.read(sessionId);
  }
}

describe("planning calls in PreToolUse", () => {
  it("with no budget and no gate, are answered at once: one look at the state (cached in the server), nothing written, waited for or logged", async () => {
    const store = new CountingStore();
    const ctx = fakeContext(store);
    for (const tool of ["TodoWrite", "ToolSearch", "TaskCreate"]) expect(await preToolUse(preInput(tool, { q: 1 }), ctx)).toEqual({});
    expect(store.reads).toBe(3);
    expect(store.read("no-such-session")).toBeUndefined();
    expect(ctx.state()).toBeUndefined();
    expect(ctx.waits).toEqual([]);
    expect(ctx.records).toEqual([]);
  });

  it(`past a gated task's spent steps, ${PLANNING_CALLS_PAST_BUDGET} go on, a repeat and the next are refused; each reads up to its own line (a call refused before it may give a step back)`, async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source("/skills/gated/SKILL.md", { config: { maxSteps: 2 } }), (s) => void (s.main.step = 2));
    const search = (query: string) => preToolUse(preInput("ToolSearch", { query }), ctx);
    for (let i = 0; i < PLANNING_CALLS_PAST_BUDGET; i++) expect(denyReason(await search(`select:T${i}`))).toBeUndefined();
    expect(ctx.state()!.main.windDown).toHaveLength(PLANNING_CALLS_PAST_BUDGET);
    expect(denyReason(await search("select:T0"))).toContain("this ToolSearch call repeats one made since it was spent");
    expect(denyReason(await search("select:Other"))).toContain(
      `The step budget is spent: 2 of 2 steps taken. Respond with what you have, or stop. Past it, at most ${PLANNING_CALLS_PAST_BUDGET} planning calls go on`,
    );
    expect(ctx.records.map((r) => [r.tool, r.decision, r.rule])).toEqual([
      ["ToolSearch", "refused", "budget_spent"],
      ["ToolSearch", "refused", "budget_spent"],
    ]);
    expect(ctx.waits).toHaveLength(PLANNING_CALLS_PAST_BUDGET + 2);
  });

  it("under the same gate with steps left, never refused, never logged, never waiting", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source("/skills/gated/SKILL.md", { config: { maxSteps: 2 } }));
    for (let i = 0; i < 6; i++) expect(await preToolUse(preInput("TodoWrite", { todos: [] }), ctx)).toEqual({});
    expect(ctx.records).toEqual([]);
    expect(ctx.waits).toEqual([]);
    expect(ctx.state()!.main.windDown).toBeUndefined();
  });
});
