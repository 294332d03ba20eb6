import type { Scope } from "../vocabulary.js";
import { budgetsInForce, decideToolCall, type GateBudget, type GateDecision, type GateInput } from "../gate.js";
import { effectOf, findExactRepeat, inputDigest, type RanCall, type Sha256Hex } from "../redundancy.js";
import { defaultConfig } from "../signals.js";
import type { CallEvent } from "./scope-events.js";
import type { GateSource, ScopeState, SessionState } from "./state.js";
import { jobOfCall } from "../background.js";
import type { ActsAs } from "../tools.js";
import { checkSpendBudget, checkStartedPastLimit, hasBudget, type Budgets } from "../budget.js";
import { DEFAULT_PRICES, withOverride, type PriceOverride } from "../prices.js";
import { formatContextLine, spendAgainstBudgets, tierOf } from "../context-line.js";
import { scoped, type ScopeKey, type SessionEvent } from "./events.js";
import { scopeAt } from "./reduce.js";
import { decisionScopeOf, frontmatterBudgetsOf, gateOf, launchesOf, rootSpendOf, startedPastLimit } from "./views.js";

/**
 * One tool call decided against a scope's state: the exact-repeat rule over
 * its history (calls still pending count as in between) and the gate's table.
 * The hooks and replay both decide through this function and feed the event
 * it returns to the reducer, so no rule can differ between the two.
 */
export interface CallDecision {
  decision: GateDecision;
  repeat?: RanCall;
  digest: string;
  /** What to feed the reducer. */
  event: CallEvent;
}

export interface CallToDecide {
  tool: string;
  input: unknown;
  toolUseId?: string;
  /** The model's own text before this call in its message; undefined when none was found. */
  reportText?: string;
  startedAt?: number;
  /** A writing tool aimed at the gate's own records: why (the hooks find it; the file system is theirs). */
  protectedTarget?: string;
  /** The root task's spend and the budgets on it (SPEC §12); absent: no budget applies. */
  budget?: GateBudget;
  /** The call is judged by what it can do, not by its tool (a Skill call that runs shell or forks, SPEC §6). */
  actsAs?: ActsAs;
}

export function decideCall(
  scope: ScopeState,
  scopeName: Scope,
  gate: GateSource | undefined,
  call: CallToDecide,
  sha256?: Sha256Hex,
): CallDecision {
  const digest = inputDigest(call.input, sha256);
  // A call acting as tool_call or delegate may change anything, as a shell command does.
  const effect = call.actsAs ? ({ kind: "exec" } as const) : effectOf(call.tool, call.input);
  const repeat = findExactRepeat(scope.history, { tool: call.tool, digest, effect }, Object.values(scope.pending));
  const decision = decideToolCall(gateInputOf({ scope, scopeName, gate, call, repeat }));
  const event = callEventOf(call, decision, digest, effect);
  return { decision, digest, event, ...(repeat ? { repeat: repeat.previous } : {}) };
}

interface GateInputParts {
  scope: ScopeState;
  scopeName: Scope;
  gate: GateSource | undefined;
  call: CallToDecide;
  repeat: ReturnType<typeof findExactRepeat>;
}

function gateInputOf({ scope, scopeName, gate, call, repeat }: GateInputParts): GateInput {
  return {
    scope: scopeName,
    gated: gate !== undefined,
    ...(gate?.problem ? { optInProblem: gate.problem } : {}),
    ...(call.reportText !== undefined ? { reportText: call.reportText } : {}),
    tool: call.tool,
    step: scope.step,
    config: gate?.config ?? defaultConfig(),
    extraTools: gate?.extraTools ?? {},
    ...(repeat ? { repeat } : {}),
    ...(call.protectedTarget !== undefined ? { protectedTarget: call.protectedTarget } : {}),
    ...(call.budget ? { budget: call.budget } : {}),
    ...(call.actsAs ? { actsAs: call.actsAs } : {}),
  };
}

function callEventOf(call: CallToDecide, decision: GateDecision, digest: string, effect: CallEvent["effect"]): CallEvent {
  const jobOf = jobOfCall(call.tool, call.input);
  return {
    kind: "call",
    decision: decision.decision,
    tool: call.tool,
    digest,
    effect,
    ...(call.toolUseId ? { toolUseId: call.toolUseId } : {}),
    ...(decision.decision === "passed" ? { action: decision.evaluation.report.action } : {}),
    ...(call.startedAt !== undefined ? { startedAt: call.startedAt } : {}),
    ...(jobOf !== undefined ? { jobOf } : {}),
    ...(call.actsAs ? { actsAs: call.actsAs.action } : {}),
  };
}

/** The user's own plugin settings (SPEC §10, §12), parsed by the shell from the hook's environment. */
export interface UserSettings {
  budgets: Budgets;
  prices?: PriceOverride;
  /** What is invalid in them, in words: it refuses in a gated scope and is a warning elsewhere. */
  problem?: string;
}

/** A call to decide in a session: the call, and the model that wrote its message (for a computed StepCost). */
export type SessionCall = Omit<CallToDecide, "budget"> & { model?: string };

export interface SessionDecision extends CallDecision {
  gate?: GateSource;
  scopeName: Scope;
  budget?: GateBudget;
  /** What to feed the session machine. */
  events: SessionEvent[];
}

/**
 * One tool call decided against the session (the hooks and replay alike):
 * the gate in force, the budgets that bind the scope's task tree, the exact
 * repeat rule and the gate's table. Pure; the caller reduces `events`.
 */
export function decideInSession(
  session: SessionState,
  key: ScopeKey,
  call: SessionCall,
  user: UserSettings,
  sha256?: Sha256Hex,
): SessionDecision {
  const gate = gateOf(session, key);
  const scopeName = decisionScopeOf(key, gate);
  const budget = budgetOf(session, key, user, call.model);
  const { model: _model, ...toDecide } = call;
  const decided = decideCall(scopeAt(session, key), scopeName, gate, { ...toDecide, ...(budget ? { budget } : {}) }, sha256);
  return {
    ...decided,
    scopeName,
    ...(gate ? { gate } : {}),
    ...(budget ? { budget } : {}),
    events: [scoped(key, decided.event)],
  };
}

/** The gate's budget input, or undefined when no budget binds the scope (then nothing more is computed). */
function budgetOf(session: SessionState, key: ScopeKey, user: UserSettings, model: string | undefined): GateBudget | undefined {
  const frontmatter = frontmatterBudgetsOf(session, key);
  if (!user.problem && !hasBudget(user.budgets) && !hasBudget(frontmatter)) return undefined;
  const maxAgents = budgetsInForce({ budget: { user: user.budgets, gate: frontmatter } }).maxAgents;
  const pastLimit = startedPastLimit(session, key, maxAgents);
  return {
    spend: rootSpendOf(session, key),
    user: user.budgets,
    gate: frontmatter,
    prices: withOverride(DEFAULT_PRICES, user.prices),
    launched: launchesOf(session, key),
    ...(pastLimit !== undefined ? { startedAs: pastLimit } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(user.problem ? { userProblem: user.problem } : {}),
  };
}

/**
 * The line the hooks give a gated scope (src/engine/context-line.ts): its
 * steps, its tier's StepCost for each action it may still take, and spend
 * against budgets. Only when the scope is gated and the tier known: the
 * line's point is the StepCost. The hooks give it after a call passes,
 * before the first call of a gated task (the activation of the skill or the
 * start of the agent that gates it) and with a refusal for a missing report.
 */
export function scopeLineOf(session: SessionState, key: ScopeKey, user: UserSettings, model: string | undefined): string | undefined {
  const tier = tierOf(model);
  const gate = gateOf(session, key);
  if (!tier || !gate) return undefined;
  const spend = rootSpendOf(session, key);
  const base = {
    step: scopeAt(session, key).step,
    maxSteps: gate.config.maxSteps,
    tier,
    scope: decisionScopeOf(key, gate),
    agentsLaunched: spend.agentsLaunched,
  };
  const budget = budgetOf(session, key, user, model);
  if (!budget) return formatContextLine(base);
  const budgets = budgetsInForce({ budget });
  const closed =
    budget.userProblem !== undefined ||
    checkSpendBudget(budget.spend, budgets, budget.prices) !== undefined ||
    checkStartedPastLimit(budget.startedAs, budgets) !== undefined;
  const agentsFull = budgets.maxAgents !== undefined && budget.launched >= budgets.maxAgents;
  return formatContextLine({
    ...base,
    ...(closed ? { closed } : {}),
    ...(agentsFull ? { noDelegate: true } : {}),
    // Agents shown as the budget counts them: those admitted or started, whichever is more.
    ...spendAgainstBudgets({ ...budget.spend, agentsLaunched: budget.launched }, budgets, budget.prices),
  });
}
