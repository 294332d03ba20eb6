import * as z from "zod/mini";
import type { Scope } from "./vocabulary.js";
import { EPSILON, MODEL_RATIOS, STEP_COST_TOLERANCE, STEP_COST_WEIGHTS } from "./defaults.js";
import { estimateCostUsd, formatUsd, FALLBACK_FAMILY, tierOf, type PriceTable } from "./prices.js";
import { totalTokens, type Spend, type TokenCounts } from "./spend.js";
import { dispatchOverhead, toolStepCost, type ModelTier, type StepCost } from "./step-cost.js";
import { formatUtility } from "./utility.js";
import { launchesAgents } from "./tools.js";

/**
 * Budgets on what a task spends (SPEC §12), and the rules that refuse a tool
 * call once one is reached. Pure: the caller hands in the task's measured
 * spend, the budgets in force and the price table.
 */

export const BUDGET_KEYS = ["utility_token_budget", "utility_cost_budget_usd", "utility_max_agents", "utility_step_cost"] as const;
export type BudgetKey = (typeof BUDGET_KEYS)[number];

export const STEP_COST_MODES = ["reported", "computed"] as const;
export type StepCostMode = (typeof STEP_COST_MODES)[number];

export const TokenBudgetSchema = z.int().check(z.gte(1));
export const CostBudgetSchema = z.number().check(z.gt(0), z.refine(Number.isFinite));
export const MaxAgentsSchema = z.int().check(z.gte(0));
export const StepCostModeSchema = z.enum(STEP_COST_MODES);

/** What each budget key must be, in words, for every message that rejects one. */
export const BUDGET_EXPECTED: Record<BudgetKey, string> = {
  utility_token_budget: "a whole number of at least 1",
  utility_cost_budget_usd: "a number of US dollars greater than 0, such as 0.5",
  utility_max_agents: "a whole number of at least 0",
  utility_step_cost: STEP_COST_MODES.join(" or "),
};

export const BudgetsSchema = z.object({
  tokenBudget: z.optional(TokenBudgetSchema),
  costBudgetUsd: z.optional(CostBudgetSchema),
  maxAgents: z.optional(MaxAgentsSchema),
  stepCost: z.optional(StepCostModeSchema),
});
export type Budgets = z.infer<typeof BudgetsSchema>;

/** The field of `Budgets` each key sets. */
export const BUDGET_FIELD: Record<BudgetKey, keyof Budgets> = {
  utility_token_budget: "tokenBudget",
  utility_cost_budget_usd: "costBudgetUsd",
  utility_max_agents: "maxAgents",
  utility_step_cost: "stepCost",
};

/** How a message names each budget: by the key that set it (frontmatter), or as the user's setting. */
export type BudgetNames = Record<keyof Budgets, string>;

/** The frontmatter keys: how a budget set in a skill's or agent's frontmatter is named. */
export const FRONTMATTER_NAMES: BudgetNames = {
  tokenBudget: "utility_token_budget",
  costBudgetUsd: "utility_cost_budget_usd",
  maxAgents: "utility_max_agents",
  stepCost: "utility_step_cost",
};

/** The user's plugin settings, as the user sets them (SPEC §10: a message names the setting the user set). */
export const SETTING_NAMES: BudgetNames = {
  tokenBudget: "your token_budget setting",
  costBudgetUsd: "your cost_budget_usd setting",
  maxAgents: "your max_agents setting",
  stepCost: "your step_cost setting",
};

/**
 * Which source each budget in force comes from (see tightestBudgets): the
 * frontmatter's when it is the smaller (or the only one), else the user's
 * setting. A tie names the frontmatter, which the model can read.
 */
export function budgetNames(user: Budgets | undefined, gate: Budgets | undefined): BudgetNames {
  const fromUser = (field: "tokenBudget" | "costBudgetUsd" | "maxAgents") =>
    user?.[field] !== undefined && (gate?.[field] === undefined || user[field] < gate[field]);
  const userComputed = user?.stepCost === "computed" && gate?.stepCost !== "computed";
  return {
    tokenBudget: (fromUser("tokenBudget") ? SETTING_NAMES : FRONTMATTER_NAMES).tokenBudget,
    costBudgetUsd: (fromUser("costBudgetUsd") ? SETTING_NAMES : FRONTMATTER_NAMES).costBudgetUsd,
    maxAgents: (fromUser("maxAgents") ? SETTING_NAMES : FRONTMATTER_NAMES).maxAgents,
    stepCost: (userComputed ? SETTING_NAMES : FRONTMATTER_NAMES).stepCost,
  };
}

function smaller(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/** Budgets only tighten: the smallest of each wins, and `computed` wins over `reported`. */
export function tightestBudgets(...all: ReadonlyArray<Budgets | undefined>): Budgets {
  const out: Budgets = {};
  for (const b of all) {
    if (!b) continue;
    const tokenBudget = smaller(out.tokenBudget, b.tokenBudget);
    const costBudgetUsd = smaller(out.costBudgetUsd, b.costBudgetUsd);
    const maxAgents = smaller(out.maxAgents, b.maxAgents);
    if (tokenBudget !== undefined) out.tokenBudget = tokenBudget;
    if (costBudgetUsd !== undefined) out.costBudgetUsd = costBudgetUsd;
    if (maxAgents !== undefined) out.maxAgents = maxAgents;
    if (b.stepCost === "computed" || (b.stepCost === "reported" && out.stepCost === undefined)) out.stepCost = b.stepCost;
  }
  return out;
}

export function hasBudget(b: Budgets): boolean {
  return b.tokenBudget !== undefined || b.costBudgetUsd !== undefined || b.maxAgents !== undefined || b.stepCost === "computed";
}

export type BudgetRule = "budget_spent" | "agents_exhausted" | "step_cost_understated";
export interface BudgetRefusal {
  rule: BudgetRule;
  reason: string;
}

const n = (v: number) => v.toLocaleString("en-US");
const RESPOND_OR_STOP = "Respond with what you have, or stop.";

export function describeTokens(t: TokenCounts): string {
  return `input ${n(t.input)}, output ${n(t.output)}, cache writes ${n(t.cacheCreation)}, cache reads ${n(t.cacheRead)}`;
}

/** `budget_spent`: once the task's tokens or estimated dollars reach a budget, every further tool call is refused. */
export function checkSpendBudget(
  spend: Spend,
  budgets: Budgets,
  prices: PriceTable,
  names: BudgetNames = FRONTMATTER_NAMES,
): BudgetRefusal | undefined {
  const tokens = totalTokens(spend.tokens);
  if (budgets.tokenBudget !== undefined && tokens >= budgets.tokenBudget) {
    return {
      rule: "budget_spent",
      reason: `This task's token budget is spent: ${n(tokens)} tokens of ${n(budgets.tokenBudget)} (${names.tokenBudget}; ${describeTokens(spend.tokens)}). ${RESPOND_OR_STOP}`,
    };
  }
  if (budgets.costBudgetUsd !== undefined) {
    const usd = estimateCostUsd(spend.byModel, prices);
    if (usd >= budgets.costBudgetUsd) {
      return {
        rule: "budget_spent",
        reason: `This task's cost budget is spent: an estimated ${formatUsd(usd)} of ${formatUsd(budgets.costBudgetUsd)} (${names.costBudgetUsd}; ${n(tokens)} tokens at the prices of ${prices.date}). ${RESPOND_OR_STOP}`,
      };
    }
  }
  return undefined;
}

/** `budget_spent` for a gated task's steps (SPEC §6): `step` already taken of `maxSteps`. */
export function checkStepBudget(step: number, maxSteps: number): BudgetRefusal | undefined {
  if (step < maxSteps) return undefined;
  return { rule: "budget_spent", reason: `The step budget is spent: ${step} of ${maxSteps} steps taken. ${RESPOND_OR_STOP}` };
}

/**
 * `agents_exhausted`: a call that launches agents (src/engine/tools.ts
 * `launchesAgents`, or a Skill call that acts as `delegate`) past
 * `utility_max_agents`. `launched` is how many this task has launched or
 * admitted before this call, parallel calls of one message included, so of
 * several launched together those within the limit go on and only the rest
 * are refused.
 */
export function checkAgentLimit(
  tool: string,
  launched: number,
  budgets: Budgets,
  launches: boolean = launchesAgents(tool),
  names: BudgetNames = FRONTMATTER_NAMES,
): BudgetRefusal | undefined {
  if (!launches || budgets.maxAgents === undefined || launched < budgets.maxAgents) return undefined;
  return {
    rule: "agents_exhausted",
    reason: `This task may launch ${budgets.maxAgents} subagent${budgets.maxAgents === 1 ? "" : "s"} (${names.maxAgents}) and has launched ${launched}: this ${tool} call would be one more. Do the rest yourself, or respond with what the subagents found, or stop.`,
  };
}

/**
 * `agents_exhausted` inside a subagent that started past the task's
 * `utility_max_agents` (a Workflow, a forked skill or a nested launch can
 * start several at once; SPEC §12 counts what starts): none of its calls run.
 */
export function checkStartedPastLimit(
  startedAs: number | undefined,
  budgets: Budgets,
  names: BudgetNames = FRONTMATTER_NAMES,
): BudgetRefusal | undefined {
  if (startedAs === undefined || budgets.maxAgents === undefined || startedAs <= budgets.maxAgents) return undefined;
  return {
    rule: "agents_exhausted",
    reason: `This subagent is number ${startedAs} of its task, which may launch ${budgets.maxAgents} (${names.maxAgents}): it started past the limit, so none of its tool calls may run. Respond with what you know, or stop.`,
  };
}

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
