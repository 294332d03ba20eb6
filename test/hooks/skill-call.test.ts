/** PreToolUse on Skill calls (src/hooks/skill-call.ts): judged by what the skill does in a gated scope, never refused in an ungated one. */
import { describe, expect, it } from "vitest";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { denyReason, fakeContext, GOOD, preInput, report, seedMainGate, SESSION, source } from "./fake-context.js";
import type { MemoryStateStore } from "../support/memory-store.js";
import { newSession } from "../../src/engine/session/state.js";

const SKILL = "/skills/gated/SKILL.md";
const SHELL = { class: "tool_call" as const, why: 'skill "sh" runs shell commands when it loads (/p/sh/SKILL.md)' };
const FORK = { class: "delegate" as const, why: 'skill "fk" runs in a forked subagent when it loads' };
const UNKNOWN = {
  class: "unknown" as const,
  why: 'no skill file or built-in skill named "ghost" was found, so what it runs cannot be read',
};

function gated() {
  const ctx = fakeContext();
  seedMainGate(ctx, source(SKILL));
  ctx.skillVerdicts.set("sh", SHELL).set("fk", FORK).set("ghost", UNKNOWN);
  return ctx;
}

describe("a Skill call in a gated scope", () => {
  it("whose skill runs shell needs a report: refused without one, passed under tool_call, one step, and its skill awaited", async () => {
    const ctx = gated();
    const bare = preInput("Skill", { skill: "sh", args: "rm -rf x" });
    expect(denyReason(await preToolUse(bare, ctx))).toMatch(
      /^utility gate: No action report before this Skill call \(skill "sh" runs shell/,
    );
    expect(ctx.records.at(-1)).toMatchObject({ tool: "Skill", decision: "refused", rule: "no_report" });
    const reported = preInput("Skill", { skill: "sh", args: "ls" });
    ctx.texts.set(reported.tool_use_id, report("tool_call", "0.28", GOOD));
    expect(denyReason(await preToolUse(reported, ctx))).toBeUndefined();
    expect(ctx.records.at(-1)).toMatchObject({ tool: "Skill", decision: "passed" });
    expect(ctx.state()!.main).toMatchObject({ step: 1, refusals: 1, awaitingActivation: true });
  });

  it("whose skill forks needs a delegate report, and counts as a launch", async () => {
    const ctx = gated();
    const call = preInput("Skill", { skill: "fk" });
    ctx.texts.set(call.tool_use_id, report("tool_call", "0.28", GOOD));
    expect(denyReason(await preToolUse(call, ctx))).toMatch(
      /Action tool_call does not permit this Skill call: .* so it counts as delegate/,
    );
    const again = preInput("Skill", { skill: "fk" });
    ctx.texts.set(again.tool_use_id, report("delegate", "0.28", GOOD));
    expect(denyReason(await preToolUse(again, ctx))).toBeUndefined();
    expect(ctx.state()!.main.spend).toMatchObject({ agentsLaunched: 1 });
  });

  it("whose skill is found nowhere counts as tool_call", async () => {
    const ctx = gated();
    expect(denyReason(await preToolUse(preInput("Skill", { skill: "ghost" }), ctx))).toMatch(
      /no skill file or built-in skill named "ghost"/,
    );
  });

  it("whose skill only loads text stays neutral: no record, no step, its skill awaited (it waits for its line, as every gated call does)", async () => {
    const ctx = gated();
    expect(await preToolUse(preInput("Skill", { skill: "docs" }), ctx)).toEqual({});
    expect(ctx.records).toEqual([]);
    expect(ctx.waits).toHaveLength(1);
    expect(ctx.state()!.main).toMatchObject({ step: 0, refusals: 0, awaitingActivation: true });
  });
});

describe("a Skill call in an ungated scope is never refused, whatever its skill does", () => {
  it("shell, fork or unknown: no refusal, no record, no step", async () => {
    const ctx = fakeContext();
    (ctx.store as MemoryStateStore).states.set(SESSION, newSession(SESSION));
    ctx.skillVerdicts.set("sh", SHELL).set("fk", FORK).set("ghost", UNKNOWN);
    for (const skill of ["sh", "fk", "ghost"]) expect(await preToolUse(preInput("Skill", { skill }), ctx)).toEqual({});
    expect(ctx.records).toEqual([]);
    expect(ctx.state()!.main).toMatchObject({ step: 0, refusals: 0 });
  });

  it("even on a session's first call, when the hook must look for what may gate", async () => {
    const ctx = fakeContext();
    ctx.skillVerdicts.set("sh", SHELL);
    expect(await preToolUse(preInput("Skill", { skill: "sh" }), ctx)).toEqual({});
    expect(ctx.records).toEqual([]);
  });
});
