import { hasBudget } from "../engine/budget.js";
import type { GateBudget } from "../engine/gate.js";
import { DEFAULT_PRICES, withOverride } from "../engine/prices.js";
import type { Spend } from "../engine/spend.js";
import { describeUserConfigProblems, parseUserConfig } from "../optin/user-config.js";
import type { GateSource } from "../state/schema.js";

export interface BudgetContext {
  /** The task's measured spend, its subagents rolled up (the scope-state reducer's). */
  spend: Spend;
  /** The hook's environment: the user's budgets arrive as CLAUDE_PLUGIN_OPTION_*. */
  env: Readonly<Record<string, string | undefined>>;
  /** The gate in force for the scope, if any: its frontmatter budgets. */
  gate: GateSource | undefined;
  /** Subagents the task launched or admitted before this call (parallel calls of one message included). */
  launched: number;
  /** The model making this call (the transcript's message.model), for a computed StepCost. */
  model?: string;
}

/**
 * The gate's budget input for one PreToolUse call, or undefined when no
 * budget applies (no user setting, no budget in the gating file): then the
 * gate decides exactly as without budgets, and the hook need not load spend.
 */
export function gateBudgetFrom(ctx: BudgetContext): GateBudget | undefined {
  const user = parseUserConfig(ctx.env);
  const problem = describeUserConfigProblems(user);
  const gateBudgets = ctx.gate?.budgets;
  if (!problem && !hasBudget(user.budgets) && !(gateBudgets && hasBudget(gateBudgets))) return undefined;
  return {
    spend: ctx.spend,
    user: user.budgets,
    ...(gateBudgets ? { gate: gateBudgets } : {}),
    prices: withOverride(DEFAULT_PRICES, user.prices),
    launched: ctx.launched,
    ...(ctx.model !== undefined ? { model: ctx.model } : {}),
    ...(problem ? { userProblem: problem } : {}),
  };
}

/** Whether any budget may apply to this session from the user's settings: an ungated scope must then load its spend. */
export function userBudgetsSet(env: Readonly<Record<string, string | undefined>>): boolean {
  const user = parseUserConfig(env);
  return user.problems.length > 0 || hasBudget(user.budgets);
}
