import { tightestBudgets } from "./budget.js";
import { BUDGET_NOTICE_THRESHOLDS } from "./defaults.js";
import type { GateBudget } from "./gate-input.js";
import { compactCount } from "./context-line.js";
import { estimateCostUsd } from "./prices.js";
import { totalTokens, type Spend } from "./spend.js";

/**
 * The budget in the model's view (SPEC §16): wherever a budget binds a
 * scope, gated or not, the model is told what is left when the scope starts,
 * and again when a budget crosses one half, four fifths and all of it; never
 * otherwise, so it costs a few tokens per task. Pure: the caller keeps what
 * was told (the scope's `budgetTold`) and hands it back.
 */

export type GaugeSpan = "task" | "session" | "window" | "agent";
export type GaugeUnit = "tokens" | "usd" | "calls" | "agents";

/** One budget that binds a scope, and what is spent against it. */
export interface Gauge {
  /** `task.tokens`, `agent.calls`, …: what the scope's record of levels told is keyed by. */
  id: string;
  span: GaugeSpan;
  unit: GaugeUnit;
  used: number;
  limit: number;
}

/** Every budget that binds the scope, with what is spent against it: the task's, the session's, the window's and the subagent's own. */
export function gaugesOf(budget: GateBudget): Gauge[] {
  const b = tightestBudgets(budget.user, budget.gate);
  const gauges: Gauge[] = [];
  const add = (span: GaugeSpan, unit: GaugeUnit, used: number, limit: number | undefined) => {
    if (limit !== undefined) gauges.push({ id: `${span}.${unit}`, span, unit, used, limit });
  };
  const usd = (spend: Spend) => estimateCostUsd(spend.byModel, budget.prices);
  if (budget.agent) {
    const own = budget.agent.spend;
    add("agent", "tokens", totalTokens(own.tokens), b.agentTokenBudget);
    add("agent", "usd", usd(own), b.agentCostBudgetUsd);
    add("agent", "calls", own.toolCalls, b.agentMaxToolCalls);
  }
  add("task", "tokens", totalTokens(budget.spend.tokens), b.tokenBudget);
  add("task", "usd", usd(budget.spend), b.costBudgetUsd);
  add("task", "calls", budget.spend.toolCalls, b.maxToolCalls);
  add("task", "agents", budget.launched, b.maxAgents);
  const beyond = budget.beyond;
  if (beyond) {
    const session = beyond.spent.session;
    add("session", "tokens", totalTokens(session.tokens), beyond.budgets.sessionTokenBudget);
    add("session", "usd", usd(session), beyond.budgets.sessionCostBudgetUsd);
    add("session", "calls", session.toolCalls, beyond.budgets.sessionMaxToolCalls);
    if (beyond.spent.window) add("window", "usd", usd(beyond.spent.window), beyond.budgets.windowCostBudgetUsd);
  }
  return gauges;
}

/** How many thresholds (one half, four fifths, all) the spend has crossed: 0 to 3. */
export function levelOf(gauge: Pick<Gauge, "used" | "limit">): number {
  return BUDGET_NOTICE_THRESHOLDS.filter((t) => gauge.used >= t * gauge.limit).length;
}

export interface BudgetNotice {
  /** What the model is told; absent when nothing is to be told. */
  text?: string;
  /** Each gauge's level as told now: the scope's record, to hand back next time. */
  levels: Record<string, number>;
}

/**
 * What to tell the model: with nothing told yet in this scope and task
 * (`told` undefined), what is left of the budgets whose span `atStart`
 * names (a subagent: only its own caps, so that several subagents do not
 * each pay for the task's); else the budgets that crossed a threshold
 * since, and any that came to bind it since.
 */
export function budgetNotice(
  gauges: readonly Gauge[],
  told: Readonly<Record<string, number>> | undefined,
  atStart: (span: GaugeSpan) => boolean = () => true,
): BudgetNotice {
  const levels = Object.fromEntries(gauges.map((g) => [g.id, levelOf(g)]));
  if (gauges.length === 0) return { levels };
  if (told === undefined) {
    const shown = gauges.filter((g) => atStart(g.span));
    return shown.length > 0 ? { text: `utility budget left: ${leftOf(shown)}`, levels } : { levels };
  }
  const fresh = gauges.filter((g) => !Object.hasOwn(told, g.id));
  const crossed = gauges.filter((g) => Object.hasOwn(told, g.id) && levels[g.id]! > told[g.id]!);
  const parts = [...crossed.map(crossing), ...(fresh.length > 0 ? [`left: ${leftOf(fresh)}`] : [])];
  return parts.length > 0 ? { text: `utility budget: ${parts.join("; ")}`, levels } : { levels };
}

const SPAN_NAMES: Record<GaugeSpan, string> = { agent: "this subagent", task: "task", session: "session", window: "window" };
const UNIT_NAMES: Record<GaugeUnit, string> = { tokens: "tokens", usd: "cost", calls: "tool calls", agents: "subagents" };
const ONE_NAMES: Record<GaugeUnit, string> = { tokens: "token", usd: "cost", calls: "tool call", agents: "subagent" };

/** `task 150k tokens, 40 tool calls · session $4.50`: what is left, by span. */
function leftOf(gauges: readonly Gauge[]): string {
  const spans = [...new Set(gauges.map((g) => g.span))];
  return spans
    .map((span) => {
      const amounts = gauges.filter((g) => g.span === span).map((g) => amount(g.unit, Math.max(0, g.limit - g.used)));
      return `${SPAN_NAMES[span]} ${amounts.join(", ")}`;
    })
    .join(" · ");
}

/** `task tokens 80% used, 40k left`; all of it: `task tokens all used (201k of 200k)`. */
function crossing(g: Gauge): string {
  const what = `${SPAN_NAMES[g.span]} ${UNIT_NAMES[g.unit]}`;
  if (levelOf(g) >= BUDGET_NOTICE_THRESHOLDS.length)
    return `${what} all used (${amount(g.unit, g.used, false)} of ${amount(g.unit, g.limit, false)}): answer with what you have`;
  return `${what} ${Math.floor((g.used * 100) / g.limit)}% used, ${amount(g.unit, g.limit - g.used)} left`;
}

/** 41234 tokens → `41k tokens`, dollars → `$0.42`, calls → `40 tool calls`; without the unit's word when `named` is false. */
function amount(unit: GaugeUnit, value: number, named = true): string {
  if (unit === "usd") return `$${value.toFixed(2)}`;
  const text = unit === "tokens" ? compactCount(value) : String(Math.round(value));
  if (!named) return text;
  return `${text} ${Math.round(value) === 1 ? ONE_NAMES[unit] : UNIT_NAMES[unit]}`;
}
