// Spend against each budget, for `/utility status` (SPEC §12). Pure.
import { hasBudget, isAgentLaunch, type Budgets } from "../engine/budget.js";
import { estimateCostUsd, formatUsd, type PriceTable } from "../engine/prices.js";
import { totalTokens, zeroSpend, type Spend } from "../engine/spend.js";
import { scopeKey as keyOf, type LogRecord } from "../log/record.js";
import { summarizeSpend } from "./spend.js";

const n = (v: number) => v.toLocaleString("en-US");
const percent = (part: number, whole: number) => `${Math.floor((part * 100) / whole + 1e-9)}%`;

/** `tokens 1,200 of 5,000 (24%); cost about $0.01 of $0.50 (2%); agents 1 of 2; StepCost computed` */
export function describeAgainstBudgets(spend: Spend, budgets: Budgets, prices: PriceTable): string {
  const tokens = totalTokens(spend.tokens);
  const usd = estimateCostUsd(spend.byModel, prices);
  const parts: string[] = [];
  const spent = (over: boolean) => (over ? ", SPENT: further tool calls are refused" : "");
  if (budgets.tokenBudget !== undefined) parts.push(`tokens ${n(tokens)} of ${n(budgets.tokenBudget)} (${percent(tokens, budgets.tokenBudget)}${spent(tokens >= budgets.tokenBudget)})`);
  if (budgets.costBudgetUsd !== undefined) parts.push(`cost about ${formatUsd(usd)} of ${formatUsd(budgets.costBudgetUsd)} (${percent(usd, budgets.costBudgetUsd)}${spent(usd >= budgets.costBudgetUsd)})`);
  if (budgets.maxAgents !== undefined) parts.push(`agents ${spend.agentsLaunched} of ${budgets.maxAgents}${spend.agentsLaunched >= budgets.maxAgents ? " (no more may launch)" : ""}`);
  if (budgets.stepCost === "computed") parts.push("StepCost computed from measured spend");
  const head = `${n(tokens)} tokens, about ${formatUsd(usd)}, ${spend.toolCalls} tool call${spend.toolCalls === 1 ? "" : "s"}, ${spend.agentsLaunched} subagent${spend.agentsLaunched === 1 ? "" : "s"} launched`;
  return hasBudget(budgets) ? `${head}; ${parts.join("; ")}` : `${head}; no budget set`;
}

/**
 * A scope's spend in one task from its records: a stand-in for the
 * scope-state reducer's Spend, which also rolls subagents up into the task.
 * Tool calls are the records that ran; agents are Agent/Task calls that ran.
 */
export function spendFromRecords(records: readonly LogRecord[], scopeKey: string, task: number, prices: PriceTable): Spend {
  const mine = records.filter((r) => keyOf(r) === scopeKey && r.task === task);
  const summary = summarizeSpend(mine, prices);
  const spend = zeroSpend();
  spend.tokens = summary.total.tokens;
  spend.byModel = summary.total.byModel;
  const ran = mine.filter((r) => r.event === "PreToolUse" && (r.decision === "passed" || r.decision === "observed"));
  spend.toolCalls = ran.length;
  spend.agentsLaunched = ran.filter((r) => r.tool !== undefined && isAgentLaunch(r.tool)).length;
  return spend;
}
