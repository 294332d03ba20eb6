/**
 * SubagentStart (SPEC §12): a subagent starts, whichever tool started it.
 * Agent budgets count what starts: a subagent that started past its task's
 * `maxAgents` has every call refused. A gated main scope's frontmatter
 * budgets bind the subagents its task launched. The handlers in process.
 */
import { describe, expect, it } from "vitest";
import { zeroSpend } from "../../src/engine/spend.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { subagentStart } from "../../src/hooks/subagent-start.js";
import { denyReason, draftSession, fakeContext, NO_TRANSCRIPT, preInput, SESSION, source, type FakeContext } from "./fake-context.js";
import type { MemoryStateStore } from "../support/memory-store.js";

const start = (ctx: FakeContext, id: string, type = "general-purpose") =>
  subagentStart(
    { session_id: SESSION, transcript_path: NO_TRANSCRIPT, hook_event_name: "SubagentStart", agent_id: id, agent_type: type },
    ctx,
  );
const subCall = (ctx: FakeContext, id: string, tool = "Read") =>
  preToolUse(
    preInput(tool, tool === "Read" ? { file_path: `/x/${id}` } : { command: "true" }, { agent: { id, type: "general-purpose" } }),
    ctx,
  );

describe("SubagentStart", () => {
  it("starts the subagent's scope in the main scope's task, numbered in order, with its definition; logs its start", async () => {
    const ctx = fakeContext();
    ctx.agents.set("p:gated", source("/agents/gated.md"));
    expect(await start(ctx, "a1")).toEqual({});
    expect(await start(ctx, "a2", "p:gated")).toEqual({});
    const state = ctx.state()!;
    expect(state.agents.a1).toMatchObject({ rootTask: 1, ordinal: 1, agentType: "general-purpose", step: 0 });
    expect(state.agents.a1!.definition).toBeUndefined();
    expect(state.agents.a2).toMatchObject({ rootTask: 1, ordinal: 2, agentType: "p:gated", definition: { file: "/agents/gated.md" } });
    expect(ctx.records.map((r) => [r.event, r.decision, r.agentId, r.agentType, r.scope, r.gated])).toEqual([
      ["SubagentStart", "observed", "a1", "general-purpose", "subagent", false],
      ["SubagentStart", "observed", "a2", "p:gated", "subagent", true],
    ]);
  });

  it("is idempotent: a second start of the same subagent (or its first call before it) changes nothing", async () => {
    const ctx = fakeContext();
    await subCall(ctx, "a1");
    const before = ctx.state()!.agents.a1;
    await start(ctx, "a1");
    expect(ctx.state()!.agents.a1).toEqual(before);
    expect(Object.keys(ctx.state()!.agents)).toEqual(["a1"]);
  });
});

describe("agent budgets count the subagents that start", () => {
  it("one that started past the user's max_agents has every call refused, even in an ungated scope; those within go on", async () => {
    const ctx = fakeContext();
    ctx.env.CLAUDE_PLUGIN_OPTION_MAX_AGENTS = "1";
    await start(ctx, "a1");
    await start(ctx, "a2");
    expect(denyReason(await subCall(ctx, "a1"))).toBeUndefined();
    for (const tool of ["Read", "Bash"]) {
      const reason = denyReason(await subCall(ctx, "a2", tool));
      expect(reason).toBe(
        "utility: This subagent is number 2 of its task, which may launch 1 (your max_agents setting): it started past the limit, so none of its tool calls may run. Respond with what you know, or stop.",
      );
    }
    expect(ctx.records.filter((r) => r.agentId === "a2" && r.event === "PreToolUse").map((r) => r.rule)).toEqual([
      "agents_exhausted",
      "agents_exhausted",
    ]);
  });

  it("the main scope's own launches count too: a task that launched its maximum refuses the next launch", async () => {
    const ctx = fakeContext();
    ctx.env.CLAUDE_PLUGIN_OPTION_MAX_AGENTS = "1";
    await start(ctx, "a1");
    const reason = denyReason(await preToolUse(preInput("Agent", { subagent_type: "x", prompt: "p" }), ctx));
    expect(reason).toContain("This task may launch 1 subagent (your max_agents setting) and has launched 1");
  });
});

describe("a gated main scope's frontmatter budgets bind its subagents", () => {
  /** A session whose main scope's task spent 150 input tokens, gated (or not) by a skill with a 100-token budget. */
  function seeded(ctx: FakeContext, gated: boolean): void {
    const session = draftSession();
    session.main.sources.push({ ...source("/s/SKILL.md", { gated }), budgets: { tokenBudget: 100 } });
    session.main.spend = { ...zeroSpend(), tokens: { input: 150, output: 0, cacheCreation: 0, cacheRead: 0 } };
    (ctx.store as MemoryStateStore).states.set(SESSION, session);
  }

  it("an ungated subagent of that task is refused once the task's tokens reach the skill's budget", async () => {
    const ctx = fakeContext();
    seeded(ctx, true);
    await start(ctx, "a1");
    const reason = denyReason(await subCall(ctx, "a1"));
    expect(reason).toContain("This task's token budget is spent: 150 tokens of 100");
  });

  it("not when the skill does not gate (its budgets apply while the scope is gated)", async () => {
    const ctx = fakeContext();
    seeded(ctx, false);
    await start(ctx, "a1");
    expect(denyReason(await subCall(ctx, "a1"))).toBeUndefined();
  });
});
