// A call is known by what it does (SPEC §7, §13): its tool's cosmetic fields
// (a Bash description, a timeout, an Agent's description) are left out of the
// digest that exact repeats, stuck loops and identical outcomes match on.
import { describe, expect, it } from "vitest";
import { callDigest, effectOf, inputDigest } from "../../src/engine/redundancy.js";
import { COSMETIC_FIELDS, whatItDoes } from "../../src/engine/tools.js";
import { decideCall } from "../../src/engine/session/decide.js";
import type { ScopeEvent } from "../../src/engine/session/scope-events.js";
import { applyEvents } from "../../src/engine/session/scope-reducer.js";
import { newScope, type GateSource, type ScopeState } from "../../src/engine/session/state.js";
import { defaultConfig } from "../../src/engine/signals.js";

const FAILING = "echo 'FAIL test_parse'; exit 1";
const bash = (description: string, extra: Record<string, unknown> = {}) => ({ command: FAILING, description, ...extra });

describe("callDigest", () => {
  it("leaves out Bash's description and timeout: the same command is the same call", () => {
    const one = callDigest("Bash", bash("run the test"));
    expect(callDigest("Bash", bash("run it again, differently worded"))).toBe(one);
    expect(callDigest("Bash", bash("x", { timeout: 600000 }))).toBe(one);
    expect(callDigest("Bash", { command: FAILING })).toBe(one);
  });

  it("keeps every field that changes what runs", () => {
    const one = callDigest("Bash", bash("d"));
    expect(callDigest("Bash", { ...bash("d"), command: `${FAILING} ` })).not.toBe(one);
    expect(callDigest("Bash", bash("d", { run_in_background: true }))).not.toBe(one);
    expect(callDigest("Bash", bash("d", { dangerouslyDisableSandbox: true }))).not.toBe(one);
  });

  it("is the plain input digest for a tool with no cosmetic field, and for inputs that are no object", () => {
    const read = { file_path: "/p/a.ts", offset: 10, limit: 20 };
    expect(callDigest("Read", read)).toBe(inputDigest(read));
    expect(callDigest("Read", { ...read, offset: 11 })).not.toBe(callDigest("Read", read));
    expect(callDigest("Bash", "echo")).toBe(inputDigest("echo"));
    expect(callDigest("Bash", null)).toBe(inputDigest(null));
    expect(whatItDoes("Bash", [1])).toEqual([1]);
  });

  it("is per tool: a field cosmetic for one tool still counts for another", () => {
    expect(callDigest("Agent", { prompt: "p", subagent_type: "x", description: "a" })).toBe(
      callDigest("Agent", { prompt: "p", subagent_type: "x", description: "b" }),
    );
    expect(callDigest("mcp__x__run", { description: "a" })).not.toBe(callDigest("mcp__x__run", { description: "b" }));
    expect(COSMETIC_FIELDS.Read).toBeUndefined();
  });

  it("never reads an inherited field list (a tool named like Object's own properties)", () => {
    expect(callDigest("constructor", { description: "a" })).toBe(inputDigest({ description: "a" }));
  });
});

const gate: GateSource = { file: "/s/SKILL.md", gated: true, scope: "self", config: defaultConfig(), extraTools: {} };
const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0";
const report = (action: string) => `Action: ${action}\nUtility: 0.28\nBreakdown: ${GOOD}\nRationale: "go"`;

/** Decides a call as the hooks do and feeds its event, then its result, to the scope. */
function run(scope: ScopeState, id: string, tool: string, input: unknown, result: string, failed: boolean): ScopeState {
  const decided = decideCall(scope, "self", gate, { tool, input, toolUseId: id, reportText: report("tool_call") });
  expect(decided.decision.decision).toBe("passed");
  const done: ScopeEvent = { kind: "result", toolUseId: id, failed, bytes: result.length, digest: result };
  return applyEvents(scope, [decided.event, done]).state;
}

describe("the runaway rules see through a reworded description", () => {
  it("three runs of one command under three descriptions, an edit between each: the fourth is a stuck loop", () => {
    let scope = newScope();
    ["run the test", "re-run the test", "check the test again"].forEach((description, i) => {
      scope = run(scope, `t${i}`, "Bash", bash(description), "FAIL", true);
      scope = run(scope, `e${i}`, "Write", { file_path: `/p/note-${i}.md`, content: `${i}` }, "ok", false);
    });
    const next = decideCall(scope, "self", gate, {
      tool: "Bash",
      input: bash("one more time", { timeout: 1000 }),
      reportText: report("tool_call"),
    });
    expect(next.stuck?.map((r) => r.at)).toEqual([1, 3, 5]);
    expect(next.decision).toMatchObject({ decision: "refused", rule: "no_progress" });
  });

  it("the same command right after itself, under a new description, is an exact repeat", () => {
    const scope = run(newScope(), "a", "Bash", bash("first"), "ok", false);
    const again = decideCall(scope, "self", gate, { tool: "Bash", input: bash("second"), reportText: report("tool_call") });
    expect(again.repeat?.toolUseId).toBe("a");
    expect(again.decision).toMatchObject({ decision: "refused", rule: "exact_repeat" });
    expect(again.digest).toBe(callDigest("Bash", { command: FAILING }));
    expect(effectOf("Bash", bash("x"))).toEqual({ kind: "exec" });
  });
});
