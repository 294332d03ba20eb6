// What a per-task budget would have done to the tasks of a history, and the
// values to suggest for each budget setting. Pure.
//
// A budget is checked before each tool call (SPEC §12): once the task has
// spent it, that call and every later one are refused and the model is told
// to respond or stop. So a budget would have stopped a task at its first
// call made with the spend at or above it, and saved at most what the task
// spent after that call (the model's closing answer still costs something).
// An agent budget refuses the launches past it: the subagents it would have
// kept from starting are those past it in the task's order.
import { grouped, type TaskWhere } from "./labels.js";
import type { Percentiles } from "./percentiles.js";
import type { TaskRow } from "./tasks.js";

/** The plugin settings a history sizes (userConfig keys, as `claude plugin configure` takes them). */
export const BUDGET_SETTINGS = ["token_budget", "cost_budget_usd", "max_agents"] as const;
export type BudgetSetting = (typeof BUDGET_SETTINGS)[number];

/** The headroom over the 99th percentile a suggested budget leaves. */
export const HEADROOM = 1.5;

export interface StoppedTask extends TaskWhere {
  /** What the task spent in all (tokens, dollars). */
  tokens: number;
  costUsd: number;
  /** At most what the budget would have saved of it. */
  savedTokens: number;
  savedUsd: number;
}

/** What one budget value would have done over the history. */
export interface BudgetEffect {
  setting: BudgetSetting;
  value: number;
  /** Tasks it would have stopped (refused a call of), of `tasks`. */
  stopped: number;
  tasks: number;
  savedTokens: number;
  savedUsd: number;
  /** The stopped tasks that would have saved most, largest first (at most 5). */
  examples: StoppedTask[];
}

export function whereOf(row: TaskRow): TaskWhere {
  return {
    session: row.place.session,
    ...(row.place.project !== undefined ? { project: row.place.project } : {}),
    task: row.task,
    ...(row.prompt !== undefined ? { prompt: row.prompt } : {}),
    ...(row.startedAt !== undefined ? { startedAt: row.startedAt } : {}),
  };
}

/** What a task would have saved under the budget: undefined when no call of it was made at or over the budget. */
function savedBy(row: TaskRow, setting: BudgetSetting, value: number): { tokens: number; usd: number } | undefined {
  if (setting === "max_agents") {
    if (row.agents <= value) return undefined;
    const past = row.subagents.filter((s, i) => (s.ordinal ?? i + 1) > value);
    return { tokens: past.reduce((n, s) => n + s.tokens, 0), usd: past.reduce((n, s) => n + s.costUsd, 0) };
  }
  const first = row.trail.find((spent) => (setting === "token_budget" ? spent.tokens : spent.costUsd) >= value);
  if (first === undefined) return undefined;
  return { tokens: Math.max(0, row.tokens - first.tokens), usd: Math.max(0, row.costUsd - first.costUsd) };
}

const EXAMPLES = 5;

export function budgetEffect(rows: readonly TaskRow[], setting: BudgetSetting, value: number): BudgetEffect {
  const stopped: StoppedTask[] = [];
  for (const row of rows) {
    const saved = savedBy(row, setting, value);
    if (saved) stopped.push({ ...whereOf(row), tokens: row.tokens, costUsd: row.costUsd, savedTokens: saved.tokens, savedUsd: saved.usd });
  }
  const bySaving = [...stopped].sort((a, b) => b.savedTokens - a.savedTokens || b.savedUsd - a.savedUsd);
  return {
    setting,
    value,
    stopped: stopped.length,
    tasks: rows.length,
    savedTokens: stopped.reduce((n, s) => n + s.savedTokens, 0),
    savedUsd: stopped.reduce((n, s) => n + s.savedUsd, 0),
    examples: bySaving.slice(0, EXAMPLES),
  };
}

/** `x` rounded up to two significant digits (130000, 4.5, 0.44): a value a person would type. */
export function roundUpNicely(x: number): number {
  if (!(x > 0)) return 0;
  const unit = 10 ** (Math.floor(Math.log10(x)) - 1);
  const up = Math.ceil(Number((x / unit).toPrecision(12))) * unit;
  return Number(up.toPrecision(2));
}

export interface SuggestedBudget {
  setting: BudgetSetting;
  /** The value to set; null when the history gives none worth setting. */
  value: number | null;
  /** How it was derived, in words. */
  derivation: string;
  /** What it would have done over the history (when a value is suggested). */
  effect?: BudgetEffect;
}

export interface Suggestions {
  budgets: Record<BudgetSetting, SuggestedBudget>;
  /** The plugin id the command names. */
  pluginId: string;
  /** The command that sets the suggested values (absent when there is none to set). */
  command?: string;
}

const fmt = grouped;

function sample(p: Percentiles): string {
  return p.n < 100 ? `over ${p.n} task${p.n === 1 ? "" : "s"}, fewer than 100, so the 99th percentile is the largest` : `over ${p.n} tasks`;
}

function suggestSpend(rows: readonly TaskRow[], setting: "token_budget" | "cost_budget_usd", p: Percentiles): SuggestedBudget {
  const what = setting === "token_budget" ? "tokens" : "dollars";
  if (p.n === 0 || p.max <= 0) return { setting, value: null, derivation: `no task spent any ${what}` };
  const raw = p.p99 * HEADROOM;
  const value = setting === "token_budget" ? Math.max(1, Math.ceil(roundUpNicely(raw))) : Math.max(0.01, roundUpNicely(raw));
  return {
    setting,
    value,
    derivation: `the 99th percentile of ${what} per task (${fmt(p.p99)}, ${sample(p)}) × ${HEADROOM} headroom, rounded up to two significant digits`,
    effect: budgetEffect(rows, setting, value),
  };
}

function suggestAgents(rows: readonly TaskRow[], p: Percentiles): SuggestedBudget {
  if (p.n === 0 || p.max === 0)
    return { setting: "max_agents", value: null, derivation: "no task launched a subagent: leave it unset (0 would forbid subagents)" };
  const value = Math.max(p.p99 + 1, Math.ceil(p.p99 * HEADROOM));
  return {
    setting: "max_agents",
    value,
    derivation: `the 99th percentile of subagents per task (${p.p99}, ${sample(p)}) × ${HEADROOM} headroom, rounded up (at least one more)`,
    effect: budgetEffect(rows, "max_agents", value),
  };
}

/** A setting's value as `claude plugin configure --values-stdin` takes it: a string. */
function settingText(value: number): string {
  return String(value);
}

/** The suggested budgets, each with how it was derived and what it would have done, and the command that sets them. */
export function suggestBudgets(
  rows: readonly TaskRow[],
  percentiles: { tokens: Percentiles; costUsd: Percentiles; agents: Percentiles },
  pluginId: string,
): Suggestions {
  const budgets: Record<BudgetSetting, SuggestedBudget> = {
    token_budget: suggestSpend(rows, "token_budget", percentiles.tokens),
    cost_budget_usd: suggestSpend(rows, "cost_budget_usd", percentiles.costUsd),
    max_agents: suggestAgents(rows, percentiles.agents),
  };
  const values = Object.fromEntries(
    BUDGET_SETTINGS.flatMap((key) => (budgets[key].value === null ? [] : [[key, settingText(budgets[key].value!)]])),
  );
  const json = JSON.stringify(values);
  return {
    budgets,
    pluginId,
    ...(Object.keys(values).length > 0 ? { command: `echo '${json}' | claude plugin configure ${pluginId} --values-stdin` } : {}),
  };
}

/** Budgets at the 90th and 99th percentiles and the suggested one: what each would have stopped and saved (the outliers). */
export function whatIf(rows: readonly TaskRow[], setting: BudgetSetting, p: Percentiles, suggested: number | null): BudgetEffect[] {
  const round = (v: number) =>
    setting === "max_agents" ? Math.ceil(v) : setting === "token_budget" ? Math.max(1, roundUpNicely(v)) : Math.max(0.01, roundUpNicely(v));
  const candidates = [p.p90, p.p99].filter((v) => v > 0).map(round);
  if (suggested !== null) candidates.push(suggested);
  return [...new Set(candidates)].sort((a, b) => a - b).map((value) => budgetEffect(rows, setting, value));
}
