// Spend against each budget, for `/utility status` (SPEC §12). Pure.
import { hasBudget, type Budgets } from "../engine/budget.js";
import { estimateCostUsd, formatUsd, type PriceTable } from "../engine/prices.js";
import { totalTokens, type Spend } from "../engine/spend.js";
import { windowHoursOf, type SessionBudgets } from "../engine/session-budget.js";

const n = (v: number) => v.toLocaleString("en-US");
const percent = (part: number, whole: number) => `${Math.floor((part * 100) / whole + 1e-9)}%`;

/** `tokens 1,200 of 5,000 (24%); cost about $0.01 of $0.50 (2%); agents 1 of 2; StepCost computed` */
export function describeAgainstBudgets(spend: Spend, budgets: Budgets, prices: PriceTable): string {
  const tokens = totalTokens(spend.tokens);
  const usd = estimateCostUsd(spend.byModel, prices);
  const parts: string[] = [];
  const spent = (over: boolean) => (over ? ", SPENT: further tool calls are refused" : "");
  if (budgets.tokenBudget !== undefined)
    parts.push(
      `tokens ${n(tokens)} of ${n(budgets.tokenBudget)} (${percent(tokens, budgets.tokenBudget)}${spent(tokens >= budgets.tokenBudget)})`,
    );
  if (budgets.costBudgetUsd !== undefined)
    parts.push(
      `cost about ${formatUsd(usd)} of ${formatUsd(budgets.costBudgetUsd)} (${percent(usd, budgets.costBudgetUsd)}${spent(usd >= budgets.costBudgetUsd)})`,
    );
  if (budgets.maxToolCalls !== undefined)
    parts.push(
      `tool calls ${spend.toolCalls} of ${n(budgets.maxToolCalls)} (${percent(spend.toolCalls, budgets.maxToolCalls)}${spent(spend.toolCalls >= budgets.maxToolCalls)})`,
    );
  if (budgets.maxAgents !== undefined)
    parts.push(
      `agents ${spend.agentsLaunched} of ${budgets.maxAgents}${spend.agentsLaunched >= budgets.maxAgents ? " (no more may launch)" : ""}`,
    );
  if (budgets.stepCost === "computed") parts.push("StepCost computed from measured spend");
  const head = `${n(tokens)} tokens, about ${formatUsd(usd)}, ${spend.toolCalls} tool call${spend.toolCalls === 1 ? "" : "s"}, ${spend.agentsLaunched} subagent${spend.agentsLaunched === 1 ? "" : "s"} launched`;
  return hasBudget(budgets) ? `${head}; ${parts.join("; ")}` : `${head}; no task budget set`;
}

/** A subagent's own spend against its caps (SPEC §16): `tokens 4,000 of 3,000 (133%, SPENT: …); tool calls 2 of 5 (40%)`. */
export function describeAgentCaps(own: Spend, budgets: Budgets, prices: PriceTable): string | undefined {
  const tokens = totalTokens(own.tokens);
  const usd = estimateCostUsd(own.byModel, prices);
  const spent = (over: boolean) => (over ? ", SPENT: its further tool calls are refused" : "");
  const parts: string[] = [];
  const { agentTokenBudget: t, agentCostBudgetUsd: c, agentMaxToolCalls: k } = budgets;
  if (t !== undefined) parts.push(`tokens ${n(tokens)} of ${n(t)} (${percent(tokens, t)}${spent(tokens >= t)})`);
  if (c !== undefined) parts.push(`cost about ${formatUsd(usd)} of ${formatUsd(c)} (${percent(usd, c)}${spent(usd >= c)})`);
  if (k !== undefined) parts.push(`tool calls ${own.toolCalls} of ${n(k)} (${percent(own.toolCalls, k)}${spent(own.toolCalls >= k)})`);
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/** The caps each subagent is held to, for the main scope's line: `tokens 3,000, tool calls 5`. */
export function describeCapsSet(budgets: Budgets): string | undefined {
  const { agentTokenBudget: t, agentCostBudgetUsd: c, agentMaxToolCalls: k } = budgets;
  const parts = [
    ...(t !== undefined ? [`tokens ${n(t)}`] : []),
    ...(c !== undefined ? [`cost ${formatUsd(c)}`] : []),
    ...(k !== undefined ? [`tool calls ${n(k)}`] : []),
  ];
  return parts.length > 0 ? parts.join(", ") : undefined;
}

/** The session's spend against the session budgets that are set (the window's needs the ledger: `utility status` names it only). */
export function describeSessionBudgets(spend: Spend, budgets: SessionBudgets, prices: PriceTable): string {
  const tokens = totalTokens(spend.tokens);
  const usd = estimateCostUsd(spend.byModel, prices);
  const spent = (over: boolean) => (over ? ", SPENT: further tool calls are refused" : "");
  const parts = [`${n(tokens)} tokens, about ${formatUsd(usd)}, ${spend.toolCalls} tool call${spend.toolCalls === 1 ? "" : "s"}`];
  const { sessionTokenBudget: t, sessionCostBudgetUsd: c, sessionMaxToolCalls: k, windowCostBudgetUsd: w } = budgets;
  if (t !== undefined) parts.push(`tokens ${n(tokens)} of ${n(t)} (${percent(tokens, t)}${spent(tokens >= t)})`);
  if (c !== undefined) parts.push(`cost about ${formatUsd(usd)} of ${formatUsd(c)} (${percent(usd, c)}${spent(usd >= c)})`);
  if (k !== undefined)
    parts.push(`tool calls ${spend.toolCalls} of ${n(k)} (${percent(spend.toolCalls, k)}${spent(spend.toolCalls >= k)})`);
  if (w !== undefined) parts.push(`all your sessions: ${formatUsd(w)} per ${windowHoursOf(budgets)} hours (window_cost_budget_usd)`);
  return parts.join("; ");
}
