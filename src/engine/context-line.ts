import type { Budgets } from "./budget.js";
import { EPSILON, MODEL_RATIOS, STEP_COST_WEIGHTS } from "./defaults.js";
import { estimateCostUsd, type PriceTable } from "./prices.js";
import { totalTokens, type Spend } from "./spend.js";
import { computeStepCost, type ModelTier } from "./step-cost.js";

/**
 * The one line the hooks give a gated model after each call (issue 15): what
 * the plugin already knows (steps, tier, spend against budgets) and the
 * StepCost that follows from it, so the model reads the numbers instead of
 * working them out. Few tokens: ` · ` separated, no labels it does not need.
 */

export const CONTEXT_LINE_PREFIX = "utility:";

/** What a task has spent, when measured (SPEC §12); each part only when known. */
export interface ContextSpend {
  /** All four usage counts together. */
  tokens?: number;
  costUsd?: number;
  agents?: number;
}

export interface ContextLineInput {
  /** Steps already taken in this task and scope. */
  step: number;
  maxSteps: number;
  /** The tier of the model that wrote the scope's last message; without it no StepCost is given. */
  tier?: ModelTier;
  spend?: ContextSpend;
  /** The budgets set for the task (frontmatter or the user's settings). */
  budgets?: ContextSpend;
}

/** What the line shows of a task's spend: tokens always, cost and agents only where a budget limits them; and each budget set. */
export function spendAgainstBudgets(spend: Spend, budgets: Budgets, prices: PriceTable): Pick<ContextLineInput, "spend" | "budgets"> {
  return {
    spend: {
      tokens: totalTokens(spend.tokens),
      ...(budgets.costBudgetUsd !== undefined ? { costUsd: estimateCostUsd(spend.byModel, prices) } : {}),
      ...(budgets.maxAgents !== undefined ? { agents: spend.agentsLaunched } : {}),
    },
    budgets: {
      ...(budgets.tokenBudget !== undefined ? { tokens: budgets.tokenBudget } : {}),
      ...(budgets.costBudgetUsd !== undefined ? { costUsd: budgets.costBudgetUsd } : {}),
      ...(budgets.maxAgents !== undefined ? { agents: budgets.maxAgents } : {}),
    },
  };
}

/** The tier of a model as the transcript names it: src/engine/prices.ts, one reading for every rule. */
export { tierOf } from "./prices.js";

/** Up to three decimals, half up, no trailing zeros: 0.503, 0.29, 0.0. The nudge absorbs binary error (0.2065 is 0.20649…). */
function decimal(value: number): string {
  const text = String(Math.round(value * 1000 + EPSILON * 1000) / 1000);
  return text.includes(".") ? text : `${text}.0`;
}

/** 41234 → 41k, 1250000 → 1.3M, 950 → 950. */
function compactCount(value: number): string {
  if (value >= 1e6) return `${Number((value / 1e6).toFixed(1))}M`;
  if (value >= 1e3) return `${Math.round(value / 1e3)}k`;
  return String(Math.round(value));
}

const dollars = (value: number) => `$${value.toFixed(2)}`;

function against(spent: number | undefined, budget: number | undefined, show: (v: number) => string): string | undefined {
  if (spent === undefined) return undefined;
  return budget === undefined ? show(spent) : `${show(spent)}/${show(budget)}`;
}

function stepCostParts(input: ContextLineInput): string[] {
  if (!input.tier) return [];
  const ceiling = input.budgets?.tokens;
  const withCeiling = ceiling !== undefined && ceiling > 0;
  const next = computeStepCost({
    step: input.step,
    maxSteps: input.maxSteps,
    model: input.tier,
    ...(withCeiling ? { tokens: input.spend?.tokens ?? 0, tokenCeiling: ceiling } : {}),
  });
  const weights = withCeiling ? STEP_COST_WEIGHTS.withCeiling : STEP_COST_WEIGHTS.noCeiling;
  return [input.tier, `StepCost ${decimal(next.value)}`, `respond ${decimal(weights.model * MODEL_RATIOS[input.tier])}`];
}

export function formatContextLine(input: ContextLineInput): string {
  const { spend, budgets } = input;
  const tokens = against(spend?.tokens, budgets?.tokens, compactCount);
  const cost = against(spend?.costUsd, budgets?.costUsd, dollars);
  const agents = against(spend?.agents, budgets?.agents, String);
  const parts = [
    `step ${input.step}/${input.maxSteps}`,
    ...stepCostParts(input),
    ...(tokens ? [`tokens ${tokens}`] : []),
    ...(cost ? [cost] : []),
    ...(agents ? [`agents ${agents}`] : []),
  ];
  return `${CONTEXT_LINE_PREFIX} ${parts.join(" · ")}`;
}
