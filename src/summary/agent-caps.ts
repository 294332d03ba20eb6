// Caps per subagent (SPEC §16) in a session's report: each subagent's own
// spend, the caps in force for it, and the cap it hit, from its step log
// records alone (the budgets a record was written under, and the gate's
// `budget_spent` refusals that name the subagent's own cap). Pure.
import type { LogRecord } from "../log/record.js";
import { scopeKey } from "../log/record.js";

/** A subagent's caps: tokens, dollars and tool calls it may spend by itself. */
export interface AgentCapsSet {
  tokens?: number;
  costUsd?: number;
  toolCalls?: number;
}

export interface AgentCapRow {
  /** `agent:<id>`. */
  key: string;
  agentId: string;
  agentType?: string;
  /** What it spent by itself: its own messages (each once) and its tool calls that ran. */
  tokens: number;
  costUsd: number;
  toolCalls: number;
  /** The caps its last record was written under, when any was set. */
  caps?: AgentCapsSet;
  /** The cap it hit: its first refusal for it, and how many of its calls that cap refused. */
  hit?: { cap: "token" | "cost" | "tool-call"; reason: string; refused: number };
}

/** The gate's words for a subagent past its own cap (src/engine/agent-caps.ts): which cap. */
const HIT: Array<[RegExp, NonNullable<AgentCapRow["hit"]>["cap"]]> = [
  [/^the subagent .+ has spent its token cap: /, "token"],
  [/^the subagent .+ has spent its cost cap: /, "cost"],
  [/^the subagent .+ has made its [\d,]+ tool calls? \(/, "tool-call"],
];

function capHit(record: LogRecord): NonNullable<AgentCapRow["hit"]>["cap"] | undefined {
  if (record.event !== "PreToolUse" || record.decision !== "refused" || record.rule !== "budget_spent") return undefined;
  const reason = record.reason ?? "";
  return HIT.find(([words]) => words.test(reason))?.[1];
}

function capsOf(budgets: LogRecord["budgets"]): AgentCapsSet | undefined {
  if (!budgets) return undefined;
  const caps: AgentCapsSet = {
    ...(budgets.agentTokenBudget !== undefined ? { tokens: budgets.agentTokenBudget } : {}),
    ...(budgets.agentCostBudgetUsd !== undefined ? { costUsd: budgets.agentCostBudgetUsd } : {}),
    ...(budgets.agentMaxToolCalls !== undefined ? { toolCalls: budgets.agentMaxToolCalls } : {}),
  };
  return Object.keys(caps).length > 0 ? caps : undefined;
}

/** The parts of a session's summary (./summarize.ts) the rows are made of. */
interface Summed {
  scopes: ReadonlyArray<{ key: string; agentId?: string; agentType?: string; steps: number }>;
  spend: { scopes: ReadonlyArray<{ key: string; total: { total: number; costUsd: number } }> };
}

/** Every subagent of the summary, with its own spend, the caps in force and the cap it hit. */
export function agentCapsOf(records: readonly LogRecord[], summary: Summed): AgentCapRow[] {
  const caps = new Map<string, AgentCapsSet | undefined>();
  const hits = new Map<string, NonNullable<AgentCapRow["hit"]>>();
  for (const record of records) {
    const key = scopeKey(record);
    if (record.budgets !== undefined) caps.set(key, capsOf(record.budgets));
    const cap = capHit(record);
    if (cap === undefined) continue;
    const seen = hits.get(key);
    if (seen) seen.refused += 1;
    else hits.set(key, { cap, reason: record.reason ?? "", refused: 1 });
  }
  return summary.scopes.flatMap((scope) => {
    if (scope.agentId === undefined) return [];
    const spend = summary.spend.scopes.find((s) => s.key === scope.key)?.total;
    const set = caps.get(scope.key);
    const hit = hits.get(scope.key);
    return [
      {
        key: scope.key,
        agentId: scope.agentId,
        ...(scope.agentType !== undefined ? { agentType: scope.agentType } : {}),
        tokens: spend?.total ?? 0,
        costUsd: spend?.costUsd ?? 0,
        toolCalls: scope.steps,
        ...(set ? { caps: set } : {}),
        ...(hit ? { hit } : {}),
      },
    ];
  });
}
