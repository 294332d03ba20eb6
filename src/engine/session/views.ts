import { tightestBudgets, type Budgets } from "../budget.js";
import { effectiveGate } from "../gate-policy.js";
import { zeroSpend, type Spend } from "../spend.js";
import type { Scope } from "../vocabulary.js";
import { agentIdOf, type ScopeKey } from "./events.js";
import { scopeAt } from "./reduce.js";
import { copySpend } from "./copy.js";
import { rootTaskSpend } from "./scope-usage.js";
import type { GateSource, ScopeState, SessionState } from "./state.js";

/**
 * What every surface reads of the session machine's state (SPEC §15): the
 * gate, `/utility status`, `utility report`, replay, the statusline and the
 * budgets ask these, never the fields themselves. Pure.
 */

/** The gate in force for a scope, if any (src/engine/gate-policy.ts: gating only tightens within a task). */
export function gateOf(session: SessionState, key: ScopeKey): GateSource | undefined {
  return effectiveGate(session, scopeAt(session, key), { kind: key === "main" ? "main" : "agent" });
}

/**
 * Hooks that run outside the gate of a gated scope: those this call would
 * register (a Skill call), or those a skill loaded earlier in the session
 * registered, unless the skill is the one that gates the scope. Why, or undefined.
 */
export function foreignHooksOf(session: SessionState, gate: GateSource | undefined, registers?: string): string | undefined {
  if (!gate) return undefined;
  if (registers !== undefined && registers !== gate.file) return `loading it would register the hooks in ${registers}`;
  const other = (session.hookFiles ?? []).find((file) => file !== gate.file);
  return other === undefined ? undefined : `a skill loaded earlier in this session registered the hooks in ${other}`;
}

/** The scope's name (SPEC §2): a subagent, or the main conversation, which a skill with `utility_scope: dispatch` makes a dispatcher. */
export function decisionScopeOf(key: ScopeKey, gate: GateSource | undefined): Scope {
  if (key !== "main") return "subagent";
  return gate?.scope === "dispatch" ? "dispatch" : "self";
}

/** The main scope's task a scope's spend counts toward: its own for the main scope, the one it was launched in for a subagent. */
export function rootTaskOf(session: SessionState, key: ScopeKey): number {
  return key === "main" ? session.main.task : (scopeAt(session, key).rootTask ?? session.main.task);
}

/** One root task's main scope: the main scope while that task is its current one, or an empty one of that task (rootTaskSpend adds the task's subagents). */
function rootOf(session: SessionState, rootTask: number): ScopeState {
  return rootTask === session.main.task ? session.main : { ...session.main, task: rootTask, spend: zeroSpend() };
}

/**
 * What the task at the root of this scope's tree has spent (SPEC §12): the
 * main scope's task and every subagent launched in it, nested ones included.
 * A subagent still running after the user typed a new prompt counts toward
 * the task it was launched in.
 */
export function rootSpendOf(session: SessionState, key: ScopeKey): Spend {
  return rootTaskSpend(rootOf(session, rootTaskOf(session, key)), Object.values(session.agents));
}

/**
 * Subagents the root task has launched: the launches the gate admitted, or
 * the subagents that started, whichever is more (a Workflow or a forked
 * skill admitted once may start several; SPEC §12 counts what starts).
 */
export function launchesOf(session: SessionState, key: ScopeKey): number {
  const rootTask = rootTaskOf(session, key);
  const started = Object.values(session.agents).filter((agent) => agent.rootTask === rootTask).length;
  return launchesFrom(rootSpendOf(session, key).agentsLaunched, started);
}

/** A task's launches from its tree's count of admitted launches and the subagents that started in it: the more of the two (see launchesOf). */
export function launchesFrom(admitted: number, started: number): number {
  return Math.max(admitted, started);
}

/**
 * The frontmatter budgets that bind a scope: its own gate's while it is
 * gated, and, for a subagent, the gate of the main scope whose task launched
 * it (a task's budgets count its whole tree, SPEC §12).
 */
export function frontmatterBudgetsOf(session: SessionState, key: ScopeKey): Budgets {
  const own = gateOf(session, key)?.budgets;
  if (key === "main") return tightestBudgets(own);
  const rootTask = rootTaskOf(session, key);
  const root = rootTask === session.main.task ? gateOf(session, "main")?.budgets : undefined;
  return tightestBudgets(own, root);
}

/** A subagent that started past its task's `maxAgents` (its ordinal): none of its calls may run. */
export function startedPastLimit(session: SessionState, key: ScopeKey, maxAgents: number | undefined): number | undefined {
  if (agentIdOf(key) === undefined || maxAgents === undefined) return undefined;
  const ordinal = scopeAt(session, key).ordinal;
  return ordinal !== undefined && ordinal > maxAgents ? ordinal : undefined;
}

/** Calls let through in the scope that have not come back: the turn's end takes them off the count. */
export function pendingCalls(session: SessionState, key: ScopeKey): number {
  return Object.keys(scopeAt(session, key).pending).length;
}

/** The session's whole spend, every scope and every task (SPEC §12 "beyond one task"). */
export function sessionSpend(session: SessionState): Spend {
  return session.spend ? copySpend(session.spend) : zeroSpend();
}

/**
 * Does the scope still await an activation (a Skill call, a slash command)?
 * Not once the plain prompt it awaits has its line among `keysSeen` (then so
 * does every line before it).
 */
export function stillAwaiting(scope: ScopeState, keysSeen: () => readonly string[]): boolean {
  if (scope.awaitingActivation !== true) return false;
  const key = scope.awaitingPrompt;
  if (key === undefined) return true;
  return !keysSeen().includes(key);
}

/** The model of the newest assistant message read in a scope (any task), if any: a tier for a line no call has told yet. */
export function lastModelOf(session: SessionState, key: ScopeKey): string | undefined {
  const models = scopeAt(session, key).messageModels;
  return models ? Object.values(models).at(-1) : undefined;
}
