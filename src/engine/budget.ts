import * as z from "zod/mini";
import { estimateCostUsd, formatUsd, type PriceTable } from "./prices.js";
import { totalTokens, type Spend, type TokenCounts } from "./spend.js";
import { launchesAgents } from "./tools.js";

/**
 * Budgets on what a task spends (SPEC §12), and the rules that refuse a tool
 * call once one is reached. Pure: the caller hands in the task's measured
 * spend, the budgets in force and the price table.
 */

export const BUDGET_KEYS = [
  "utility_token_budget",
  "utility_cost_budget_usd",
  "utility_max_agents",
  "utility_max_tool_calls",
  "utility_agent_token_budget",
  "utility_agent_cost_budget_usd",
  "utility_agent_max_tool_calls",
  "utility_step_cost",
] as const;
export type BudgetKey = (typeof BUDGET_KEYS)[number];

export const STEP_COST_MODES = ["reported", "computed"] as const;
export type StepCostMode = (typeof STEP_COST_MODES)[number];

export const TokenBudgetSchema = z.int().check(z.gte(1));
export const CostBudgetSchema = z.number().check(z.gt(0), z.refine(Number.isFinite));
export const MaxAgentsSchema = z.int().check(z.gte(0));
export const ToolCallsSchema = z.int().check(z.gte(1));
export const StepCostModeSchema = z.enum(STEP_COST_MODES);

/** Each budget key's schema: frontmatter, the user's settings and `utility check` all check a value with it. */
export const BUDGET_SCHEMAS: Record<BudgetKey, z.ZodMiniType> = {
  utility_token_budget: TokenBudgetSchema,
  utility_cost_budget_usd: CostBudgetSchema,
  utility_max_agents: MaxAgentsSchema,
  utility_max_tool_calls: ToolCallsSchema,
  utility_agent_token_budget: TokenBudgetSchema,
  utility_agent_cost_budget_usd: CostBudgetSchema,
  utility_agent_max_tool_calls: ToolCallsSchema,
  utility_step_cost: StepCostModeSchema,
};

/** What each budget key must be, in words, for every message that rejects one. */
export const BUDGET_EXPECTED: Record<BudgetKey, string> = {
  utility_token_budget: "a whole number of at least 1",
  utility_cost_budget_usd: "a number of US dollars greater than 0, such as 0.5",
  utility_max_agents: "a whole number of at least 0",
  utility_max_tool_calls: "a whole number of at least 1",
  utility_agent_token_budget: "a whole number of at least 1",
  utility_agent_cost_budget_usd: "a number of US dollars greater than 0, such as 0.5",
  utility_agent_max_tool_calls: "a whole number of at least 1",
  utility_step_cost: STEP_COST_MODES.join(" or "),
};

export const BudgetsSchema = z.object({
  tokenBudget: z.optional(TokenBudgetSchema),
  costBudgetUsd: z.optional(CostBudgetSchema),
  maxAgents: z.optional(MaxAgentsSchema),
  /** Tool calls a task may make (SPEC §16). */
  maxToolCalls: z.optional(ToolCallsSchema),
  /** Caps on one subagent's own spend (SPEC §16): tokens, dollars, tool calls. */
  agentTokenBudget: z.optional(TokenBudgetSchema),
  agentCostBudgetUsd: z.optional(CostBudgetSchema),
  agentMaxToolCalls: z.optional(ToolCallsSchema),
  stepCost: z.optional(StepCostModeSchema),
});
export type Budgets = z.infer<typeof BudgetsSchema>;

/** The field of `Budgets` each key sets. */
export const BUDGET_FIELD: Record<BudgetKey, keyof Budgets> = {
  utility_token_budget: "tokenBudget",
  utility_cost_budget_usd: "costBudgetUsd",
  utility_max_agents: "maxAgents",
  utility_max_tool_calls: "maxToolCalls",
  utility_agent_token_budget: "agentTokenBudget",
  utility_agent_cost_budget_usd: "agentCostBudgetUsd",
  utility_agent_max_tool_calls: "agentMaxToolCalls",
  utility_step_cost: "stepCost",
};

/** The budgets that are limits (numbers): the smallest of each wins. */
export const LIMIT_FIELDS = [
  "tokenBudget",
  "costBudgetUsd",
  "maxAgents",
  "maxToolCalls",
  "agentTokenBudget",
  "agentCostBudgetUsd",
  "agentMaxToolCalls",
] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

/** How a message names each budget: by the key that set it (frontmatter), or as the user's setting. */
export type BudgetNames = Record<keyof Budgets, string>;

/** The frontmatter keys: how a budget set in a skill's or agent's frontmatter is named. */
export const FRONTMATTER_NAMES = Object.fromEntries(BUDGET_KEYS.map((key) => [BUDGET_FIELD[key], key])) as BudgetNames;

/** The user's plugin settings, as the user sets them (SPEC §10: a message names the setting the user set). */
export const SETTING_NAMES = Object.fromEntries(
  BUDGET_KEYS.map((key) => [BUDGET_FIELD[key], `your ${key.slice("utility_".length)} setting`]),
) as BudgetNames;

/** The setting an organization set in Claude Code's managed settings (SPEC §17), as a message names it. */
const ORGANIZATION_NAMES = Object.fromEntries(
  BUDGET_KEYS.map((key) => [BUDGET_FIELD[key], `your organization's ${key.slice("utility_".length)} setting`]),
) as BudgetNames;

/**
 * Which source each budget in force comes from (see tightestBudgets): the
 * frontmatter's when it is the smaller (or the only one), else the user's
 * setting, or the organization's when `organization` (option names) holds it.
 * A tie names the frontmatter, which the model can read.
 */
export function budgetNames(user: Budgets | undefined, gate: Budgets | undefined, organization: readonly string[] = []): BudgetNames {
  const fromUser = (field: LimitField) => {
    const mine = user?.[field];
    const theirs = gate?.[field];
    return mine !== undefined && (theirs === undefined || mine < theirs);
  };
  const names = { ...FRONTMATTER_NAMES };
  const setting = (field: keyof Budgets) =>
    organization.includes(FRONTMATTER_NAMES[field].slice("utility_".length)) ? ORGANIZATION_NAMES[field] : SETTING_NAMES[field];
  for (const field of LIMIT_FIELDS) if (fromUser(field)) names[field] = setting(field);
  if (user?.stepCost === "computed" && gate?.stepCost !== "computed") names.stepCost = setting("stepCost");
  return names;
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
    for (const field of LIMIT_FIELDS) {
      const value = smaller(out[field], b[field]);
      if (value !== undefined) out[field] = value;
    }
    if (b.stepCost === "computed" || (b.stepCost === "reported" && out.stepCost === undefined)) out.stepCost = b.stepCost;
  }
  return out;
}

export function hasBudget(b: Budgets): boolean {
  return LIMIT_FIELDS.some((field) => b[field] !== undefined) || b.stepCost === "computed";
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
  if (budgets.maxToolCalls !== undefined && spend.toolCalls >= budgets.maxToolCalls)
    return {
      rule: "budget_spent",
      reason: `This task's tool-call budget is spent: ${n(spend.toolCalls)} tool calls of ${n(budgets.maxToolCalls)} (${names.maxToolCalls}). ${RESPOND_OR_STOP}`,
    };
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
