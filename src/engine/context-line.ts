import type { Budgets } from "./budget.js";
import { EPSILON } from "./defaults.js";
import { estimateCostUsd, type PriceTable } from "./prices.js";
import { totalTokens, type Spend } from "./spend.js";
import { respondStepCost, toolStepCost, type ModelTier } from "./step-cost.js";
import type { Scope } from "./vocabulary.js";

/**
 * The one line the hooks give a gated model (issue 15, issue 20): what the
 * plugin measures (steps taken, tier, spend against budgets) and the StepCost
 * each action it may still take would pay, so the model copies numbers
 * instead of working them out. It comes before the first call of a gated
 * task (when the skill or agent that gates it loads) and after every call
 * that passes. Few tokens: ` · ` separated, no labels it does not need.
 *
 *   utility: 3 of 10 steps taken · opus · StepCost retrieve/verify/tool_call/delegate 0.503 · respond 0.29 · stop 0
 *   utility: 10 of 10 steps taken · opus · no tool call left · StepCost respond 0.29 · stop 0
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
  /** The tier of the model that writes the scope's messages; without it no StepCost is given. */
  tier?: ModelTier;
  /** Whose actions the line lists (a subagent has no delegate); self when not given. */
  scope?: Scope;
  /** Subagents the task has launched: in dispatch scope their coordination overhead is in the StepCost. */
  agentsLaunched?: number;
  /** No tool call may run any more, besides a spent step budget: a spent token or cost budget, a subagent started past the agent budget. */
  closed?: boolean;
  /** No further subagent may launch (the agent budget is reached): delegate is not listed. */
  noDelegate?: boolean;
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
export function compactCount(value: number): string {
  if (value >= 1e6) return `${Number((value / 1e6).toFixed(1))}M`;
  if (value >= 1e3) return `${Math.round(value / 1e3)}k`;
  return String(Math.round(value));
}

const dollars = (value: number) => `$${value.toFixed(2)}`;

function against(spent: number | undefined, budget: number | undefined, show: (v: number) => string): string | undefined {
  if (spent === undefined) return undefined;
  return budget === undefined ? show(spent) : `${show(spent)}/${show(budget)}`;
}

/** The actions that take a tool and are still open, by name: they all pay one StepCost. */
function toolActions(input: ContextLineInput): string {
  const delegates = input.scope !== "subagent" && input.noDelegate !== true;
  return ["retrieve", "verify", "tool_call", ...(delegates ? ["delegate"] : [])].join("/");
}

/** No tool call may run: the step budget or another budget is spent. */
export function lineClosed(input: Pick<ContextLineInput, "step" | "maxSteps" | "closed">): boolean {
  return input.closed === true || input.step >= input.maxSteps;
}

function stepCostParts(input: ContextLineInput): string[] {
  if (!input.tier) return [];
  const ceiling = input.budgets?.tokens !== undefined && input.budgets.tokens > 0 ? input.budgets.tokens : undefined;
  const respond = `respond ${decimal(respondStepCost(input.tier, ceiling))}`;
  if (lineClosed(input)) return [input.tier, "no tool call left", `StepCost ${respond}`, "stop 0"];
  const tools = toolStepCost({
    scope: input.scope ?? "self",
    step: input.step,
    maxSteps: input.maxSteps,
    model: input.tier,
    ...(ceiling !== undefined ? { tokens: input.spend?.tokens ?? 0, tokenCeiling: ceiling } : {}),
    agentsLaunched: input.agentsLaunched ?? 0,
  });
  return [input.tier, `StepCost ${toolActions(input)} ${decimal(tools.value)}`, respond, "stop 0"];
}

export function formatContextLine(input: ContextLineInput): string {
  const { spend, budgets } = input;
  const tokens = against(spend?.tokens, budgets?.tokens, compactCount);
  const cost = against(spend?.costUsd, budgets?.costUsd, dollars);
  const agents = against(spend?.agents, budgets?.agents, String);
  const parts = [
    `${input.step} of ${input.maxSteps} steps taken`,
    ...stepCostParts(input),
    ...(tokens ? [`tokens ${tokens}`] : []),
    ...(cost ? [cost] : []),
    ...(agents ? [`agents ${agents}`] : []),
  ];
  return `${CONTEXT_LINE_PREFIX} ${parts.join(" · ")}`;
}
