import { DISPATCH_OVERHEAD, MODEL_RATIOS, STEP_COST_WEIGHTS } from "./defaults.js";
import type { Scope } from "./vocabulary.js";

export type ModelTier = keyof typeof MODEL_RATIOS;

export interface StepCostInput {
  /** Steps already taken in this task. */
  step: number;
  maxSteps: number;
  /** Tokens spent so far; only used with a token ceiling. */
  tokens?: number;
  tokenCeiling?: number;
  model: ModelTier;
  /** Agents running in dispatch scope; adds the coordination overhead. */
  agents?: number;
}

export interface StepCost {
  value: number;
  /** Before clamping to [0, 1]. */
  raw: number;
  clamped: boolean;
}

export function dispatchOverhead(agents: number | undefined): number {
  if (!agents || agents < 1) return 0;
  return DISPATCH_OVERHEAD.find((band) => agents >= band.minAgents && agents <= band.maxAgents)?.add ?? 0;
}

/**
 * StepCost = w1·(step/max_steps) + w2·(tokens/token_ceiling) + w3·model_ratio
 * (+ dispatch overhead), clamped to [0, 1]. This is the code's own number, so
 * unlike a model's report it is clamped rather than rejected.
 */
export function computeStepCost(input: StepCostInput): StepCost {
  const hasCeiling = input.tokenCeiling !== undefined && input.tokenCeiling > 0;
  const w = hasCeiling ? STEP_COST_WEIGHTS.withCeiling : STEP_COST_WEIGHTS.noCeiling;
  const progress = input.step / input.maxSteps;
  const tokenShare = hasCeiling ? (input.tokens ?? 0) / input.tokenCeiling! : 0;
  const raw = w.progress * progress + w.tokens * tokenShare + w.model * MODEL_RATIOS[input.model] + dispatchOverhead(input.agents);
  const value = Math.min(1, Math.max(0, raw));
  return { value, raw, clamped: value !== raw };
}

/** The state a scope's StepCost is read from: what the hooks measure. */
export interface ScopeCostInput {
  scope: Scope;
  /** Steps already taken in this task. */
  step: number;
  maxSteps: number;
  model: ModelTier;
  /** Tokens the task spent; used only with a token ceiling (its token budget). */
  tokens?: number;
  tokenCeiling?: number;
  /** Subagents the task has launched: in dispatch scope their coordination overhead is added. */
  agentsLaunched: number;
}

/**
 * The StepCost of every action that takes a tool (retrieve, verify,
 * tool_call, delegate) at this step: §3's formula, plus in dispatch scope
 * the coordination overhead of the agents launched so far. The one number
 * the hooks' line shows and `utility_step_cost: computed` checks.
 */
export function toolStepCost(input: ScopeCostInput): StepCost {
  return computeStepCost({
    step: input.step,
    maxSteps: input.maxSteps,
    model: input.model,
    ...(input.tokenCeiling !== undefined ? { tokens: input.tokens ?? 0, tokenCeiling: input.tokenCeiling } : {}),
    ...(input.scope === "dispatch" ? { agents: input.agentsLaunched } : {}),
  });
}

/** `respond`'s StepCost: the model term alone (it ends the spending, so no budget term applies). `stop` costs 0. */
export function respondStepCost(model: ModelTier, tokenCeiling: number | undefined): number {
  const weights = tokenCeiling !== undefined && tokenCeiling > 0 ? STEP_COST_WEIGHTS.withCeiling : STEP_COST_WEIGHTS.noCeiling;
  return weights.model * MODEL_RATIOS[model];
}
