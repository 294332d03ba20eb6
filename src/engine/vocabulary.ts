import * as z from "zod/mini";

/**
 * The framework's words, each defined once: actions, the scopes a decision is
 * made in, the action sets derived from them, the rules a refusal names, and
 * the λ weights. Numbers (defaults, weights, the tie-break order) live in
 * ./defaults.ts; messages that list any of these are built from them.
 *
 * "Scope": one name per idea.
 * - DecisionScope (`self | subagent | dispatch`, `DecisionScopeSchema`): which
 *   actions a report may choose from (SPEC §3). The engine's `Scope`.
 * - OptInScope (`self | dispatch`, `OptInScopeSchema`):
 *   the subset a frontmatter may ask for with `utility_scope`; `subagent`
 *   comes from being spawned, never from a key.
 * - Conversation (`main | agent`, `CONVERSATIONS`): whose loop a hook call
 *   belongs to, the main conversation or one subagent (`ScopeRef.kind`);
 *   a log record says it with `agentId`, and `scopeKey` writes `main` or
 *   `agent:<id>`; replay's runs (`ScopeReplay.scope`) use it too.
 * - LineFilter (`main | sidechain | all`, src/transcript/line-filter.ts): which lines
 *   of one transcript file a reader keeps; a filter, not a conversation.
 */

export const ACTIONS = ["respond", "retrieve", "tool_call", "verify", "delegate", "stop"] as const;
export const ActionSchema = z.enum(ACTIONS);
export type Action = z.infer<typeof ActionSchema>;

export const DECISION_SCOPES = ["self", "subagent", "dispatch"] as const;
export const DecisionScopeSchema = z.enum(DECISION_SCOPES);
export type Scope = z.infer<typeof DecisionScopeSchema>;

/** Scopes a frontmatter may ask for. `subagent` comes from being spawned, never from a key. */
export const OPT_IN_SCOPES = ["self", "dispatch"] as const satisfies readonly Scope[];
export const OptInScopeSchema = z.enum(OPT_IN_SCOPES);
export type OptInScope = z.infer<typeof OptInScopeSchema>;

export const CONVERSATIONS = ["main", "agent"] as const;
export type Conversation = (typeof CONVERSATIONS)[number];

/** Subagents execute; they do not orchestrate, so they have no `delegate`. */
export const SCOPE_ACTIONS: Record<Scope, readonly Action[]> = {
  self: ACTIONS,
  subagent: ["respond", "retrieve", "tool_call", "verify", "stop"],
  dispatch: ACTIONS,
};

/** Actions that end the loop: neither takes a tool call. */
export const ENDING_ACTIONS = ["respond", "stop"] as const satisfies readonly Action[];

/** Actions that take a tool call: every action that does not end the loop. */
export const CALL_ACTIONS = ["retrieve", "tool_call", "verify", "delegate"] as const satisfies readonly Action[];
export type CallAction = (typeof CALL_ACTIONS)[number];

export function isAction(value: string): value is Action {
  return (ACTIONS as readonly string[]).includes(value);
}

export function isEndingAction(action: string): boolean {
  return (ENDING_ACTIONS as readonly string[]).includes(action);
}

export function isCallAction(action: string): action is CallAction {
  return (CALL_ACTIONS as readonly string[]).includes(action);
}

export function actionsOf(scope: Scope): readonly Action[] {
  return SCOPE_ACTIONS[scope];
}

/** Every reason the gate can refuse, in the order of SPEC §6. The log schema and the gate both use this list. */
export const RULES = [
  "no_report",
  "malformed",
  "report_too_large",
  "unknown_action",
  "utility_mismatch",
  "not_argmax",
  "budget_spent",
  "agents_exhausted",
  "step_cost_understated",
  "loop_ended",
  "below_floor",
  "override_undocumented",
  "tool_not_permitted",
  "exact_repeat",
  "no_progress",
  "protected_target",
  "foreign_hooks",
  "optin_invalid",
  "budget_invalid",
  "state_unreadable",
  "transcript_unreadable",
  "own_tool",
] as const;
export const RuleSchema = z.enum(RULES);
export type RuleId = (typeof RULES)[number];

/** λ1, λ2, λ3: the weights of StepCost, Uncertainty and Redundancy, each 0 or more. */
const weight = () => z.number().check(z.minimum(0));
export const LambdasSchema = z.tuple([weight(), weight(), weight()]);
export type Lambdas = z.infer<typeof LambdasSchema>;
