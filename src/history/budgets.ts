// What a per-task budget would have done to the tasks of a history, and the
// values to suggest for each budget setting. Pure.
//
// A budget is checked before each tool call (SPEC §12): once the task has
// spent it, that call and every later one are refused and the model is told
// to respond or stop. So a budget would have stopped a task at its first
// call made with the spend at or above it, and saved at most what the task
// spent after that call (the model's closing answer still costs something).
// An agent budget refuses the launches past it: the subagents it would have
// kept from starting are those past it in the task's order. A tool-call budget
// reads the task's tool calls that ran before each call. The caps per
// subagent stop one subagent by its own spend (./agent-caps.ts).
import {
  AGENT_CAP_SETTINGS,
  capPercentiles,
  isAgentCap,
  savedByCap,
  subagentWhere,
  type AgentCapSetting,
  type SubagentPercentiles,
  type SubagentWhere,
} from "./agent-caps.js";
import { grouped, type TaskWhere } from "./labels.js";
import type { Percentiles } from "./percentiles.js";
import type { TaskRow } from "./tasks.js";

/** The per-task budgets a history sizes (userConfig keys). */
export const TASK_SETTINGS = ["token_budget", "cost_budget_usd", "max_agents", "max_tool_calls"] as const;
type TaskSetting = (typeof TASK_SETTINGS)[number];
/** The plugin settings a history sizes (userConfig keys, as `claude plugin configure` takes them). */
export const BUDGET_SETTINGS = [...TASK_SETTINGS, ...AGENT_CAP_SETTINGS] as const;
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
  /** A cap per subagent: the subagent it stopped (tokens, dollars and calls its own), in the task above. */
  subagent?: SubagentWhere;
}

/** What one budget value would have done over the history. */
export interface BudgetEffect {
  setting: BudgetSetting;
  value: number;
  /** What `stopped` counts: tasks (a task's budget), or subagents (a cap per subagent). */
  of: "tasks" | "subagents";
  /** Tasks (or, for a cap per subagent, subagents) it would have stopped: refused a call of. */
  stopped: number;
  tasks: number;
  /** A cap per subagent: how many subagents the history has (what `stopped` is out of). */
  subagents?: number;
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
function savedBy(row: TaskRow, setting: TaskSetting, value: number): { tokens: number; usd: number } | undefined {
  if (setting === "max_agents") {
    if (row.agents <= value) return undefined;
    const past = row.subagents.filter((s, i) => (s.ordinal ?? i + 1) > value);
    return { tokens: past.reduce((n, s) => n + s.tokens, 0), usd: past.reduce((n, s) => n + s.costUsd, 0) };
  }
  const measure = setting === "token_budget" ? "tokens" : setting === "cost_budget_usd" ? "costUsd" : "calls";
  const first = row.trail.find((spent) => spent[measure] >= value);
  if (first === undefined) return undefined;
  return { tokens: Math.max(0, row.tokens - first.tokens), usd: Math.max(0, row.costUsd - first.costUsd) };
}

const EXAMPLES = 5;

/** A cap per subagent: every subagent it would have stopped, with what each would have saved. */
function stoppedByCap(rows: readonly TaskRow[], setting: AgentCapSetting, value: number): StoppedTask[] {
  const stopped: StoppedTask[] = [];
  for (const row of rows)
    for (const sub of row.subagents) {
      const saved = savedByCap(sub, setting, value);
      if (saved)
        stopped.push({
          ...whereOf(row),
          tokens: sub.tokens,
          costUsd: sub.costUsd,
          savedTokens: saved.tokens,
          savedUsd: saved.usd,
          subagent: subagentWhere(sub),
        });
    }
  return stopped;
}

function stoppedTasks(rows: readonly TaskRow[], setting: TaskSetting, value: number): StoppedTask[] {
  const stopped: StoppedTask[] = [];
  for (const row of rows) {
    const saved = savedBy(row, setting, value);
    if (saved) stopped.push({ ...whereOf(row), tokens: row.tokens, costUsd: row.costUsd, savedTokens: saved.tokens, savedUsd: saved.usd });
  }
  return stopped;
}

export function budgetEffect(rows: readonly TaskRow[], setting: BudgetSetting, value: number): BudgetEffect {
  const perAgent = isAgentCap(setting);
  const stopped = perAgent ? stoppedByCap(rows, setting, value) : stoppedTasks(rows, setting, value);
  const bySaving = [...stopped].sort((a, b) => b.savedTokens - a.savedTokens || b.savedUsd - a.savedUsd);
  return {
    setting,
    value,
    of: perAgent ? "subagents" : "tasks",
    stopped: stopped.length,
    tasks: rows.length,
    ...(perAgent ? { subagents: rows.reduce((n, r) => n + r.subagents.length, 0) } : {}),
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

/** What a setting measures: tokens, dollars, or a count (subagents launched, tool calls made). */
const KIND: Record<BudgetSetting, "tokens" | "dollars" | "count"> = {
  token_budget: "tokens",
  cost_budget_usd: "dollars",
  max_agents: "count",
  max_tool_calls: "count",
  agent_token_budget: "tokens",
  agent_cost_budget_usd: "dollars",
  agent_max_tool_calls: "count",
};

/** What the percentiles of a setting are of, in words. */
const MEASURED: Record<BudgetSetting, string> = {
  token_budget: "tokens",
  cost_budget_usd: "dollars",
  max_agents: "subagents",
  max_tool_calls: "tool calls",
  agent_token_budget: "tokens",
  agent_cost_budget_usd: "dollars",
  agent_max_tool_calls: "tool calls",
};

/** Per task and per subagent, by nearest rank: what the settings are sized from. */
export interface HistoryPercentiles {
  tokens: Percentiles;
  costUsd: Percentiles;
  agents: Percentiles;
  calls: Percentiles;
  subagent: SubagentPercentiles;
}

/** The percentiles a setting is sized from: per task, or per subagent for a cap per subagent. */
export function percentilesFor(setting: BudgetSetting, p: HistoryPercentiles): Percentiles {
  if (isAgentCap(setting)) return capPercentiles(p.subagent, setting);
  return setting === "token_budget" ? p.tokens : setting === "cost_budget_usd" ? p.costUsd : setting === "max_agents" ? p.agents : p.calls;
}

function sample(p: Percentiles, unit: string): string {
  return p.n < 100
    ? `over ${p.n} ${unit}${p.n === 1 ? "" : "s"}, fewer than 100, so the 99th percentile is the largest`
    : `over ${p.n} ${unit}s`;
}

/** Why no value is suggested. */
function unsetBecause(setting: BudgetSetting, p: Percentiles): string {
  const unit = isAgentCap(setting) ? "subagent" : "task";
  if (setting === "max_agents") return "no task launched a subagent: leave it unset (0 would forbid subagents)";
  if (p.n === 0 && unit === "subagent") return "no subagent in these sessions: leave it unset";
  if (KIND[setting] !== "count") return `no ${unit} spent any ${MEASURED[setting]}`;
  return `no ${unit} made a tool call: leave it unset (0 would forbid tool calls)`;
}

/** The smallest dollar budget a setting takes (src/optin/options.ts: `min` of cost_budget_usd and agent_cost_budget_usd). */
export const SMALLEST_USD_BUDGET = 0.01;

/** Dollars with three significant digits below $1 (`$0.00384`), cents above: a percentile as it was, never printed as 0. */
export function dollarsExact(usd: number): string {
  return usd > 0 && usd < 1 ? `$${Number(usd.toPrecision(3))}` : `$${fmt(usd)}`;
}

/** The 99th percentile with headroom: spend rounded up to two significant digits, a count rounded up and at least one more. */
function suggestOne(rows: readonly TaskRow[], setting: BudgetSetting, p: Percentiles): SuggestedBudget {
  if (p.n === 0 || p.max <= 0) return { setting, value: null, derivation: unsetBecause(setting, p) };
  const kind = KIND[setting];
  const raw = p.p99 * HEADROOM;
  const rounded = kind === "count" ? Math.max(p.p99 + 1, Math.ceil(raw)) : roundUpNicely(raw);
  const value = kind === "count" ? rounded : kind === "tokens" ? Math.max(1, Math.ceil(rounded)) : Math.max(SMALLEST_USD_BUDGET, rounded);
  return { setting, value, derivation: derivationOf(setting, p, rounded, value), effect: budgetEffect(rows, setting, value) };
}

/** How a suggestion was derived, in words: the percentile as it was, the headroom, the rounding, and the raise to the smallest value allowed. */
function derivationOf(setting: BudgetSetting, p: Percentiles, rounded: number, value: number): string {
  const kind = KIND[setting];
  const unit = isAgentCap(setting) ? "subagent" : "task";
  const rounding = kind === "count" ? "rounded up (at least one more)" : "rounded up to two significant digits";
  const p99 = kind === "count" ? String(p.p99) : kind === "dollars" ? dollarsExact(p.p99) : fmt(p.p99);
  const raised =
    kind === "dollars" && value > rounded
      ? ` (${dollarsExact(rounded)}), raised to ${SMALLEST_USD_BUDGET}, the smallest value ${setting} takes`
      : "";
  return `the 99th percentile of ${MEASURED[setting]} per ${unit} (${p99}, ${sample(p, unit)}) × ${HEADROOM} headroom, ${rounding}${raised}`;
}

/** A setting's value as `claude plugin configure --values-stdin` takes it: a string. */
function settingText(value: number): string {
  return String(value);
}

/** The suggested budgets, each with how it was derived and what it would have done, and the command that sets them. */
export function suggestBudgets(rows: readonly TaskRow[], percentiles: HistoryPercentiles, pluginId: string): Suggestions {
  const budgets = Object.fromEntries(
    BUDGET_SETTINGS.map((setting) => [setting, suggestOne(rows, setting, percentilesFor(setting, percentiles))]),
  ) as Record<BudgetSetting, SuggestedBudget>;
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
  const kind = KIND[setting];
  const round = (v: number) =>
    kind === "count" ? Math.ceil(v) : kind === "tokens" ? Math.max(1, roundUpNicely(v)) : Math.max(SMALLEST_USD_BUDGET, roundUpNicely(v));
  const candidates = [p.p90, p.p99].filter((v) => v > 0).map(round);
  if (suggested !== null) candidates.push(suggested);
  return [...new Set(candidates)].sort((a, b) => a - b).map((value) => budgetEffect(rows, setting, value));
}
