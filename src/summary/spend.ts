// Spend per step, per task and per scope from a session's records (SPEC §12):
// the numbers behind the spend lines of `utility report`, its HTML page and
// `/utility status`. Pure: records in, totals out.
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

/**
 * Sums what the records' messages spent. A message (one `messageId`) is
 * counted once per scope however many calls it made: parallel calls share
 * their message's tokens. A record without a message id counts on its own.
 */
export function summarizeSpend(records: readonly LogRecord[], prices: PriceTable): SessionSpend {
  const seen = new Set<string>();
  const session = new Acc();
  const scopes = new Map<string, { acc: Acc; tasks: Map<number, Acc> }>();
  const steps: StepSpend[] = [];
  records.forEach((record, index) => {
    const spend = recordSpend(record);
    if (!spend) return;
    const key = scopeKey(record);
    const first = spend.messageId === undefined || !seen.has(`${key}#${spend.messageId}`);
    if (spend.messageId !== undefined) seen.add(`${key}#${spend.messageId}`);
    const tokens = first ? spend.tokens : zeroTokens();
    let scope = scopes.get(key);
    if (!scope) scopes.set(key, (scope = { acc: new Acc(), tasks: new Map() }));
    let task = scope.tasks.get(record.task);
    if (!task) scope.tasks.set(record.task, (task = new Acc()));
    for (const acc of [session, scope.acc, task]) acc.add(tokens, spend.model);
    const byModel = spend.model ? { [spend.model]: tokens } : { "(unknown model)": tokens };
    const sessionTotals = session.totals(prices);
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
      sessionTotal: sessionTotals.total,
      sessionCostUsd: sessionTotals.costUsd,
    });
  });
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
