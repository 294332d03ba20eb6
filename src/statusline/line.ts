// The one line Claude Code's status line shows for a session (SPEC §9): the
// main scope's task and step, its task's spend against the budgets in force,
// whether it is gated, and the last action. Everything comes from the session
// machine's state through its views (SPEC §15): no spend is counted here.
// Pure.
import { tightestBudgets, type Budgets } from "../engine/budget.js";
import { estimateCostUsd, type PriceTable } from "../engine/prices.js";
import { totalTokens } from "../engine/spend.js";
import { scopeAt } from "../engine/session/reduce.js";
import type { GateSource, SessionState } from "../engine/session/state.js";
import { frontmatterBudgetsOf, gateOf, launchesOf, rootSpendOf, sessionSpend } from "../engine/session/views.js";
import { MANUAL_GATE_FILE } from "../engine/gate-policy.js";
import { agentsPastCap } from "../engine/session/budget-input.js";
import type { SessionBudgets } from "../engine/session-budget.js";

export interface StatusLineOptions {
  prices: PriceTable;
  /** The user's budgets, when known better than the state's (the hooks' last view of them). */
  userBudgets?: Budgets;
  /** The user's budgets beyond one task: the session's spend is shown against them when one is set. */
  sessionBudgets?: SessionBudgets;
  /** The terminal's width: the line is cut to it. */
  columns?: number;
}

/** 1234 → "1.2k", 3_400_000 → "3.4M". */
export function shortTokens(n: number): string {
  if (n >= 1e9) return `${trim(n / 1e9)}B`;
  if (n >= 1e6) return `${trim(n / 1e6)}M`;
  if (n >= 1e3) return `${trim(n / 1e3)}k`;
  return String(n);
}

function trim(v: number): string {
  return v >= 100 ? v.toFixed(0) : v.toFixed(1).replace(/\.0$/, "");
}

function usd(v: number): string {
  return v < 0.01 && v > 0 ? `$${v.toFixed(3)}` : `$${v.toFixed(2)}`;
}

/** What gates the scope, in a word: the skill's folder, the agent definition's name, or /utility on. */
export function gateName(gate: GateSource): string {
  if (gate.file === MANUAL_GATE_FILE) return "/utility on";
  const parts = gate.file.split(/[\\/]/).filter(Boolean);
  const last = parts.at(-1) ?? gate.file;
  if (/^SKILL\.md$/i.test(last) && parts.length > 1) return parts.at(-2)!;
  return last.replace(/\.md$/i, "");
}

/** `182k/500k tok`, `$0.41/$2.00`, `2/3 agents`, `3/3 calls SPENT`: a spend, its budget when one is set, its unit. */
function against(spent: string, budget: string | undefined, over: boolean, unit = ""): string {
  const amount = budget === undefined ? spent : `${spent}/${budget}`;
  return `${amount}${unit ? ` ${unit}` : ""}${budget !== undefined && over ? " SPENT" : ""}`;
}

/** The task's spend against the budgets in force: tokens, dollars, and subagents when any is launched or limited. */
function spendParts(session: SessionState, budgets: Budgets, prices: PriceTable): string[] {
  const spend = rootSpendOf(session, "main");
  const tokens = totalTokens(spend.tokens);
  const cost = estimateCostUsd(spend.byModel, prices);
  const agents = launchesOf(session, "main");
  const { tokenBudget, costBudgetUsd, maxAgents, maxToolCalls } = budgets;
  const parts = [
    against(
      shortTokens(tokens),
      tokenBudget === undefined ? undefined : shortTokens(tokenBudget),
      tokenBudget !== undefined && tokens >= tokenBudget,
      "tok",
    ),
    against(usd(cost), costBudgetUsd === undefined ? undefined : usd(costBudgetUsd), costBudgetUsd !== undefined && cost >= costBudgetUsd),
  ];
  if (maxToolCalls !== undefined)
    parts.push(against(String(spend.toolCalls), String(maxToolCalls), spend.toolCalls >= maxToolCalls, "calls"));
  if (maxAgents !== undefined || agents > 0)
    parts.push(against(String(agents), maxAgents === undefined ? undefined : String(maxAgents), false, "agents"));
  return parts;
}

/** The whole session's spend against the session budgets, when one is set: `session 330/200 tok SPENT 3/50 calls`. */
function sessionParts(session: SessionState, budgets: SessionBudgets | undefined, prices: PriceTable): string[] {
  const { sessionTokenBudget, sessionCostBudgetUsd, sessionMaxToolCalls } = budgets ?? {};
  if (sessionTokenBudget === undefined && sessionCostBudgetUsd === undefined && sessionMaxToolCalls === undefined) return [];
  const spend = sessionSpend(session);
  const parts: string[] = [];
  if (sessionTokenBudget !== undefined) {
    const tokens = totalTokens(spend.tokens);
    parts.push(against(shortTokens(tokens), shortTokens(sessionTokenBudget), tokens >= sessionTokenBudget, "tok"));
  }
  if (sessionCostBudgetUsd !== undefined) {
    const cost = estimateCostUsd(spend.byModel, prices);
    parts.push(against(usd(cost), usd(sessionCostBudgetUsd), cost >= sessionCostBudgetUsd));
  }
  if (sessionMaxToolCalls !== undefined)
    parts.push(against(String(spend.toolCalls), String(sessionMaxToolCalls), spend.toolCalls >= sessionMaxToolCalls, "calls"));
  return [`session ${parts.join(" ")}`];
}

/**
 * Gated by what, or not. After `/utility off` its answer says the gate is off,
 * and it is for every task from the next prompt on (no call comes between):
 * the line leads with that, as the answer does (second first-hour walk, surprise 5).
 */
function gatePart(session: SessionState, gate: GateSource | undefined): string {
  if (!gate) return "not gated";
  if (session.pendingOff && gate.file === MANUAL_GATE_FILE) return "/utility off: not gated from your next prompt";
  return `gated (${gateName(gate)})`;
}

/** The status line for a session's state; a line saying so when there is none yet. */
export function statusLine(session: SessionState | undefined, options: StatusLineOptions): string {
  if (!session) return "utility · no tool call seen yet in this session";
  const main = scopeAt(session, "main");
  const gate = gateOf(session, "main");
  const budgets = tightestBudgets(options.userBudgets ?? session.userBudgets, frontmatterBudgetsOf(session, "main"));
  const parts = [
    "utility",
    `task ${main.task} step ${main.step}${gate ? `/${gate.config.maxSteps}` : ""}`,
    ...spendParts(session, budgets, options.prices),
    ...sessionParts(session, options.sessionBudgets, options.prices),
    gatePart(session, gate),
  ];
  const past = agentsPastCap(session, { budgets: options.userBudgets ?? session.userBudgets ?? {} });
  if (past.length > 0) parts.push(`cap hit: ${[...new Set(past.map((p) => p.agentType ?? "subagent"))].join(", ")}`);
  if (main.refusals > 0) parts.push(`${main.refusals} refused`);
  if (main.lastAction !== undefined) parts.push(`last ${main.lastAction}`);
  return fit(parts.join(" · "), options.columns);
}

/** The line cut to the terminal's width, when known. */
function fit(line: string, columns: number | undefined): string {
  return columns !== undefined && columns > 10 && line.length > columns ? `${line.slice(0, columns - 1)}…` : line;
}
