import type { Scope } from "../vocabulary.js";
import { budgetsInForce, decideToolCall, type GateBudget, type GateDecision, type GateInput } from "../gate.js";
import { callDigest, effectOf, findExactRepeat, type RanCall, type Sha256Hex } from "../redundancy.js";
import { defaultConfig } from "../signals.js";
import type { CallEvent } from "./scope-events.js";
import type { GateSource, RanCallState, ScopeState, SessionState } from "./state.js";
import { findStuckLoop } from "../no-progress.js";
import { guardsInForce, type GuardsInForce } from "../guards.js";
import { jobOfCall } from "../background.js";
import type { ActsAs } from "../tools.js";
import { budgetSpent } from "../gate-budgets.js";
import { formatContextLine, spendAgainstBudgets, tierOf } from "../context-line.js";
import { scoped, type ScopeKey, type SessionEvent } from "./events.js";
import { forkLaunchEvents } from "./fork.js";
import { scopeAt } from "./reduce.js";
import { decisionScopeOf, foreignHooksOf, gateOf, rootSpendOf } from "./views.js";
import type { WindDown } from "../gate-budgets.js";
import type { Spend } from "../spend.js";
import { budgetInputOf, type UserSettings } from "./budget-input.js";

export type { UserSettings };

/**
 * One tool call decided against a scope's state: the exact-repeat rule over
 * its history (calls still pending count as in between) and the gate's table.
 * The hooks and replay both decide through this function and feed the event
 * it returns to the reducer, so no rule can differ between the two.
 */
export interface CallDecision {
  decision: GateDecision;
  repeat?: RanCall;
  /** A stuck loop (SPEC §13): the last runs of this call, oldest first, which all returned the same result. */
  stuck?: RanCallState[];
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
  /** A call naming the gate's records or Claude Code's configuration: why (the hooks find it; the file system is theirs). */
  protectedTarget?: string;
  /** The root task's spend and the budgets on it (SPEC §12); absent: no budget applies. */
  budget?: GateBudget;
  /** Hooks registered outside the gate's own skill, or registered by this Skill call (src/engine/session/views.ts foreignHooksOf): why. */
  foreignHooks?: string;
  /** The call is judged by what it can do, not by its tool (a Skill call that runs shell or forks, SPEC §6). */
  actsAs?: ActsAs;
  /** The runaway guards in force (SPEC §13, §14); the defaults when absent. */
  guards?: GuardsInForce;
}

export function decideCall(
  scope: ScopeState,
  scopeName: Scope,
  gate: GateSource | undefined,
  call: CallToDecide,
  sha256?: Sha256Hex,
): CallDecision {
  const digest = callDigest(call.tool, call.input, sha256);
  // A call acting as tool_call or delegate may change anything, as a shell command does.
  const effect = call.actsAs ? ({ kind: "exec" } as const) : effectOf(call.tool, call.input);
  const repeat = findExactRepeat(scope.history, { tool: call.tool, digest, effect }, Object.values(scope.pending));
  const guards = call.guards ?? guardsInForce();
  const stuck = findStuckLoop(scope.history, { tool: call.tool, digest, effect }, guards.stuckAfter);
  const decision = decideToolCall({
    ...gateInputOf({ scope, scopeName, gate, call, repeat, stuck, guards }),
    windDown: windDownOf(scope, digest),
  });
  const event = callEventOf(call, decision, digest, effect, repeat !== undefined);
  return { decision, digest, event, ...(repeat ? { repeat: repeat.previous } : {}), ...(stuck ? { stuck: stuck as RanCallState[] } : {}) };
}

interface GateInputParts {
  scope: ScopeState;
  scopeName: Scope;
  gate: GateSource | undefined;
  call: CallToDecide;
  repeat: ReturnType<typeof findExactRepeat>;
  stuck: ReturnType<typeof findStuckLoop>;
  guards: GuardsInForce;
}

function gateInputOf({ scope, scopeName, gate, call, repeat, stuck, guards }: GateInputParts): GateInput {
  return {
    scope: scopeName,
    gated: gate !== undefined,
    ...(gate?.problem ? { optInProblem: gate.problem } : {}),
    ...(call.reportText !== undefined ? { reportText: call.reportText } : {}),
    tool: call.tool,
    step: scope.step,
    task: scope.task,
    config: gate?.config ?? defaultConfig(),
    extraTools: gate?.extraTools ?? {},
    ...(repeat ? { repeat } : {}),
    ...judgedFields(call),
    ...guardInput(stuck, guards),
  };
}

/** The planning and stopping calls this task let through past a spent budget, each with whether it came back with an error (src/engine/gate-budgets.ts). */
function windDownOf(scope: ScopeState, digest: string): WindDown {
  const failed = (id: string | undefined) => id !== undefined && scope.history.some((ran) => ran.toolUseId === id && ran.failed === true);
  return {
    digest,
    earlier: (scope.windDown ?? []).map((c) => ({ tool: c.tool, digest: c.digest, ...(failed(c.toolUseId) ? { failed: true } : {}) })),
  };
}

/** What the hooks found about the call and its session, as the gate takes it. */
function judgedFields(call: CallToDecide): Pick<GateInput, "protectedTarget" | "foreignHooks" | "budget" | "actsAs"> {
  return {
    ...(call.protectedTarget !== undefined ? { protectedTarget: call.protectedTarget } : {}),
    ...(call.foreignHooks !== undefined ? { foreignHooks: call.foreignHooks } : {}),
    ...(call.budget ? { budget: call.budget } : {}),
    ...(call.actsAs ? { actsAs: call.actsAs } : {}),
  };
}

/** What the runaway guards add to the gate's input (SPEC §13, §14). */
function guardInput(stuck: ReturnType<typeof findStuckLoop>, guards: GuardsInForce): Pick<GateInput, "stuck" | "confirmAboveUncertainty"> {
  return {
    ...(stuck ? { stuck } : {}),
    ...(guards.confirmAboveUncertainty !== undefined ? { confirmAboveUncertainty: guards.confirmAboveUncertainty } : {}),
  };
}

function callEventOf(call: CallToDecide, decision: GateDecision, digest: string, effect: CallEvent["effect"], repeat: boolean): CallEvent {
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
    ...(repeat ? { exactRepeat: true } : {}),
    ...((decision.decision === "neutral" || decision.decision === "observed") && decision.pastBudget ? { pastBudget: true } : {}),
  };
}

/**
 * A call to decide in a session: the call, the model that wrote its message
 * (for a computed StepCost), and what every session of the user spent in the
 * window of `window_cost_budget_usd` (the hooks read the ledger; replay has none).
 */
/** A call as the hooks and replay give it: `registersHooks`, the file of a Skill call's skill whose frontmatter registers hooks. */
export type SessionCall = Omit<CallToDecide, "budget" | "guards" | "foreignHooks"> & {
  model?: string;
  windowSpend?: Spend;
  registersHooks?: string;
};

export interface SessionDecision extends CallDecision {
  gate?: GateSource;
  /** The runaway guards the call was decided under (the user's, then the gate's). */
  guards: GuardsInForce;
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
  const budget = budgetInputOf(session, key, user, call);
  const guards = guardsInForce(user.guards, gate?.guards);
  const { model: _model, windowSpend: _window, registersHooks, ...toDecide } = call;
  const foreignHooks = foreignHooksOf(session, gate, registersHooks);
  const decided = decideCall(
    scopeAt(session, key),
    scopeName,
    gate,
    { ...toDecide, guards, ...(budget ? { budget } : {}), ...(foreignHooks ? { foreignHooks } : {}) },
    sha256,
  );
  return {
    ...decided,
    guards,
    scopeName,
    ...(gate ? { gate } : {}),
    ...(budget ? { budget } : {}),
    // A fork carries this scope's conversation: it inherits the gate (./fork.ts).
    events: [scoped(key, decided.event), ...forkLaunchEvents(key, call, gate !== undefined, decided.decision.decision)],
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
  // The line reads no part of the budget that depends on the call's model (only a computed StepCost does).
  const budget = budgetInputOf(session, key, user, {});
  if (!budget) return formatContextLine(base);
  const budgets = budgetsInForce({ budget });
  // The window's spend is read only when a call is decided: here, the session's own budgets.
  const closed = budget.userProblem !== undefined || budgetSpent(budget) !== undefined;
  const agentsFull = budgets.maxAgents !== undefined && budget.launched >= budgets.maxAgents;
  return formatContextLine({
    ...base,
    ...(closed ? { closed } : {}),
    ...(agentsFull ? { noDelegate: true } : {}),
    // Agents shown as the budget counts them: those admitted or started, whichever is more.
    ...spendAgainstBudgets({ ...budget.spend, agentsLaunched: budget.launched }, budgets, budget.prices),
  });
}
