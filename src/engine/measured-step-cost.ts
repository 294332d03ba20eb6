import type { Scope } from "./vocabulary.js";
import { EPSILON, MODEL_RATIOS, STEP_COST_TOLERANCE, STEP_COST_WEIGHTS } from "./defaults.js";
import { FALLBACK_FAMILY, tierOf } from "./prices.js";
import { totalTokens, type Spend, type TokenCounts } from "./spend.js";
import { dispatchOverhead, toolStepCost, type ModelTier, type StepCost } from "./step-cost.js";
import { formatUtility } from "./utility.js";
import { FRONTMATTER_NAMES, type BudgetNames, type BudgetRefusal, type Budgets } from "./budget.js";

/**
 * With `utility_step_cost: computed` (SPEC §12): §3's StepCost over the
 * task's measured spend, and the rule that refuses a report understating it.
 * Pure.
 */

/** The model the task spent most on decides the model ratio; with no measured model, the dearest (the cost is not understated). */
export function dominantModel(byModel: Readonly<Record<string, TokenCounts>>): string | undefined {
  let best: string | undefined;
  let bestTokens = -1;
  for (const [model, t] of Object.entries(byModel).sort(([a], [b]) => a.localeCompare(b))) {
    const total = totalTokens(t);
    if (total > bestTokens) {
      best = model;
      bestTokens = total;
    }
  }
  return best;
}

export function modelTier(model: string | undefined): ModelTier {
  return tierOf(model) ?? FALLBACK_FAMILY;
}

export interface MeasuredStepCostInput {
  scope: Scope;
  /** Steps already taken in this task. */
  step: number;
  maxSteps: number;
  spend: Spend;
  budgets: Budgets;
  /** The model making this call; defaults to the one the task spent most on. */
  model?: string;
}

export interface MeasuredStepCost extends StepCost {
  /** The formula with its numbers, for the model to check. */
  shown: string;
}

/** §3's StepCost over measured spend: the token budget is the token ceiling; dispatch adds its overhead by agents launched. */
export function measuredStepCost(input: MeasuredStepCostInput): MeasuredStepCost {
  const model = modelTier(input.model ?? dominantModel(input.spend.byModel));
  const tokens = totalTokens(input.spend.tokens);
  const agents = input.scope === "dispatch" ? input.spend.agentsLaunched : undefined;
  const cost = toolStepCost({
    scope: input.scope,
    step: input.step,
    maxSteps: input.maxSteps,
    tokens,
    ...(input.budgets.tokenBudget ? { tokenCeiling: input.budgets.tokenBudget } : {}),
    model,
    agentsLaunched: input.spend.agentsLaunched,
  });
  const w = input.budgets.tokenBudget ? STEP_COST_WEIGHTS.withCeiling : STEP_COST_WEIGHTS.noCeiling;
  const terms = [`${w.progress}·(${input.step}/${input.maxSteps})`];
  if (input.budgets.tokenBudget) terms.push(`${w.tokens}·(${tokens}/${input.budgets.tokenBudget})`);
  terms.push(`${w.model}·${MODEL_RATIOS[model]} (${model})`);
  const overhead = dispatchOverhead(agents);
  if (overhead > 0) terms.push(`${overhead} (${agents} agents)`);
  const shown = `${terms.join(" + ")} = ${formatUtility(cost.raw)}${cost.clamped ? `, clamped to ${formatUtility(cost.value)}` : ""}`;
  return { ...cost, shown };
}

/** `step_cost_understated`: with `utility_step_cost: computed`, a report more than 0.05 below the measured StepCost is refused. */
export function checkReportedStepCost(
  reported: number,
  measured: MeasuredStepCost,
  names: BudgetNames = FRONTMATTER_NAMES,
): BudgetRefusal | undefined {
  if (measured.value - reported <= STEP_COST_TOLERANCE + EPSILON) return undefined;
  return {
    rule: "step_cost_understated",
    reason: `StepCost=${reported} understates the measured step cost by more than ${STEP_COST_TOLERANCE}: ${measured.shown} (${names.stepCost}: computed). Rescore with StepCost=${formatUtility(measured.value)}.`,
  };
}
