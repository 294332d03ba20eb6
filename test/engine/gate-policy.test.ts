import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../src/engine/signals.js";
import { effectiveGate, gateSourceFrom, MANUAL_GATE_FILE, manualSource, readsAsNo, type OptInRead } from "../../src/engine/gate-policy.js";
import { newScope } from "../../src/engine/session/state.js";
import type { ScopeRef } from "../../src/hooks/scope.js";
import { newSession, type GateSource, type SessionDraft } from "../../src/engine/session/state.js";

const main: ScopeRef = { kind: "main", key: "main", transcript: "/t.jsonl", lines: "main" };

function source(file: string, over: Partial<GateSource["config"]> = {}, extra: Partial<GateSource> = {}): GateSource {
  return { file, gated: true, scope: "self", config: ConfigSchema.parse(over), extraTools: {}, ...extra };
}

describe("effectiveGate: gating only tightens within a task", () => {
  it("is undefined with no gated source, and ungated sources never gate", () => {
    const session = newSession("s") as SessionDraft;
    session.main.sources = [{ ...source("a"), gated: false }];
    expect(effectiveGate(session, session.main, main)).toBeUndefined();
  });

  it("a later ungated skill does not ungate", () => {
    const session = newSession("s") as SessionDraft;
    session.main.sources = [source("strict"), { ...source("plain"), gated: false }];
    expect(effectiveGate(session, session.main, main)?.file).toBe("strict");
  });

  it("a later laxer gated skill cannot raise the budget or lower the floor", () => {
    const session = newSession("s") as SessionDraft;
    session.main.sources = [
      source("strict", { maxSteps: 3, floor: -0.2 }),
      source("lax", { maxSteps: 50, floor: -2.3 }, { extraTools: { retrieve: ["Bash"] } }),
    ];
    const gate = effectiveGate(session, session.main, main)!;
    expect(gate.config).toMatchObject({ maxSteps: 3, floor: -0.2 });
    expect(gate.extraTools).toEqual({});
    expect(gate.file).toBe("strict, lax");
  });

  it("a later stricter skill tightens", () => {
    const session = newSession("s") as SessionDraft;
    session.manualGate = true;
    session.main.sources = [source("tight", { maxSteps: 2, floor: 0 })];
    const gate = effectiveGate(session, session.main, main)!;
    expect(gate.config).toMatchObject({ maxSteps: 2, floor: 0 });
    expect(gate.file).toBe(`${manualSource().file}, tight`);
  });

  it("an invalid opt-in anywhere keeps refusing", () => {
    const session = newSession("s") as SessionDraft;
    session.main.sources = [source("bad", {}, { problem: "utility_floor is -3" }), source("good")];
    expect(effectiveGate(session, session.main, main)?.problem).toBe("utility_floor is -3");
  });
});

const agent = { kind: "agent" } as const;
const onMain = { kind: "main" } as const;
const manualOn = { manualGate: true };
const manualOff = { manualGate: false };

function scopeWith(sources: GateSource[], definition?: GateSource) {
  return { ...newScope(), sources, ...(definition ? { definition } : {}) };
}

describe("manualSource: /utility on gates the main scope with the defaults", () => {
  it("is gated, self-scoped, with the default settings and no extra tools, named /utility on", () => {
    expect(MANUAL_GATE_FILE).toBe("/utility on");
    expect(manualSource()).toEqual({
      file: "/utility on",
      gated: true,
      scope: "self",
      config: { lambdas: [1.0, 0.5, 0.8], floor: -0.5, maxSteps: 10, highGainThreshold: 0.7 },
      extraTools: {},
    });
  });
});

describe("effectiveGate: which sources gate a scope", () => {
  it("the manual gate counts in the main conversation only, and only while it is on", () => {
    expect(effectiveGate(manualOn, scopeWith([]), onMain)?.file).toBe(MANUAL_GATE_FILE);
    expect(effectiveGate(manualOn, scopeWith([]), agent)).toBeUndefined();
    expect(effectiveGate(manualOff, scopeWith([]), onMain)).toBeUndefined();
  });

  it("a subagent's gated definition gates it from its start, before any skill it activates", () => {
    const definition = source("agents/reviewer.md", { maxSteps: 4 }, { scope: "dispatch", extraTools: { verify: ["Bash"] } });
    const gate = effectiveGate(manualOff, scopeWith([source("skill/SKILL.md")], definition), agent)!;
    expect(gate.file).toBe("agents/reviewer.md, skill/SKILL.md");
    expect(gate.scope).toBe("dispatch");
    expect(gate.extraTools).toEqual({ verify: ["Bash"] });
    expect(gate.config.maxSteps).toBe(4);
  });

  it("an ungated definition does not gate, and leaves the skills' gate as it is", () => {
    const definition = { ...source("agents/plain.md", { maxSteps: 1 }), gated: false };
    expect(effectiveGate(manualOff, scopeWith([], definition), agent)).toBeUndefined();
    expect(effectiveGate(manualOff, scopeWith([source("s")], definition), agent)).toEqual(source("s"));
  });

  it("the manual gate comes before the skills: its λ, scope and tools are the ones kept", () => {
    const skill = source("s", { lambdas: [2, 2, 2] }, { scope: "dispatch", extraTools: { retrieve: ["Bash"] } });
    const gate = effectiveGate(manualOn, scopeWith([skill]), onMain)!;
    expect(gate.file).toBe(`${MANUAL_GATE_FILE}, s`);
    expect(gate.scope).toBe("self");
    expect(gate.extraTools).toEqual({});
    expect(gate.config.lambdas).toEqual(manualSource().config.lambdas);
  });

  it("a single gated source is the gate as it is", () => {
    const only = source("only", { floor: 0.1 }, { budgets: { maxAgents: 2 } });
    expect(effectiveGate(manualOff, scopeWith([only]), onMain)).toEqual(only);
  });
});

describe("effectiveGate: merging gated sources strictest-first (SPEC §5, §12)", () => {
  it("keeps the first source's λ and high-gain threshold while taking the highest floor and the smallest step budget", () => {
    const first = source("first", { lambdas: [1, 1, 1], highGainThreshold: 0.9, floor: -1, maxSteps: 20 });
    const second = source("second", { lambdas: [0, 0, 0], highGainThreshold: 0.1, floor: 0.5, maxSteps: 5 });
    expect(effectiveGate(manualOff, scopeWith([first, second]), onMain)!.config).toEqual({
      lambdas: [1, 1, 1],
      highGainThreshold: 0.9,
      floor: 0.5,
      maxSteps: 5,
    });
  });

  it("names every gated source in order, across three", () => {
    const gate = effectiveGate(manualOff, scopeWith([source("a"), source("b"), source("c")]), onMain)!;
    expect(gate.file).toBe("a, b, c");
  });

  it("an invalid opt-in in a later source refuses too, with that source's problem alone", () => {
    const gate = effectiveGate(manualOff, scopeWith([source("good"), source("bad", {}, { problem: "bad: utility_floor is 9" })]), onMain)!;
    expect(gate.problem).toBe("bad: utility_floor is 9");
  });

  it("the problems of two invalid opt-ins are both kept, first one first, with a space between", () => {
    const sources = [source("a", {}, { problem: "a: wrong." }), source("b", {}, { problem: "b: wrong too." })];
    expect(effectiveGate(manualOff, scopeWith(sources), onMain)!.problem).toBe("a: wrong. b: wrong too.");
  });

  it("merging valid sources adds no problem and no budgets that none of them set", () => {
    const gate = effectiveGate(manualOff, scopeWith([source("a"), source("b")]), onMain)!;
    expect(gate).not.toHaveProperty("problem");
    expect(gate).not.toHaveProperty("budgets");
  });

  it("a budget set only by the later source applies", () => {
    const gate = effectiveGate(manualOff, scopeWith([source("a"), source("b", {}, { budgets: { tokenBudget: 50 } })]), onMain)!;
    expect(gate.budgets).toEqual({ tokenBudget: 50 });
  });
});

describe("readsAsNo: a utility_gated value that says no gates nothing (SPEC §5)", () => {
  it.each([false, 0, null, "false", "no", "off", "0", "", "FALSE", "No", "Off", "  no  ", "\tfalse\n", "   "])(
    "%j reads as no",
    (value) => {
      expect(readsAsNo(value)).toBe(true);
    },
  );

  it.each([true, 1, "true", "yes", "on", "1", "nope", "no way", "off-ish", "xoff", "false!", "00", undefined, {}, []])(
    "%j does not read as no",
    (value) => {
      expect(readsAsNo(value)).toBe(false);
    },
  );
});

const invalid = (data: Record<string, unknown> | undefined, extra: { seemsGated?: boolean } = {}): OptInRead => ({
  ok: false,
  problems: [{ message: "x.md: utility_floor is 9; expected a number in [-2.3, 1]." }, { message: "x.md: utility_max_steps is 0." }],
  ...(data ? { data } : {}),
  ...extra,
});

describe("gateSourceFrom: a file that asks for gating with an invalid opt-in gates with its problem (SPEC §5)", () => {
  it("gates with the manual defaults, the file's name and every problem joined by a space", () => {
    expect(gateSourceFrom("x.md", invalid({ utility_gated: true }))).toEqual({
      ...manualSource(),
      file: "x.md",
      problem: "x.md: utility_floor is 9; expected a number in [-2.3, 1]. x.md: utility_max_steps is 0.",
    });
  });

  it.each([
    ["utility_gated: true at the top level", { utility_gated: true }],
    ['utility_gated: "true" (not a boolean, but it asks)', { utility_gated: "true" }],
    ["utility_gated: yes under metadata", { metadata: { utility_gated: "yes" } }],
    ["a no at the top level and a yes under metadata", { utility_gated: false, metadata: { utility_gated: true } }],
    ["a yes at the top level and a no under metadata", { utility_gated: true, metadata: { utility_gated: "no" } }],
    ["utility_gate: true, a misspelling (issue 34)", { utility_gate: true }],
    ["utility-gated: true", { "utility-gated": true }],
    ["Utility_Gated: yes under metadata", { metadata: { Utility_Gated: "yes" } }],
    ["utility_gating: true", { utility_gating: true }],
  ])("asks: %s", (_name, data) => {
    expect(gateSourceFrom("x.md", invalid(data))?.problem).toContain("utility_floor is 9");
  });

  it.each([
    ["no data at all", undefined],
    ["no utility_gated anywhere", { utility_floor: 9 }],
    ["utility_gated reads as no at the top level", { utility_gated: "off" }],
    ["utility_gated reads as no under metadata", { metadata: { utility_gated: 0 } }],
    ["utility_gated reads as no in both places", { utility_gated: "no", metadata: { utility_gated: false } }],
    ["metadata that is null", { metadata: null }],
    ["a misspelling that reads as no", { utility_gate: false }],
    ["another utility key", { utility_gateway: true, utility_floor: 9 }],
    ["metadata that is a string", { metadata: "utility_gated" }],
    ["utility_gated only inherited, not the file's own", Object.create({ utility_gated: true }) as Record<string, unknown>],
  ])("does not ask: %s", (_name, data) => {
    expect(gateSourceFrom("x.md", invalid(data))).toBeUndefined();
  });

  it("a file the reader judged gated (seemsGated) gates with its problem even when its data is unreadable", () => {
    expect(gateSourceFrom("x.md", invalid(undefined, { seemsGated: true }))?.problem).toContain("utility_max_steps is 0");
    expect(gateSourceFrom("x.md", invalid({ utility_gated: "no" }, { seemsGated: true }))?.file).toBe("x.md");
  });
});

describe("gateSourceFrom: a valid opt-in", () => {
  const optIn = {
    gated: true,
    scope: "dispatch" as const,
    lambdas: [0.9, 0.4, 0.7] as [number, number, number],
    floor: 0.2,
    maxSteps: 3,
    tools: { retrieve: ["WebFetch"] },
    budgets: {},
  };

  it("an ungated file is no gate source", () => {
    expect(gateSourceFrom("a/SKILL.md", { ok: true, optIn: { ...optIn, gated: false } })).toBeUndefined();
  });

  it("a gated file gates with its own scope, λ, floor, step budget and extra tools", () => {
    expect(gateSourceFrom("a/SKILL.md", { ok: true, optIn })).toEqual({
      file: "a/SKILL.md",
      gated: true,
      scope: "dispatch",
      config: { lambdas: [0.9, 0.4, 0.7], floor: 0.2, maxSteps: 3, highGainThreshold: 0.7 },
      extraTools: { retrieve: ["WebFetch"] },
    });
  });
});
