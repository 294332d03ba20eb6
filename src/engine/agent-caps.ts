import type { BudgetNames, BudgetRefusal, Budgets } from "./budget.js";
import { estimateCostUsd, formatUsd, type PriceTable } from "./prices.js";
import { totalTokens, type Spend } from "./spend.js";

/**
 * Caps on what one subagent spends (SPEC §16): its own tokens, dollars and
 * tool calls, whatever kind of subagent it is. Once one is reached, its next
 * tool call is refused and it is told to stop and report; its parent and the
 * rest of the session go on (they are not this scope). Pure.
 */

/** A subagent's own spend (its scope's, in its life; nested subagents have their own), and how a message names it. */
export interface AgentSpend {
  spend: Spend;
  /** `the subagent Explore (agent a1b2c3)`. */
  label: string;
}

/** Does any per-agent cap apply? */
export function hasAgentCap(budgets: Budgets): boolean {
  return budgets.agentTokenBudget !== undefined || budgets.agentCostBudgetUsd !== undefined || budgets.agentMaxToolCalls !== undefined;
}

/** How a subagent is named in messages: its type, and the id Claude Code gave it. */
export function agentLabel(agentType: string | undefined, agentId: string): string {
  return `the subagent ${agentType ?? "(no type)"} (agent ${agentId})`;
}

const n = (v: number) => v.toLocaleString("en-US");
const STOP_AND_REPORT = "Stop now: reply to your parent with what you found and what is left to do. Your parent goes on.";

/** `budget_spent` for a subagent past one of its own caps: the first cap reached, named with the agent. */
export function checkAgentCaps(agent: AgentSpend, budgets: Budgets, prices: PriceTable, names: BudgetNames): BudgetRefusal | undefined {
  const { spend, label } = agent;
  const tokens = totalTokens(spend.tokens);
  if (budgets.agentTokenBudget !== undefined && tokens >= budgets.agentTokenBudget)
    return spent(`${label} has spent its token cap: ${n(tokens)} tokens of ${n(budgets.agentTokenBudget)} (${names.agentTokenBudget}).`);
  if (budgets.agentCostBudgetUsd !== undefined) {
    const usd = estimateCostUsd(spend.byModel, prices);
    if (usd >= budgets.agentCostBudgetUsd)
      return spent(
        `${label} has spent its cost cap: an estimated ${formatUsd(usd)} of ${formatUsd(budgets.agentCostBudgetUsd)} (${names.agentCostBudgetUsd}; ${n(tokens)} tokens at the prices of ${prices.date}).`,
      );
  }
  if (budgets.agentMaxToolCalls !== undefined && spend.toolCalls >= budgets.agentMaxToolCalls)
    return spent(
      `${label} has made its ${n(budgets.agentMaxToolCalls)} tool call${budgets.agentMaxToolCalls === 1 ? "" : "s"} (${names.agentMaxToolCalls}).`,
    );
  return undefined;
}

function spent(what: string): BudgetRefusal {
  return { rule: "budget_spent", reason: `${what} ${STOP_AND_REPORT}` };
}
