import type { Scope } from "../vocabulary.js";
import { decideToolCall, type GateBudget, type GateDecision, type GateInput } from "../gate.js";
import { effectOf, findExactRepeat, inputDigest, type RanCall } from "../redundancy.js";
import { defaultConfig } from "../signals.js";
import type { CallEvent } from "./events.js";
import type { GateSource, ScopeState } from "./state.js";
import { jobOfCall } from "../background.js";
import type { ActsAs } from "../tools.js";

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

export function decideCall(scope: ScopeState, scopeName: Scope, gate: GateSource | undefined, call: CallToDecide): CallDecision {
  const digest = inputDigest(call.input);
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
