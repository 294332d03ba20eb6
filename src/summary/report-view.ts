// What the HTML report shows, as one typed object: every decision in log order,
// each scope's tasks with their budgets and spend so far, the per-scope
// summary. Built from a session's records and the spend and summary handed in;
// the page (./html.ts) only lays it out, so where the numbers come from can
// change under it.
import { DEFAULT_CONFIG } from "../engine/defaults.js";
import type { Budgets } from "../engine/budget.js";
import type { RuleId } from "../engine/vocabulary.js";
import { scopeKey, type LogRecord, type LoggedReport } from "../log/record.js";
import { outcomesById } from "./log-table.js";
import type { SessionSpend } from "./spend.js";
import { scopeTitle } from "./report-text.js";
import { summarize, type ScopeSummary, type SessionSummary } from "./summarize.js";

/**
 * Calls that told nothing, per scope (SPEC §13): counted by the code that
 * sees results, handed to the view when known. Absent: not counted.
 */
export interface NoProgressCounts {
  /** Calls whose result was byte-identical to an earlier run of the same call although something ran in between. */
  identicalOutcomes: number;
  /** Runs of a call after its last runs (3, or `utility_stuck_after`) all returned the same result. */
  stuckLoops: number;
  /** Of the stuck loops, those the gate refused (rule `no_progress`). */
  stuckRefused?: number;
}

/** Tokens and estimated dollars. */
export interface Amount {
  tokens: number;
  costUsd: number;
}

/** One decision on the timeline: a tool call (PreToolUse) or the end of a turn (Stop, SubagentStop). */
export interface EntryView {
  /** Its position on the timeline, from 1. */
  seq: number;
  /** Its record's position in the log, from 1 (the records table's #). */
  record: number;
  kind: "call" | "end";
  event: LogRecord["event"];
  /** Index into `ReportView.tracks`. */
  track: number;
  tool?: string;
  decision: LogRecord["decision"];
  rule?: RuleId;
  reason?: string;
  /** The report the hook read: a call's, or the final message's at the end of a turn. */
  report?: LoggedReport;
  gated: boolean;
  /** The floor in force (the record's, else the caller's fallback). */
  floor: number;
  /** Steps taken in the task when the record was written. */
  step: number;
  maxSteps: number;
  /** An exact repeat the code proved: the step it repeats. */
  repeatOf?: number;
  /** How the call ended, when a hook learned it; `missing` for a call that took a step and whose outcome never arrived. */
  outcome?: "ran" | "failed" | "denied" | "missing";
  /** What its task had spent after this decision (its scope's records); absent without spend data. */
  taskSpend?: Amount;
}

/** One task of one scope: the unit budgets apply to. */
export interface TrackView {
  /** `main` or `agent:<id>`. */
  scope: string;
  task: number;
  /** `main (self)`, `subagent a1 (Explore)`. */
  title: string;
  /** `main`, `subagent a1`: short enough for a chart label. */
  short: string;
  /** The step budget, as its last record says: it binds only when the task is gated. */
  maxSteps: number;
  /** Any of its records gated: only then is its step budget drawn. */
  gated: boolean;
  /** Token and cost budgets in force, as its last record that carries them says. */
  budgets?: Budgets;
  /** What the task spent in all; absent without spend data. */
  spent?: Amount;
}

export interface ScopeView extends ScopeSummary {
  title: string;
  noProgress?: NoProgressCounts;
}

export interface ReportView {
  session: string | undefined;
  /** Where the records came from. */
  source: string | undefined;
  /** Every record, for the records table. */
  log: readonly LogRecord[];
  from: string | undefined;
  to: string | undefined;
  totals: SessionSummary["totals"] & { reported: number; noProgress?: NoProgressCounts };
  entries: EntryView[];
  tracks: TrackView[];
  scopes: ScopeView[];
  /** Absent when no record carries its message's usage. */
  spend?: SessionSpend;
  /** Each subagent's own spend, its caps and the one it hit (SPEC §16). */
  agentCaps: SessionSummary["agentCaps"];
  sessionBudgets?: SessionSummary["sessionBudgets"];
}

export interface ReportViewOptions {
  /** The floor of records that do not carry their own (logs written before records did); the default (−0.5) unless told. */
  floor?: number;
  source?: string;
  /** The session's summary, spend included; summarised from the records unless given. */
  summary?: SessionSummary;
  /** Identical outcomes and stuck loops per scope key (`main`, `agent:<id>`), when counted. */
  noProgress?: Readonly<Record<string, NoProgressCounts>>;
}

const trackKey = (record: Pick<LogRecord, "agentId" | "task">) => `${scopeKey(record)}#${record.task}`;

function isEntry(record: LogRecord): boolean {
  return record.event === "PreToolUse" || record.event === "Stop" || record.event === "SubagentStop";
}

function outcomeOf(record: LogRecord, outcomes: ReadonlyMap<string, LogRecord>): EntryView["outcome"] {
  if (record.event !== "PreToolUse" || (record.decision !== "passed" && record.decision !== "observed")) return undefined;
  const found = record.toolUseId !== undefined ? outcomes.get(record.toolUseId)?.outcome : undefined;
  return found?.result ?? "missing";
}

function newTrack(record: LogRecord): TrackView {
  const title = scopeTitle({ scope: record.scope, agentId: record.agentId, agentType: record.agentType });
  return {
    scope: scopeKey(record),
    task: record.task,
    title,
    short: record.agentId !== undefined ? `subagent ${record.agentId}` : "main",
    maxSteps: record.maxSteps,
    gated: false,
  };
}

/** Spend per task so far, record by record: the running sums of the steps the spend lists, by their record index. */
function taskSpendByRecord(spend: SessionSpend | undefined): Map<number, Amount> {
  const out = new Map<number, Amount>();
  if (!spend) return out;
  const sums = new Map<string, Amount>();
  for (const step of spend.steps) {
    const key = `${step.scope}#${step.task}`;
    const before = sums.get(key) ?? { tokens: 0, costUsd: 0 };
    const after = { tokens: before.tokens + step.total, costUsd: before.costUsd + step.costUsd };
    sums.set(key, after);
    out.set(step.index, after);
  }
  return out;
}

function entryOf(record: LogRecord, index: number, seq: number, track: number, floor: number): EntryView {
  return {
    seq,
    record: index + 1,
    kind: record.event === "PreToolUse" ? "call" : "end",
    event: record.event,
    track,
    ...(record.tool !== undefined ? { tool: record.tool } : {}),
    decision: record.decision,
    ...(record.rule !== undefined ? { rule: record.rule } : {}),
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
    ...(record.report !== undefined ? { report: record.report } : {}),
    gated: record.gated,
    floor: record.floor ?? floor,
    step: record.step,
    maxSteps: record.maxSteps,
    ...(record.repeat ? { repeatOf: record.repeat.ofStep } : {}),
  };
}

/** Every decision in log order, and the tasks they belong to, with what each task spent so far. */
function timelineOf(
  records: readonly LogRecord[],
  spend: SessionSpend | undefined,
  floor: number,
): { entries: EntryView[]; tracks: TrackView[] } {
  const outcomes = outcomesById(records);
  const tracks: TrackView[] = [];
  const trackIndex = new Map<string, number>();
  const spentAt = taskSpendByRecord(spend);
  const spentSoFar = new Map<string, Amount>();
  const budgetsOf = new Map<string, Budgets>();
  const entries: EntryView[] = [];
  records.forEach((record, index) => {
    const key = trackKey(record);
    const spent = spentAt.get(index);
    if (spent) spentSoFar.set(key, spent);
    if (record.budgets) budgetsOf.set(key, record.budgets);
    if (!isEntry(record)) return;
    let t = trackIndex.get(key);
    if (t === undefined) {
      t = tracks.push(newTrack(record)) - 1;
      trackIndex.set(key, t);
    }
    tracks[t]!.maxSteps = record.maxSteps;
    if (record.gated) tracks[t]!.gated = true;
    const entry = entryOf(record, index, entries.length + 1, t, floor);
    const outcome = outcomeOf(record, outcomes);
    if (outcome) entry.outcome = outcome;
    if (spend) entry.taskSpend = spentSoFar.get(key) ?? { tokens: 0, costUsd: 0 };
    entries.push(entry);
  });
  for (const track of tracks) {
    const key = `${track.scope}#${track.task}`;
    const budgets = budgetsOf.get(key);
    if (budgets) track.budgets = budgets;
    if (spend) track.spent = spentSoFar.get(key) ?? { tokens: 0, costUsd: 0 };
  }
  return { entries, tracks };
}

/** The session's identical outcomes and stuck loops, over the scopes that counted them. */
function sumNoProgress(scopes: readonly ScopeView[]): NoProgressCounts | undefined {
  const counted = scopes.flatMap((s) => (s.noProgress ? [s.noProgress] : []));
  if (counted.length === 0) return undefined;
  return {
    identicalOutcomes: counted.reduce((n, c) => n + c.identicalOutcomes, 0),
    stuckLoops: counted.reduce((n, c) => n + c.stuckLoops, 0),
    stuckRefused: counted.reduce((n, c) => n + (c.stuckRefused ?? 0), 0),
  };
}

/** The view of a session's records: what the HTML page draws. */
export function buildReportView(records: readonly LogRecord[], options: ReportViewOptions = {}): ReportView {
  const summary = options.summary ?? summarize(records);
  const spend = summary.spend.steps.length > 0 ? summary.spend : undefined;
  const { entries, tracks } = timelineOf(records, spend, options.floor ?? DEFAULT_CONFIG.floor);
  const scopes = summary.scopes.map((s) => {
    const noProgress = options.noProgress?.[s.key];
    return { ...s, title: scopeTitle(s), ...(noProgress ? { noProgress } : {}) };
  });
  const noProgress = sumNoProgress(scopes);
  return {
    session: summary.session,
    source: options.source,
    log: records,
    from: summary.from,
    to: summary.to,
    totals: {
      ...summary.totals,
      reported: records.filter((r) => r.event === "PreToolUse" && r.report).length,
      ...(noProgress ? { noProgress } : {}),
    },
    entries,
    tracks,
    scopes,
    ...(spend ? { spend } : {}),
    agentCaps: summary.agentCaps,
    ...(summary.sessionBudgets ? { sessionBudgets: summary.sessionBudgets } : {}),
  };
}
