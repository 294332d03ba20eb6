// What the gate (./gate.ts) decides from, and what it answers: the shapes its budget checks
// (./gate-budgets.ts) share with it, in a module of their own so that neither imports the other for them.
import type { Scope, RuleId } from "./vocabulary.js";
import type { Evaluation } from "./report/check.js";
import type { Config } from "./signals.js";
import type { RanResult } from "./no-progress.js";
import type { ActsAs, ExtraTools } from "./tools.js";
import type { Repeat } from "./redundancy.js";
import type { Report } from "./report/types.js";
import type { Budgets } from "./budget.js";
import type { PriceTable } from "./prices.js";
import type { BeyondTaskSpend, SessionBudgets } from "./session-budget.js";
import type { Spend } from "./spend.js";
import type { AgentSpend } from "./agent-caps.js";

export interface GateInput {
  scope: Scope;
  gated: boolean;
  /** Set when the opt-in that gates this scope is invalid: under the gate, that refuses. */
  optInProblem?: string;
  /** The model's own text before this call in the same assistant message; undefined when none was found. */
  reportText?: string;
  tool: string;
  /** Set when the call is judged by what it can do rather than by `tool` (a Skill call that runs shell or forks): it needs a report whose action is this one. */
  actsAs?: ActsAs;
  /** Steps already taken in this task and scope. */
  step: number;
  /** The scope's task: a step of another task is named with it in messages. */
  task?: number;
  config: Config;
  extraTools: ExtraTools;
  repeat?: Repeat;
  /** A stuck loop (SPEC §13): the last runs of this call, oldest first, which all returned the same result. */
  stuck?: readonly RanResult[];
  /** SPEC §14: a tool_call or delegate whose report's Uncertainty is at least this asks the user. */
  confirmAboveUncertainty?: number;
  /** Hooks registered by a skill other than the one that gates the scope (or that this Skill call would register): where, for the refusal. */
  foreignHooks?: string;
  /** A call, not known to only read, whose input names the gate's records or Claude Code's configuration: why, for the refusal. */
  protectedTarget?: string;
  /** The task's spend and the budgets on it (SPEC §12); without it no budget applies. */
  budget?: GateBudget;
  /** Planning and stopping calls let through since a budget was spent (./gate-budgets.ts). */
  windDown?: WindDown;
}

export interface GateBudget {
  /** What the task at the root of this scope's tree has spent, its subagents included. */
  spend: Spend;
  /** The user's budgets (plugin settings): they apply to every scope, gated or not. */
  user: Budgets;
  /** The options of `user` that are the organization's (SPEC §17), so a message names them as such. */
  organization?: readonly string[];
  /** The frontmatter budgets that bind this scope: its own gate's, and its root task's gate's (src/engine/session/views.ts). */
  gate?: Budgets;
  prices: PriceTable;
  /** Subagents the task launched or admitted before this call, parallel calls of the same message included. */
  launched: number;
  /** This scope is a subagent that started past the task's `maxAgents`: its ordinal among the task's subagents. */
  startedAs?: number;
  /** The model making this call, for a computed StepCost. */
  model?: string;
  /** The user's budget settings are invalid: every call that is not neutral is refused with this. */
  userProblem?: string;
  /** A subagent under a per-agent cap (SPEC §16): its own spend, and how it is named. */
  agent?: AgentSpend;
  /** Budgets beyond one task (the user's, SPEC §12) and what they are checked against. */
  beyond?: { budgets: SessionBudgets; spent: BeyondTaskSpend };
}

export type GateDecision =
  | { decision: "refused"; rule: RuleId; reason: string; evaluation?: Evaluation; report?: Report }
  /** `fallback`: the call goes to the user, who decides (SPEC §14: Claude Code's "ask", with the reason). */
  | { decision: "passed"; evaluation: Evaluation; fallback?: { to: "user"; reason: string } }
  /** `pastBudget`: a planning or stopping call let through past a spent budget (./gate-budgets.ts), which the session counts. */
  | { decision: "observed"; hint?: string; pastBudget?: true }
  | { decision: "neutral"; pastBudget?: true };

/** The wind-down calls let through since a budget was spent, this task and scope (src/engine/session/decide.ts). */
export interface WindDown {
  /** This call's digest (src/engine/redundancy.ts callDigest). */
  digest: string;
  earlier: ReadonlyArray<{ tool: string; digest: string; failed?: boolean }>;
}

/** A refusal under `rule`, with the reason the model reads and, when one was read, the report it checked. */
export const refused = (rule: RuleId, reason: string, evaluation?: Evaluation, report?: Report): GateDecision => ({
  decision: "refused",
  ...(report ? { report } : {}),
  rule,
  reason,
  ...(evaluation ? { evaluation } : {}),
});
