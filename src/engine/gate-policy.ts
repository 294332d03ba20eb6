import { tightestBudgets } from "./budget.js";
import { ConfigSchema } from "./signals.js";
import type { GateSource, ScopeState } from "./session/state.js";
import type { Budgets } from "./budget.js";
import { tightestGuards, type Guards } from "./guards.js";
import type { CallAction, Conversation, Lambdas, OptInScope } from "./vocabulary.js";

/** A file's opt-in as read from its frontmatter, as far as the policy needs it (src/optin/read.ts's OptInFile is one). */
export type OptInRead =
  | {
      ok: true;
      optIn: {
        gated: boolean;
        scope: OptInScope;
        lambdas: Lambdas;
        floor: number;
        maxSteps: number;
        tools: Partial<Record<CallAction, string[]>>;
        budgets: Budgets;
        guards?: Guards;
      };
    }
  | { ok: false; problems: ReadonlyArray<{ message: string }>; data?: Record<string, unknown>; seemsGated?: boolean };

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
export function effectiveGate(session: { manualGate: boolean }, scope: ScopeState, ref: { kind: Conversation }): GateSource | undefined {
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
  const guards = tightestGuards(current.guards, next.guards);
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
    ...(Object.keys(guards).length > 0 ? { guards } : {}),
  };
}

/** A `utility_gated` value that reads as no: false, or a string or number that says no. */
export function readsAsNo(value: unknown): boolean {
  if (value === false || value === 0 || value === null) return true;
  return typeof value === "string" && /^(?:false|no|off|0|)$/i.test(value.trim());
}

/**
 * Whether a file asks for gating: `utility_gated` (or a misspelling of it) is set, at the top level or
 * under `metadata:`, and either of the two does not read as no (SPEC §5:
 * a conflict is an error whichever says true). A value that reads as no
 * (`"false"`, `no`, `0`) gates nothing; `utility check` reports it.
 */
function asksForGating(data: Record<string, unknown> | undefined): boolean {
  if (!data) return false;
  const meta = data.metadata && typeof data.metadata === "object" ? (data.metadata as Record<string, unknown>) : {};
  const asks = (where: Record<string, unknown>) =>
    Object.keys(where).some((key) => GATED_SPELLINGS.test(key) && Object.hasOwn(where, key) && !readsAsNo(where[key]));
  return asks(data) || asks(meta);
}

/**
 * `utility_gated` and the spellings of it an author may mean (`utility_gate`, `utility-gated`, `Utility_Gated`,
 * `utility_gating`): a file that says yes under one of them asks for gating, and gates with the problem the
 * reader found (did you mean utility_gated?) rather than silently not at all (issue 34).
 */
const GATED_SPELLINGS = /^utility[_-]?gat(?:e|ed|es|ing)$/i;

/**
 * A file's opt-in as a gate source; undefined when it does not ask for
 * gating. A file that asks (utility_gated plainly true in either place) with an
 * invalid opt-in gates with the problem: the author asked for enforcement,
 * and falling back silently would hide the mistake (SPEC §5).
 */
export function gateSourceFrom(file: string, read: OptInRead): GateSource | undefined {
  if (read.ok) {
    if (!read.optIn.gated) return undefined;
    const { optIn } = read;
    return {
      file,
      gated: true,
      scope: optIn.scope,
      config: ConfigSchema.parse({ lambdas: optIn.lambdas, floor: optIn.floor, maxSteps: optIn.maxSteps }),
      extraTools: optIn.tools as Record<string, string[]>,
      ...(Object.keys(optIn.budgets).length > 0 ? { budgets: optIn.budgets } : {}),
      ...(optIn.guards && Object.keys(optIn.guards).length > 0 ? { guards: optIn.guards } : {}),
    };
  }
  if (!asksForGating(read.data) && !read.seemsGated) return undefined;
  return { ...manualSource(), file, problem: read.problems.map((p) => p.message).join(" ") };
}
