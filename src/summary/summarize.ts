// A session's step log summarised per scope: the numbers behind `utility report`
// and `/utility report` (their text is ./report-text.ts). Pure: records in, summary out.
import type { LogRecord } from "../log/record.js";
import { outcomesById } from "./log-table.js";
import { DEFAULT_PRICES, type PriceTable } from "../engine/prices.js";
import type { SessionBudgets } from "../engine/session-budget.js";
import type { Spend } from "../engine/spend.js";
import { describeSessionBudgets } from "./budget-status.js";

const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));
import { summarizeSpend, type SessionSpend } from "./spend.js";
import { scopeKey } from "../log/record.js";
import { agentCapsOf, type AgentCapRow } from "./agent-caps.js";

/** Steps whose record carries no report (an ungated scope, where the hooks only observe) are counted under this key. */
export const NO_REPORT = "no report";

export interface TaskSummary {
  task: number;
  /** The highest step recorded in the task. */
  steps: number;
  maxSteps: number;
  refusals: number;
  gated: boolean;
  gatedBy?: string;
}

export interface OverrideSummary {
  task: number;
  step: number;
  action: string;
  gain: number;
  utility: number;
  rationale: string;
}

export interface ScopeSummary {
  /** `main`, or `agent:<id>` for a subagent. */
  key: string;
  /** self, dispatch or subagent, as last recorded. */
  scope: LogRecord["scope"];
  agentId?: string;
  agentType?: string;
  records: number;
  /** Tool calls that ran (PreToolUse passed or observed). */
  steps: number;
  stepsByAction: Record<string, number>;
  refusals: number;
  refusalsByRule: Record<string, number>;
  /** Each rule's latest reason, as the model was told it. */
  refusalReasons: Record<string, string>;
  overrides: OverrideSummary[];
  /** Calls the code proved to be exact repeats (hinted in an ungated scope, refused or passed with Redundancy 1 under the gate). */
  repeats: number;
  repeatsRefused: number;
  /** Stops blocked because the last report's action was never taken. */
  stopsBlocked: number;
  tasks: TaskSummary[];
  /** The task that came closest to its budget. */
  budget: { task: number; steps: number; maxSteps: number } | undefined;
  gatedBy: string[];
  latencyMs: { median: number; max: number } | undefined;
  /** Steps by how they ended (SPEC §8): `missing` took a step but no hook learned its outcome. */
  outcomes: { ran: number; failed: number; denied: number; missing: number; resultBytes: number };
}

export interface SessionSummary {
  session: string | undefined;
  records: number;
  from: string | undefined;
  to: string | undefined;
  scopes: ScopeSummary[];
  totals: { steps: number; refusals: number; overrides: number; repeats: number; stopsBlocked: number };
  /** Tokens and estimated cost per step, task and scope, from the records that carry their message's usage (SPEC §12). */
  spend: SessionSpend;
  /** Each subagent's own spend, the caps per subagent in force for it and the one it hit (SPEC §16). */
  agentCaps: AgentCapRow[];
  /** The user's session and window budgets, with the session's spend against them, as the last record that carries them says. */
  sessionBudgets?: SessionBudgetsSummary;
}

export interface SessionBudgetsSummary {
  budgets: SessionBudgets;
  spent: Spend;
  /** In words, as `/utility status` says it: each budget with what is spent against it. */
  text: string;
}

/** The last record's session budgets (the records carry them only when one is set). */
function sessionBudgetsOf(records: readonly LogRecord[], prices: PriceTable): SessionBudgetsSummary | undefined {
  const last = [...records].reverse().find((r) => r.sessionBudgets !== undefined)?.sessionBudgets;
  if (!last) return undefined;
  return { budgets: last.budgets, spent: last.spent, text: describeSessionBudgets(last.spent, last.budgets, prices) };
}

export { scopeKey } from "../log/record.js";

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface ScopeAcc {
  summary: ScopeSummary;
  tasks: Map<number, TaskSummary>;
  latencies: number[];
}

function newScope(record: LogRecord): ScopeAcc {
  return {
    summary: {
      key: scopeKey(record),
      scope: record.scope,
      ...(record.agentId !== undefined ? { agentId: record.agentId } : {}),
      ...(record.agentType !== undefined ? { agentType: record.agentType } : {}),
      records: 0,
      steps: 0,
      stepsByAction: {},
      refusals: 0,
      refusalsByRule: {},
      refusalReasons: {},
      overrides: [],
      repeats: 0,
      repeatsRefused: 0,
      stopsBlocked: 0,
      tasks: [],
      budget: undefined,
      gatedBy: [],
      latencyMs: undefined,
      outcomes: { ran: 0, failed: 0, denied: 0, missing: 0, resultBytes: 0 },
    },
    tasks: new Map(),
    latencies: [],
  };
}

function taskOf(acc: ScopeAcc, record: LogRecord): TaskSummary {
  let task = acc.tasks.get(record.task);
  if (!task) {
    task = { task: record.task, steps: 0, maxSteps: record.maxSteps, refusals: 0, gated: false };
    acc.tasks.set(record.task, task);
  }
  task.steps = Math.max(task.steps, record.step);
  task.maxSteps = record.maxSteps;
  if (record.gated) {
    task.gated = true;
    if (record.gatedBy !== undefined) task.gatedBy = record.gatedBy;
  }
  return task;
}

/** Summarises a session's records per scope, in the order scopes first appear. */
export function summarize(records: readonly LogRecord[], prices: PriceTable = DEFAULT_PRICES): SessionSummary {
  const scopes = new Map<string, ScopeAcc>();
  const outcomes = outcomesById(records);
  for (const record of records) {
    if (record.event === "error" || record.event === "Outcome") continue;
    countRecord(scopeAccOf(scopes, record), record, outcomes);
  }
  const summaries = [...scopes.values()].map(finishScope);
  const times = records
    .map((r) => r.time)
    .filter((t) => t !== "")
    .sort();
  const spend = summarizeSpend(records, prices);
  return {
    session: records.find((r) => r.session)?.session,
    records: records.length,
    from: times[0],
    to: times[times.length - 1],
    scopes: summaries,
    totals: totalsOf(summaries),
    spend,
    agentCaps: agentCapsOf(records, { scopes: summaries, spend }),
    ...optional("sessionBudgets", sessionBudgetsOf(records, prices)),
  };
}

type Outcomes = ReturnType<typeof outcomesById>;
type TaskAcc = ReturnType<typeof taskOf>;

function scopeAccOf(scopes: Map<string, ScopeAcc>, record: LogRecord): ScopeAcc {
  const key = scopeKey(record);
  let acc = scopes.get(key);
  if (!acc) {
    acc = newScope(record);
    scopes.set(key, acc);
  }
  return acc;
}

function countRecord(acc: ScopeAcc, record: LogRecord, outcomes: Outcomes): void {
  const s = acc.summary;
  s.records += 1;
  s.scope = record.scope;
  if (record.agentType !== undefined) s.agentType = record.agentType;
  if (record.gatedBy !== undefined && !s.gatedBy.includes(record.gatedBy)) s.gatedBy.push(record.gatedBy);
  acc.latencies.push(record.latencyMs);
  const task = taskOf(acc, record);
  if (record.event === "Stop" || record.event === "SubagentStop") {
    if (record.decision === "blocked") s.stopsBlocked += 1;
    return;
  }
  if (record.event === "PreToolUse") countCall(s, task, record, outcomes);
}

function countRefusal(s: ScopeSummary, task: TaskAcc, record: LogRecord): void {
  const rule = record.rule ?? "unknown";
  s.refusals += 1;
  task.refusals += 1;
  bump(s.refusalsByRule, rule);
  if (record.reason) s.refusalReasons[rule] = record.reason;
}

function countCall(s: ScopeSummary, task: TaskAcc, record: LogRecord, outcomes: Outcomes): void {
  if (record.repeat) {
    s.repeats += 1;
    if (record.decision === "refused") s.repeatsRefused += 1;
  }
  if (record.decision === "refused") {
    countRefusal(s, task, record);
    return;
  }
  if (record.decision !== "passed" && record.decision !== "observed") return;
  const outcome = record.toolUseId !== undefined ? outcomes.get(record.toolUseId)?.outcome : undefined;
  if (outcome?.result === "denied") {
    s.outcomes.denied += 1; // Claude Code refused it after the gate: it never ran, no step
    return;
  }
  countStep(s, record, outcome);
}

function countStep(s: ScopeSummary, record: LogRecord, outcome: LogRecord["outcome"] | undefined): void {
  s.steps += 1;
  bump(s.stepsByAction, record.report?.action ?? NO_REPORT);
  if (!outcome) s.outcomes.missing += 1;
  else {
    s.outcomes[outcome.result] += 1;
    s.outcomes.resultBytes += outcome.resultBytes;
  }
  const override = record.report?.override;
  if (override && record.report) {
    s.overrides.push({
      task: record.task,
      step: record.step,
      action: override.action,
      gain: override.gain,
      utility: record.report.utility,
      rationale: record.report.rationale,
    });
  }
}

function finishScope(acc: ScopeAcc): ScopeSummary {
  const s = acc.summary;
  s.tasks = [...acc.tasks.values()].sort((a, b) => a.task - b.task);
  s.budget = s.tasks
    .filter((t) => t.gated)
    .reduce<ScopeSummary["budget"]>(
      (worst, t) =>
        !worst || t.steps / t.maxSteps > worst.steps / worst.maxSteps ? { task: t.task, steps: t.steps, maxSteps: t.maxSteps } : worst,
      undefined,
    );
  s.latencyMs = acc.latencies.length > 0 ? { median: median(acc.latencies), max: Math.max(...acc.latencies) } : undefined;
  return s;
}

function totalsOf(summaries: readonly ScopeSummary[]): SessionSummary["totals"] {
  const sum = (pick: (s: ScopeSummary) => number) => summaries.reduce((n, s) => n + pick(s), 0);
  return {
    steps: sum((s) => s.steps),
    refusals: sum((s) => s.refusals),
    overrides: sum((s) => s.overrides.length),
    repeats: sum((s) => s.repeats),
    stopsBlocked: sum((s) => s.stopsBlocked),
  };
}
