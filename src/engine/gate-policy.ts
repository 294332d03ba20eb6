import { tightestBudgets } from "./budget.js";
import { ConfigSchema } from "./signals.js";
import type { GateSource, ScopeState } from "./scope-state/state.js";

/** What `/utility on` gates with: the defaults. */
export const MANUAL_GATE_FILE = "/utility on";

export function manualSource(): GateSource {
  return { file: MANUAL_GATE_FILE, gated: true, scope: "self", config: ConfigSchema.parse({}), extraTools: {} };
}

/**
 * The gate in force for the scope, if any. Gating only tightens within a
 * task: a later skill never ungates, and never loosens what an earlier gated
 * source set (otherwise a model could activate a laxer skill to escape).
 * Settings merge strictest-first: the highest floor, the smallest step
 * budget and the smallest spend budgets, and an invalid opt-in anywhere refuses; λ, scope and extra tools
 * come from the first gated source.
 */
export function effectiveGate(session: { manualGate: boolean }, scope: ScopeState, ref: { kind: "main" | "agent" }): GateSource | undefined {
  const manual = ref.kind === "main" && session.manualGate ? [manualSource()] : [];
  const all = [...(scope.definition ? [scope.definition] : []), ...manual, ...scope.sources];
  const gated = all.filter((s) => s.gated);
  const [first, ...later] = gated;
  if (!first) return undefined;
  return later.reduce(tighten, first);
}

function tighten(current: GateSource, next: GateSource): GateSource {
  const problem = [current.problem, next.problem].filter(Boolean).join(" ");
  const budgets = tightestBudgets(current.budgets, next.budgets);
  return {
    ...current,
    file: `${current.file}, ${next.file}`,
    config: {
      ...current.config,
      floor: Math.max(current.config.floor, next.config.floor),
      maxSteps: Math.min(current.config.maxSteps, next.config.maxSteps),
    },
    ...(problem ? { problem } : {}),
    ...(Object.keys(budgets).length > 0 ? { budgets } : {}),
  };
}
