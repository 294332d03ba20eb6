import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../src/engine/signals.js";
import { effectiveGate, gateSourceFrom } from "../../src/engine/gate-policy.js";
import type { ScopeRef } from "../../src/hooks/scope.js";
import { defaultOptIn } from "../../src/optin/schema.js";
import { newSession, type GateSource, type SessionDraft } from "../../src/engine/session/state.js";

const main: ScopeRef = { kind: "main", key: "main", transcript: "/t.jsonl", lines: "main" };
const source = (file: string, budgets?: GateSource["budgets"]): GateSource => ({
  file,
  gated: true,
  scope: "self",
  config: ConfigSchema.parse({}),
  extraTools: {},
  ...(budgets ? { budgets } : {}),
});

describe("spend budgets only tighten within a task (SPEC §12)", () => {
  it("a gated file's budgets travel with its gate source; a file without them has none", () => {
    const optIn = { ...defaultOptIn(), gated: true, budgets: { tokenBudget: 500, stepCost: "computed" as const } };
    expect(gateSourceFrom("a/SKILL.md", { ok: true, optIn } as never)?.budgets).toEqual({ tokenBudget: 500, stepCost: "computed" });
    expect(gateSourceFrom("a/SKILL.md", { ok: true, optIn: { ...optIn, budgets: {} } } as never)?.budgets).toBeUndefined();
  });

  it("a later skill cannot raise a budget, and may lower one or add one", () => {
    const session = newSession("s") as SessionDraft;
    session.main.sources = [
      source("strict", { tokenBudget: 100, maxAgents: 1 }),
      source("lax", { tokenBudget: 10_000, maxAgents: 9, costBudgetUsd: 2 }),
    ];
    expect(effectiveGate(session, session.main, main)?.budgets).toEqual({ tokenBudget: 100, maxAgents: 1, costBudgetUsd: 2 });
  });

  it("a source without budgets keeps the earlier ones", () => {
    const session = newSession("s") as SessionDraft;
    session.main.sources = [source("first", { maxAgents: 0 }), source("second")];
    expect(effectiveGate(session, session.main, main)?.budgets).toEqual({ maxAgents: 0 });
  });
});
