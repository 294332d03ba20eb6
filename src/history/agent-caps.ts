// What a cap per subagent (SPEC §16) would have done to the subagents of a
// history. Pure.
//
// A cap is checked before each of a subagent's tool calls against what that
// subagent has spent by itself (its own scope: a nested subagent has its own):
// once it is at or over the cap, that call and every later one of it are
// refused and it is told to report to its parent. So a cap would have stopped
// a subagent at its first call made with its own spend at or over it, and
// saved at most what the subagent spent after that call; its parent and the
// rest of the task go on, so nothing else is saved.
import { percentilesOf, type Percentiles } from "./percentiles.js";
import type { SubagentRow, TaskRow } from "./tasks.js";

/** The per-subagent caps a history sizes (userConfig keys). */
export const AGENT_CAP_SETTINGS = ["agent_token_budget", "agent_cost_budget_usd", "agent_max_tool_calls"] as const;
export type AgentCapSetting = (typeof AGENT_CAP_SETTINGS)[number];

export function isAgentCap(setting: string): setting is AgentCapSetting {
  return (AGENT_CAP_SETTINGS as readonly string[]).includes(setting);
}

/** Per subagent, over every subagent of the history (nearest rank): its own tokens, dollars and tool calls. */
export interface SubagentPercentiles {
  tokens: Percentiles;
  costUsd: Percentiles;
  calls: Percentiles;
}

export function subagentPercentilesOf(rows: readonly TaskRow[]): SubagentPercentiles {
  const subs = rows.flatMap((r) => r.subagents);
  return {
    tokens: percentilesOf(subs.map((s) => s.tokens)),
    costUsd: percentilesOf(subs.map((s) => s.costUsd)),
    calls: percentilesOf(subs.map((s) => s.calls)),
  };
}

const MEASURE: Record<AgentCapSetting, "tokens" | "costUsd" | "calls"> = {
  agent_token_budget: "tokens",
  agent_cost_budget_usd: "costUsd",
  agent_max_tool_calls: "calls",
};

/** The percentiles a cap is sized from. */
export function capPercentiles(p: SubagentPercentiles, setting: AgentCapSetting): Percentiles {
  return p[MEASURE[setting]];
}

/** What a subagent would have saved under the cap: undefined when none of its calls was made at or over it. */
export function savedByCap(sub: SubagentRow, setting: AgentCapSetting, value: number): { tokens: number; usd: number } | undefined {
  const measure = MEASURE[setting];
  const first = sub.trail.find((spent) => spent[measure] >= value);
  if (first === undefined) return undefined;
  return { tokens: Math.max(0, sub.tokens - first.tokens), usd: Math.max(0, sub.costUsd - first.costUsd) };
}

/** A stopped subagent as an example names it (its trail left out). */
export type SubagentWhere = Omit<SubagentRow, "trail">;

export function subagentWhere(sub: SubagentRow): SubagentWhere {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { trail, ...where } = sub;
  return where;
}
