// Whether a tool call must read the transcript up to its own line before it
// is decided (src/hooks/pre-tool-use.ts): the rules, pure. Reading is the
// hook's; a call that need not read is answered at once.
import { hasBudget } from "../budget.js";
import { callDigest, type Sha256Hex } from "../redundancy.js";
import { hasSessionBudget } from "../session-budget.js";
import { isNeutralTool, type ActsAs } from "../tools.js";
import type { UserSettings } from "./decide.js";
import type { ScopeKey } from "./events.js";
import { scopeAt } from "./reduce.js";
import type { ScopeState, SessionState } from "./state.js";
import { frontmatterBudgetsOf, gateOf } from "./views.js";

/** A planning tool's call (a Skill call is judged by its skill instead): it needs no report. */
export function isPlanning(tool: string): boolean {
  return isNeutralTool(tool) && tool !== "Skill";
}

/**
 * A budget binds the scope (the user's, or its task's frontmatter): the spend
 * it is checked against must include every message written before the call,
 * so the call waits for its own line, as a gated one does.
 */
export function budgetsBind(session: SessionState, key: ScopeKey, user: UserSettings): boolean {
  return userBudgetsSet(user) || hasBudget(frontmatterBudgetsOf(session, key));
}

/** The user set a task, session or window budget. */
export function userBudgetsSet(user: UserSettings): boolean {
  return hasBudget(user.budgets) || hasSessionBudget(user.session);
}

/**
 * A gated scope at or past its step budget: a planning call's decision then
 * depends on the step count (capped past it), which a call refused or denied
 * in lines not read yet may lower, so it reads up to its own line as a gated call does.
 */
export function atStepLimit(session: SessionState, key: ScopeKey): boolean {
  const gate = gateOf(session, key);
  return gate !== undefined && scopeAt(session, key).step >= gate.config.maxSteps;
}

/** Under the gate, a call reads its own line for its report: a Skill call acting as more than text, any other call but planning (and planning at the step limit). */
export function readsOwnLine(session: SessionState, key: ScopeKey, tool: string, actsAs: ActsAs | undefined): boolean {
  if (gateOf(session, key) === undefined) return false;
  if (tool === "Skill") return actsAs !== undefined;
  return !isPlanning(tool) || atStepLimit(session, key);
}

/** A skill may have loaded in lines not read yet (a Skill call let through, a slash command typed): the scope may be gated by now. */
export function mayGate(scope: ScopeState): boolean {
  return scope.awaitingActivation === true || Object.keys(scope.skillCalls ?? {}).length > 0;
}

/**
 * A planning call is decided only where a budget may be spent (past one,
 * planning calls are capped, ../gate-budgets.ts): the user set a budget, or
 * the scope, as last stored, is gated (its steps), may be gated by a skill
 * loaded since, or is bound by its task's frontmatter budgets.
 */
export function planningDecided(stored: SessionState | undefined, key: ScopeKey, user: UserSettings): boolean {
  if (userBudgetsSet(user)) return true;
  return (
    stored !== undefined &&
    (gateOf(stored, key) !== undefined || mayGate(scopeAt(stored, key)) || hasBudget(frontmatterBudgetsOf(stored, key)))
  );
}

/** An ungated call that could repeat an earlier one while calls are still pending: their results may be in lines not flushed yet. */
export function mayBeUnprovenRepeat(session: SessionState, key: ScopeKey, tool: string, input: unknown, sha256?: Sha256Hex): boolean {
  const scope = scopeAt(session, key);
  const pending = Object.values(scope.pending);
  if (pending.length === 0) return false;
  const digest = callDigest(tool, input, sha256);
  const same = (c: { tool: string; digest: string }) => c.tool === tool && c.digest === digest;
  return pending.some(same) || scope.history.some(same);
}
