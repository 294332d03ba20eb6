import { hasBudget, type Budgets } from "../budget.js";
import { agentLabel, checkAgentCaps, hasAgentCap } from "../agent-caps.js";
import { budgetNames } from "../budget.js";
import { budgetsInForce } from "../gate-budgets.js";
import type { GateBudget } from "../gate-input.js";
import type { Guards } from "../guards.js";
import { DEFAULT_PRICES, withOverride, type PriceOverride } from "../prices.js";
import { hasSessionBudget, type SessionBudgets } from "../session-budget.js";
import { zeroSpend, type Spend } from "../spend.js";
import { copySpend } from "./copy.js";
import { agentIdOf, scoped, type ScopeKey, type SessionEvent } from "./events.js";
import { budgetNotice, gaugesOf } from "../budget-view.js";
import { scopeAt } from "./reduce.js";
import type { SessionState } from "./state.js";
import { frontmatterBudgetsOf, launchesOf, rootSpendOf, sessionSpend, startedPastLimit } from "./views.js";

/**
 * The budgets that bind a scope, as the gate takes them (SPEC §12, §16): the
 * user's settings and the frontmatter that binds the scope, what its task,
 * its session, the window and (a subagent under a cap) the subagent itself
 * have spent. Pure: the caller brings the window's spend, read from the ledger.
 */

/** The user's own plugin settings (SPEC §10, §12), parsed by the shell from the hook's environment. */
export interface UserSettings {
  budgets: Budgets;
  /** Budgets beyond one task: the session's, and the rolling window's over every session (SPEC §12). */
  session?: SessionBudgets;
  /** The runaway guards the user set for every scope (SPEC §13, §14). */
  guards?: Guards;
  prices?: PriceOverride;
  /** What is invalid in them, in words: it refuses in a gated scope and is a warning elsewhere. */
  problem?: string;
  /** The options whose value is the organization's managed settings' (SPEC §17). */
  organization?: readonly string[];
}

/** The gate's budget input, or undefined when no budget binds the scope (then nothing more is computed). */
export function budgetInputOf(
  session: SessionState,
  key: ScopeKey,
  user: UserSettings,
  call: { model?: string; windowSpend?: Spend },
): GateBudget | undefined {
  const { model, windowSpend } = call;
  const frontmatter = frontmatterBudgetsOf(session, key);
  if (!user.problem && !hasBudget(user.budgets) && !hasBudget(frontmatter) && !hasSessionBudget(user.session)) return undefined;
  const inForce = budgetsInForce({ budget: { user: user.budgets, gate: frontmatter } });
  const pastLimit = startedPastLimit(session, key, inForce.maxAgents);
  const agent = agentSpendOf(session, key, inForce);
  return {
    spend: rootSpendOf(session, key),
    user: user.budgets,
    ...(user.organization?.length ? { organization: user.organization } : {}),
    gate: frontmatter,
    prices: withOverride(DEFAULT_PRICES, user.prices),
    launched: launchesOf(session, key),
    ...(pastLimit !== undefined ? { startedAs: pastLimit } : {}),
    ...(agent ? { agent } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(user.problem ? { userProblem: user.problem } : {}),
    ...beyondOf(session, user, windowSpend),
  };
}

/** The session's and the window's budgets and what they are checked against, when the user set one (SPEC §12). */
function beyondOf(session: SessionState, user: UserSettings, windowSpend: Spend | undefined): Pick<GateBudget, "beyond"> {
  if (!hasSessionBudget(user.session)) return {};
  const spent = { session: sessionSpend(session), ...(windowSpend ? { window: windowSpend } : {}) };
  return { beyond: { budgets: user.session ?? {}, spent } };
}

/** A subagent's own spend, when a per-agent cap binds it (SPEC §16). */
function agentSpendOf(session: SessionState, key: ScopeKey, budgets: Budgets): GateBudget["agent"] {
  const agentId = agentIdOf(key);
  if (agentId === undefined || !hasAgentCap(budgets)) return undefined;
  const scope = scopeAt(session, key);
  return { spend: scope.spend ? copySpend(scope.spend) : zeroSpend(), label: agentLabel(scope.agentType, agentId) };
}

/**
 * What the model is to be told of its budgets now (SPEC §16; the rule is
 * src/engine/budget-view.ts): what is left when nothing was told yet in the
 * scope's task, else the thresholds crossed since; and the event that
 * remembers it. Nothing when no budget binds the scope.
 */
export function budgetNoticeIn(
  session: SessionState,
  key: ScopeKey,
  user: UserSettings,
  windowSpend?: Spend,
): { text?: string; events: SessionEvent[] } {
  const budget = budgetInputOf(session, key, user, windowSpend ? { windowSpend } : {});
  if (!budget || budget.userProblem !== undefined) return { events: [] };
  const scope = scopeAt(session, key);
  const told = scope.budgetTold?.task === scope.task ? scope.budgetTold.levels : undefined;
  // A subagent starts told its own caps only: the task's budgets it shares are told as they cross a threshold (red team 11).
  const notice = budgetNotice(gaugesOf(budget), told, (span) => key === "main" || span === "agent");
  const same = told !== undefined && sameLevels(told, notice.levels);
  return {
    ...(notice.text !== undefined ? { text: notice.text } : {}),
    events: same ? [] : [scoped(key, { kind: "budget_told", task: scope.task, levels: notice.levels })],
  };
}

function sameLevels(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
}

/** A subagent past one of its own caps (SPEC §16): who, and what it hit, as its refusal says it. */
export interface AgentPastCap {
  agentId: string;
  agentType?: string;
  reason: string;
}

/** The session's subagents past their own caps, for status, the status line and the report. */
export function agentsPastCap(session: SessionState, user: UserSettings): AgentPastCap[] {
  const past: AgentPastCap[] = [];
  for (const [agentId, scope] of Object.entries(session.agents)) {
    const key: ScopeKey = `agent:${agentId}`;
    const budget = budgetInputOf(session, key, user, {});
    if (!budget?.agent) continue;
    const hit = checkAgentCaps(
      budget.agent,
      budgetsInForce({ budget }),
      budget.prices,
      budgetNames(budget.user, budget.gate, budget.organization),
    );
    if (hit) past.push({ agentId, ...(scope.agentType !== undefined ? { agentType: scope.agentType } : {}), reason: hit.reason });
  }
  return past;
}
