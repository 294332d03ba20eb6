// A history of sessions (what `utility replay` with no transcript reports):
// every task's spend, its percentiles and largest tasks, what budgets would
// have stopped, exact repeats, identical outcomes and stuck loops, and the budgets to set.
// Pure: each replayed session is added as it is read (the file layer, which
// holds one session at a time; its findings are ./findings.ts), then the report is made.
import { estimateCostUsd, type PriceTable } from "../engine/prices.js";
import { addSpend, totalTokens, zeroSpend, type Spend, type TokenCounts } from "../engine/spend.js";
import { subagentPercentilesOf, subagentWhere, type SubagentPercentiles, type SubagentWhere } from "./agent-caps.js";
import {
  BUDGET_SETTINGS,
  percentilesFor,
  suggestBudgets,
  whatIf,
  whereOf,
  type BudgetEffect,
  type BudgetSetting,
  type Suggestions,
} from "./budgets.js";
import type { ScopeFindings, SessionFindings } from "./findings.js";
import type { TaskWhere } from "./labels.js";
import { percentilesOf, type Percentiles } from "./percentiles.js";
import type { StuckRow, TaskRow } from "./tasks.js";

/** A task as the report shows it: where it is, what it spent, and its largest subagents. */
export interface TaskView extends TaskWhere {
  tokens: number;
  costUsd: number;
  calls: number;
  agents: number;
  repeats: number;
  /** Its subagents that spent most (at most 3), largest first. */
  subagents: SubagentWhere[];
}

/** What the tasks spent together: their trees' spend, each message once (SPEC §12). */
export interface HistorySpend {
  tokens: TokenCounts;
  byModel: Record<string, TokenCounts>;
  total: number;
  costUsd: number;
}

export interface HistoryReport {
  kind: "history";
  /** What was read: the folders, the sessions since when. */
  read: {
    /** `project`: the current folder's sessions; `all`: every project; `folder`: a folder given. */
    what: "project" | "all" | "folder";
    /** The project folders read, by name. */
    projects: string[];
    /** Only tasks started at or after this time (ISO), when given. */
    since?: string;
    sessions: number;
    files: number;
    bytes: number;
  };
  /** The first and last task's start, when the lines say. */
  period?: { from: string; to: string };
  policy: string;
  tokenEstimate: string;
  pricesDate: string;
  totals: {
    tasks: number;
    calls: number;
    agents: number;
    repeats: number;
    repeatTokens: number;
    /** Identical outcomes (SPEC §13). */
    identicalOutcomes: number;
    stuckLoops: number;
    spend: HistorySpend;
  };
  /** Per task, by the nearest-rank method (./percentiles.ts). */
  percentiles: Record<"tokens" | "costUsd" | "agents" | "calls", Percentiles>;
  /** Per subagent, over every subagent of the tasks (its own spend and tool calls): what the caps per subagent are sized from. */
  subagentPercentiles: SubagentPercentiles;
  /** The largest tasks: by tokens (up to 5), and the largest by each other measure. */
  largest: { tokens: TaskView[]; costUsd?: TaskView; agents?: TaskView; calls?: TaskView };
  /** Budgets at the 90th and 99th percentiles and the suggested one, and what each would have stopped and saved. */
  whatIf: Record<BudgetSetting, BudgetEffect[]>;
  repeats: {
    count: number;
    tokens: number;
    /** Of all calls that ran. */
    shareOfCalls: number;
    byTool: Array<{ tool: string; count: number }>;
    /** The tasks with most repeats (at most 3). */
    most: Array<TaskWhere & { repeats: number; repeatTokens: number }>;
  };
  /** Each stuck loop (SPEC §13) in the order read, with its task. */
  stuckLoops: Array<TaskWhere & Omit<StuckRow, "task">>;
  suggestedBudgets: Suggestions;
  /** Every task, in the order read: what it spent (for scripts, and the page's chart). */
  tasks: TaskLine[];
}

/** One task in the list of all tasks. */
export interface TaskLine {
  session: string;
  project?: string;
  task: number;
  startedAt?: string;
  tokens: number;
  costUsd: number;
  calls: number;
  agents: number;
  repeats: number;
}

export interface HistoryOptions {
  prices: PriceTable;
  /** Tasks started before this (epoch ms) are left out. */
  sinceMs?: number;
  /** The plugin id the settings command names (from the user's installed plugins). */
  pluginId: string;
  policy: string;
  tokenEstimate: string;
}

const LARGEST = 5;
const SHOWN_SUBAGENTS = 3;

/** Accumulates replayed sessions, one at a time, into a HistoryReport. */
export class HistoryBuilder {
  private readonly rows: TaskRow[] = [];
  private readonly spend: Spend = zeroSpend();
  private sessions = 0;
  private files = 0;
  private bytes = 0;
  private repeats = 0;
  private repeatTokens = 0;
  private identical = 0;
  private readonly stuck: HistoryReport["stuckLoops"] = [];
  private readonly byTool = new Map<string, number>();

  constructor(private readonly options: HistoryOptions) {}

  /** A session's findings (sessionFindings), in the order the sessions were planned. */
  add(findings: SessionFindings): void {
    this.sessions += 1;
    this.files += findings.files.count;
    this.bytes += findings.files.bytes;
    const rows = findings.rows.filter((row) => this.inPeriod(row));
    const kept = new Set(rows.map((row) => row.task));
    this.rows.push(...rows);
    for (const row of rows)
      addSpend(this.spend, { tokens: row.tokenCounts, byModel: row.byModel, toolCalls: row.calls, agentsLaunched: row.agents });
    for (const scope of findings.scopes) this.addScope(scope, kept, rows);
  }

  /** A scope's stuck loops in the tasks kept, each with where its task is. */
  private addStuck(scope: ScopeFindings, rows: readonly TaskRow[]): void {
    for (const { task, ...found } of scope.stuck) {
      const row = rows.find((r) => r.task === task);
      if (row) this.stuck.push({ ...whereOf(row), ...found });
    }
  }

  /** A scope's repeats, identical outcomes and stuck loops, in the tasks kept: a subagent's toward the task it was launched in, the main scope's each toward its own. */
  private addScope(scope: ScopeFindings, kept: ReadonlySet<number>, rows: readonly TaskRow[]): void {
    this.addStuck(scope, rows);
    if (scope.rootTask !== undefined && !kept.has(scope.rootTask)) return;
    for (const r of scope.repeats) {
      if (!kept.has(r.task)) continue;
      this.repeats += 1;
      this.repeatTokens += r.tokens;
      this.byTool.set(r.tool, (this.byTool.get(r.tool) ?? 0) + 1);
    }
    this.identical += scope.identical.filter((task) => kept.has(task)).length;
  }

  private inPeriod(row: TaskRow): boolean {
    if (this.options.sinceMs === undefined || row.startedAt === undefined) return true;
    const at = Date.parse(row.startedAt);
    return !Number.isFinite(at) || at >= this.options.sinceMs;
  }

  report(read: Omit<HistoryReport["read"], "sessions" | "files" | "bytes">): HistoryReport {
    const rows = this.rows;
    const percentiles = {
      tokens: percentilesOf(rows.map((r) => r.tokens)),
      costUsd: percentilesOf(rows.map((r) => r.costUsd)),
      agents: percentilesOf(rows.map((r) => r.agents)),
      calls: percentilesOf(rows.map((r) => r.calls)),
    };
    const subagentPercentiles = subagentPercentilesOf(rows);
    const sizedFrom = { ...percentiles, subagent: subagentPercentiles };
    const suggestedBudgets = suggestBudgets(rows, sizedFrom, this.options.pluginId);
    const calls = rows.reduce((n, r) => n + r.calls, 0);
    const period = periodOf(rows);
    return {
      kind: "history",
      read: { ...read, sessions: this.sessions, files: this.files, bytes: this.bytes },
      ...(period ? { period } : {}),
      policy: this.options.policy,
      tokenEstimate: this.options.tokenEstimate,
      pricesDate: this.options.prices.date,
      totals: {
        tasks: rows.length,
        calls,
        agents: rows.reduce((n, r) => n + r.agents, 0),
        repeats: this.repeats,
        repeatTokens: this.repeatTokens,
        identicalOutcomes: this.identical,
        stuckLoops: this.stuck.length,
        spend: {
          tokens: this.spend.tokens,
          byModel: this.spend.byModel,
          total: totalTokens(this.spend.tokens),
          costUsd: estimateCostUsd(this.spend.byModel, this.options.prices),
        },
      },
      percentiles,
      subagentPercentiles,
      largest: largestOf(rows),
      whatIf: Object.fromEntries(
        BUDGET_SETTINGS.map((setting) => [
          setting,
          whatIf(rows, setting, percentilesFor(setting, sizedFrom), suggestedBudgets.budgets[setting].value),
        ]),
      ) as Record<BudgetSetting, BudgetEffect[]>,
      repeats: this.repeatsOf(calls),
      stuckLoops: [...this.stuck],
      suggestedBudgets,
      tasks: rows.map(lineOf),
    };
  }

  private repeatsOf(calls: number): HistoryReport["repeats"] {
    return {
      count: this.repeats,
      tokens: this.repeatTokens,
      shareOfCalls: calls === 0 ? 0 : this.repeats / calls,
      byTool: [...this.byTool.entries()]
        .map(([tool, count]) => ({ tool, count }))
        .sort((a, b) => b.count - a.count || (a.tool < b.tool ? -1 : 1)),
      most: this.rows
        .filter((r) => r.repeats > 0)
        .sort((a, b) => b.repeats - a.repeats || b.repeatTokens - a.repeatTokens)
        .slice(0, 3)
        .map((r) => ({ ...whereOf(r), repeats: r.repeats, repeatTokens: r.repeatTokens })),
    };
  }
}

function lineOf(r: TaskRow): TaskLine {
  return {
    session: r.place.session,
    ...(r.place.project !== undefined ? { project: r.place.project } : {}),
    task: r.task,
    ...(r.startedAt !== undefined ? { startedAt: r.startedAt } : {}),
    tokens: r.tokens,
    costUsd: r.costUsd,
    calls: r.calls,
    agents: r.agents,
    repeats: r.repeats,
  };
}

function viewOf(row: TaskRow): TaskView {
  return {
    ...whereOf(row),
    tokens: row.tokens,
    costUsd: row.costUsd,
    calls: row.calls,
    agents: row.agents,
    repeats: row.repeats,
    subagents: [...row.subagents]
      .sort((a, b) => b.tokens - a.tokens)
      .slice(0, SHOWN_SUBAGENTS)
      .map(subagentWhere),
  };
}

/** The largest task by a measure (the first found among equals), if any spent anything by it. */
function largestBy(rows: readonly TaskRow[], measure: (row: TaskRow) => number): TaskView | undefined {
  let best: TaskRow | undefined;
  for (const row of rows) if (measure(row) > 0 && (best === undefined || measure(row) > measure(best))) best = row;
  return best ? viewOf(best) : undefined;
}

function largestOf(rows: readonly TaskRow[]): HistoryReport["largest"] {
  const byTokens = [...rows].sort((a, b) => b.tokens - a.tokens).filter((r) => r.tokens > 0);
  const costUsd = largestBy(rows, (r) => r.costUsd);
  const agents = largestBy(rows, (r) => r.agents);
  const calls = largestBy(rows, (r) => r.calls);
  return {
    tokens: byTokens.slice(0, LARGEST).map(viewOf),
    ...(costUsd ? { costUsd } : {}),
    ...(agents ? { agents } : {}),
    ...(calls ? { calls } : {}),
  };
}

function periodOf(rows: readonly TaskRow[]): HistoryReport["period"] {
  const times = rows.flatMap((r) => (r.startedAt !== undefined && Number.isFinite(Date.parse(r.startedAt)) ? [r.startedAt] : []));
  if (times.length === 0) return undefined;
  const sorted = times.sort((a, b) => Date.parse(a) - Date.parse(b));
  return { from: sorted[0]!, to: sorted.at(-1)! };
}
