import { DISPATCH_OVERHEAD, MODEL_RATIOS, STEP_COST_WEIGHTS } from "./defaults.js";

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
