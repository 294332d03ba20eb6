import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../src/engine/signals.js";
import { effectiveGate, manualSource } from "../../src/engine/gate-policy.js";
import type { ScopeRef } from "../../src/hooks/scope.js";
import { newSession, type GateSource } from "../../src/state/schema.js";

const main: ScopeRef = { kind: "main", transcript: "/t.jsonl", lines: "main" };

function source(file: string, over: Partial<GateSource["config"]> = {}, extra: Partial<GateSource> = {}): GateSource {
  return { file, gated: true, scope: "self", config: ConfigSchema.parse(over), extraTools: {}, ...extra };
}

describe("effectiveGate: gating only tightens within a task", () => {
  it("is undefined with no gated source, and ungated sources never gate", () => {
    const session = newSession("s");
    session.main.sources = [{ ...source("a"), gated: false }];
    expect(effectiveGate(session, session.main, main)).toBeUndefined();
  });

  it("a later ungated skill does not ungate", () => {
    const session = newSession("s");
    session.main.sources = [source("strict"), { ...source("plain"), gated: false }];
    expect(effectiveGate(session, session.main, main)?.file).toBe("strict");
  });

  it("a later laxer gated skill cannot raise the budget or lower the floor", () => {
    const session = newSession("s");
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
    const session = newSession("s");
    session.manualGate = true;
    session.main.sources = [source("tight", { maxSteps: 2, floor: 0 })];
    const gate = effectiveGate(session, session.main, main)!;
    expect(gate.config).toMatchObject({ maxSteps: 2, floor: 0 });
    expect(gate.file).toBe(`${manualSource().file}, tight`);
  });

  it("an invalid opt-in anywhere keeps refusing", () => {
    const session = newSession("s");
    session.main.sources = [source("bad", {}, { problem: "utility_floor is -3" }), source("good")];
    expect(effectiveGate(session, session.main, main)?.problem).toBe("utility_floor is -3");
  });
});
