import * as z from "zod/mini";
import { CostBudgetSchema, describeTokens, TokenBudgetSchema, ToolCallsSchema, type BudgetRefusal } from "./budget.js";
import { DEFAULT_WINDOW_HOURS, MAX_WINDOW_HOURS } from "./defaults.js";
import { estimateCostUsd, formatUsd, type PriceTable } from "./prices.js";
import { totalTokens, type Spend } from "./spend.js";

/**
 * Budgets beyond one task (SPEC §12), from the user's settings (or the
 * organization's managed settings, SPEC §17), never frontmatter: the
 * whole session's measured spend, and a rolling window over every session of
 * the user (the spend ledger, src/engine/ledger.ts). Once one is spent, every
 * call that is not a planning tool is refused, in every scope. Pure.
 */

export const SESSION_BUDGET_OPTIONS = [
  "session_token_budget",
  "session_cost_budget_usd",
  "session_max_tool_calls",
  "window_cost_budget_usd",
  "window_hours",
] as const;
export type SessionBudgetOption = (typeof SESSION_BUDGET_OPTIONS)[number];

export const WindowHoursSchema = z.number().check(z.gte(1), z.lte(MAX_WINDOW_HOURS));

export const SessionBudgetsSchema = z.object({
  sessionTokenBudget: z.optional(TokenBudgetSchema),
  sessionCostBudgetUsd: z.optional(CostBudgetSchema),
  /** Tool calls the whole session may make (SPEC §16). */
  sessionMaxToolCalls: z.optional(ToolCallsSchema),
  windowCostBudgetUsd: z.optional(CostBudgetSchema),
  /** The window's length; DEFAULT_WINDOW_HOURS when absent. */
  windowHours: z.optional(WindowHoursSchema),
});
export type SessionBudgets = z.infer<typeof SessionBudgetsSchema>;

/** The field each option sets, and what it must be, in words. */
export const SESSION_BUDGET_FIELD: Record<SessionBudgetOption, keyof SessionBudgets> = {
  session_token_budget: "sessionTokenBudget",
  session_cost_budget_usd: "sessionCostBudgetUsd",
  session_max_tool_calls: "sessionMaxToolCalls",
  window_cost_budget_usd: "windowCostBudgetUsd",
  window_hours: "windowHours",
};
export const SESSION_BUDGET_EXPECTED: Record<SessionBudgetOption, string> = {
  session_token_budget: "a whole number of at least 1",
  session_cost_budget_usd: "a number of US dollars greater than 0, such as 5",
  session_max_tool_calls: "a whole number of at least 1",
  window_cost_budget_usd: "a number of US dollars greater than 0, such as 20",
  window_hours: `a number of hours from 1 to ${MAX_WINDOW_HOURS}, such as ${DEFAULT_WINDOW_HOURS}`,
};
export const SESSION_BUDGET_SCHEMAS: Record<SessionBudgetOption, z.ZodMiniType> = {
  session_token_budget: TokenBudgetSchema,
  session_cost_budget_usd: CostBudgetSchema,
  session_max_tool_calls: ToolCallsSchema,
  window_cost_budget_usd: CostBudgetSchema,
  window_hours: WindowHoursSchema,
};

export function hasSessionBudget(b: SessionBudgets | undefined): boolean {
  return (
    b !== undefined &&
    (b.sessionTokenBudget !== undefined ||
      b.sessionCostBudgetUsd !== undefined ||
      b.sessionMaxToolCalls !== undefined ||
      b.windowCostBudgetUsd !== undefined)
  );
}

export function windowHoursOf(b: SessionBudgets | undefined): number {
  return b?.windowHours ?? DEFAULT_WINDOW_HOURS;
}

export interface BeyondTaskSpend {
  /** The whole session's measured spend (every scope, every task). */
  session: Spend;
  /** What every session of the user spent in the window, as the ledger says; absent when it was not read (no window budget, or replay). */
  window?: Spend;
}

const n = (v: number) => v.toLocaleString("en-US");
const RESPOND_OR_STOP = "Respond with what you have, or stop.";

/** `session_token_budget`, or `your organization's session_token_budget setting` when the organization set it (SPEC §17). */
function named(option: SessionBudgetOption, organization: readonly string[]): string {
  return organization.includes(option) ? `your organization's ${option} setting` : option;
}

/**
 * `budget_spent` for the session's tokens or dollars, then the window's
 * dollars: the first budget spent, named, as the organization's when
 * `organization` (option names) holds it.
 */
export function checkSessionBudgets(
  spent: BeyondTaskSpend,
  budgets: SessionBudgets,
  prices: PriceTable,
  organization: readonly string[] = [],
): BudgetRefusal | undefined {
  const name = (option: SessionBudgetOption) => named(option, organization);
  const tokens = totalTokens(spent.session.tokens);
  if (budgets.sessionTokenBudget !== undefined && tokens >= budgets.sessionTokenBudget)
    return {
      rule: "budget_spent",
      reason: `This session's token budget is spent: ${n(tokens)} tokens of ${n(budgets.sessionTokenBudget)} (${name("session_token_budget")}; ${describeTokens(spent.session.tokens)}). ${RESPOND_OR_STOP}`,
    };
  if (budgets.sessionCostBudgetUsd !== undefined) {
    const usd = estimateCostUsd(spent.session.byModel, prices);
    if (usd >= budgets.sessionCostBudgetUsd)
      return {
        rule: "budget_spent",
        reason: `This session's cost budget is spent: an estimated ${formatUsd(usd)} of ${formatUsd(budgets.sessionCostBudgetUsd)} (${name("session_cost_budget_usd")}; ${n(tokens)} tokens at the prices of ${prices.date}). ${RESPOND_OR_STOP}`,
      };
  }
  if (budgets.sessionMaxToolCalls !== undefined && spent.session.toolCalls >= budgets.sessionMaxToolCalls)
    return {
      rule: "budget_spent",
      reason: `This session's tool-call budget is spent: ${n(spent.session.toolCalls)} tool calls of ${n(budgets.sessionMaxToolCalls)} (${name("session_max_tool_calls")}). ${RESPOND_OR_STOP}`,
    };
  if (budgets.windowCostBudgetUsd !== undefined && spent.window) {
    const usd = estimateCostUsd(spent.window.byModel, prices);
    const hours = windowHoursOf(budgets);
    if (usd >= budgets.windowCostBudgetUsd)
      return {
        rule: "budget_spent",
        reason: `Your cost budget for the last ${n(hours)} hours, across all your sessions, is spent: an estimated ${formatUsd(usd)} of ${formatUsd(budgets.windowCostBudgetUsd)} (${name("window_cost_budget_usd")}, window_hours ${n(hours)}; ${n(totalTokens(spent.window.tokens))} tokens at the prices of ${prices.date}). ${RESPOND_OR_STOP} It frees up as the window moves on.`,
      };
  }
  return undefined;
}
