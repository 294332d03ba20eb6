// Spend per step, per task and per scope from a session's records (SPEC §12,
// §15): the session machine's own count, as the records carry it, behind the
// spend lines of `utility report` and its HTML page. Pure: records in, totals out.
import { estimateCostUsd, formatUsd, assumedModels, type PriceTable } from "../engine/prices.js";
import { totalTokens, zeroTokens, type TokenCounts } from "../engine/spend.js";
import { scopeKey, type LogRecord, type RecordSpend } from "../log/record.js";

/** Where a record says what the assistant message behind it spent; the one place that reads it. */
export function recordSpend(record: LogRecord): RecordSpend | undefined {
  return record.spend;
}

export interface SpendTotals {
  tokens: TokenCounts;
  byModel: Record<string, TokenCounts>;
  /** All four counts together. */
  total: number;
  costUsd: number;
}

export interface StepSpend {
  /** The record's position in the records given. */
  index: number;
  scope: string;
  task: number;
  step: number;
  tool?: string;
  toolUseId?: string;
  /** What this record's message added: zero for a second call of a message already counted. */
  tokens: TokenCounts;
  total: number;
  costUsd: number;
  /** The session's spend up to and including this record, every scope together. */
  sessionTotal: number;
  sessionCostUsd: number;
}

export interface TaskSpend extends SpendTotals {
  task: number;
}

export interface ScopeSpend {
  key: string;
  total: SpendTotals;
  tasks: TaskSpend[];
}

export interface SessionSpend {
  /** Every scope together: the main conversation and its subagents. */
  total: SpendTotals;
  scopes: ScopeSpend[];
  steps: StepSpend[];
  /** Models that name no family, priced as the fallback. */
  assumedModels: string[];
  prices: { date: string; source: string };
}

function addTokens(into: TokenCounts, t: TokenCounts): void {
  into.input += t.input;
  into.output += t.output;
  into.cacheCreation += t.cacheCreation;
  into.cacheRead += t.cacheRead;
}

class Acc {
  tokens = zeroTokens();
  byModel: Record<string, TokenCounts> = {};
  add(t: TokenCounts, model: string | undefined): void {
    addTokens(this.tokens, t);
    const key = model ?? "(unknown model)";
    addTokens((this.byModel[key] ??= zeroTokens()), t);
  }
  totals(prices: PriceTable): SpendTotals {
    return {
      tokens: { ...this.tokens },
      byModel: structuredClone(this.byModel),
      total: totalTokens(this.tokens),
      costUsd: estimateCostUsd(this.byModel, prices),
    };
  }
}

/** A record's scope and task, as one key. */
const taskKey = (record: LogRecord) => `${scopeKey(record)}#${record.task}`;

/**
 * The session machine's own count, read from the records (SPEC §15): each
 * record carries what its scope had spent in its task so far (`scopeSpend`),
 * which only grows within a task, so the largest per scope and task is that
 * task's spend. Every surface shows these numbers. Per step, what the call's
 * message spent (`spend`) is shown too, each message once.
 */
class MachineCount {
  private readonly tasks = new Map<string, { record: LogRecord; spend: NonNullable<LogRecord["scopeSpend"]> }>();
  see(record: LogRecord): void {
    const spend = record.scopeSpend;
    if (!spend) return;
    const key = taskKey(record);
    const known = this.tasks.get(key);
    if (!known || totalTokens(spend.tokens) >= totalTokens(known.spend.tokens)) this.tasks.set(key, { record, spend });
  }
  get any(): boolean {
    return this.tasks.size > 0;
  }
  /** Every task's spend, added into the accumulators of its scope and task and the session's. */
  addInto(session: Acc, scopes: Map<string, { acc: Acc; tasks: Map<number, Acc> }>): void {
    for (const { record, spend } of this.tasks.values()) {
      const scope = scopeAcc(scopes, scopeKey(record));
      const task = taskAcc(scope, record.task);
      for (const [model, tokens] of Object.entries(spend.byModel)) for (const acc of [session, scope.acc, task]) acc.add(tokens, model);
    }
  }
  /** The session's total so far, every scope and task: for the running line under the steps. */
  sessionTotals(prices: PriceTable): SpendTotals {
    const acc = new Acc();
    for (const { spend } of this.tasks.values()) for (const [model, tokens] of Object.entries(spend.byModel)) acc.add(tokens, model);
    return acc.totals(prices);
  }
}

function scopeAcc(scopes: Map<string, { acc: Acc; tasks: Map<number, Acc> }>, key: string): { acc: Acc; tasks: Map<number, Acc> } {
  let scope = scopes.get(key);
  if (!scope) scopes.set(key, (scope = { acc: new Acc(), tasks: new Map() }));
  return scope;
}

function taskAcc(scope: { tasks: Map<number, Acc> }, task: number): Acc {
  let acc = scope.tasks.get(task);
  if (!acc) scope.tasks.set(task, (acc = new Acc()));
  return acc;
}

/**
 * What the session spent, per scope, per task and in all, as the session
 * machine counted it (MachineCount); per step, what each call's message
 * spent (a message counted once per scope, however many calls it made).
 * A log written before records carried the machine's count (no
 * `scopeSpend`) is summed from the steps' messages instead.
 */
export function summarizeSpend(records: readonly LogRecord[], prices: PriceTable): SessionSpend {
  const seen = new Set<string>();
  const machine = new MachineCount();
  const fromSteps = new Acc();
  const stepScopes = new Map<string, { acc: Acc; tasks: Map<number, Acc> }>();
  const steps: StepSpend[] = [];
  records.forEach((record, index) => {
    machine.see(record);
    const spend = recordSpend(record);
    if (!spend) return;
    const key = scopeKey(record);
    const first = spend.messageId === undefined || !seen.has(`${key}#${spend.messageId}`);
    if (spend.messageId !== undefined) seen.add(`${key}#${spend.messageId}`);
    const tokens = first ? spend.tokens : zeroTokens();
    const scope = scopeAcc(stepScopes, key);
    for (const acc of [fromSteps, scope.acc, taskAcc(scope, record.task)]) acc.add(tokens, spend.model);
    const byModel = spend.model ? { [spend.model]: tokens } : { "(unknown model)": tokens };
    const running = machine.any ? machine.sessionTotals(prices) : fromSteps.totals(prices);
    steps.push({
      index,
      scope: key,
      task: record.task,
      step: record.step,
      ...(record.tool !== undefined ? { tool: record.tool } : {}),
      ...(record.toolUseId !== undefined ? { toolUseId: record.toolUseId } : {}),
      tokens: { ...tokens },
      total: totalTokens(tokens),
      costUsd: estimateCostUsd(byModel, prices),
      sessionTotal: running.total,
      sessionCostUsd: running.costUsd,
    });
  });
  let session = fromSteps;
  let scopes = stepScopes;
  if (machine.any) {
    session = new Acc();
    scopes = new Map();
    machine.addInto(session, scopes);
  }
  const total = session.totals(prices);
  return {
    total,
    scopes: [...scopes.entries()].map(([key, s]) => ({
      key,
      total: s.acc.totals(prices),
      tasks: [...s.tasks.entries()].sort(([a], [b]) => a - b).map(([task, acc]) => ({ task, ...acc.totals(prices) })),
    })),
    steps,
    assumedModels: assumedModels(total.byModel, prices),
    prices: { date: prices.date, source: prices.source },
  };
}

const n = (v: number) => v.toLocaleString("en-US");

/** `12,345 tokens (input 1,000, output 300, cache writes 2,000, cache reads 9,045), about $0.05` */
export function describeSpend(t: Pick<SpendTotals, "tokens" | "total" | "costUsd">): string {
  const { input, output, cacheCreation, cacheRead } = t.tokens;
  return `${n(t.total)} tokens (input ${n(input)}, output ${n(output)}, cache writes ${n(cacheCreation)}, cache reads ${n(cacheRead)}), about ${formatUsd(t.costUsd)}`;
}

/** What every `--json` output carries at its top (SPEC §9): the session's spend, the four counts and the estimated dollars. */
export interface SpendJson {
  tokens: TokenCounts;
  costUsd: number;
}

export function spendJson(t: Pick<SpendTotals, "tokens" | "costUsd">): SpendJson {
  return { tokens: { ...t.tokens }, costUsd: t.costUsd };
}
