import { effectiveGate } from "../gate-policy.js";
import type { ScopeKey, SessionEvent } from "./events.js";
import type { GateSource, ScopeDraft, ScopeState, SessionDraft } from "./state.js";

/**
 * Forks (issue 31, hole 9). `Agent{subagent_type: "fork"}` starts a subagent
 * that carries its launcher's whole conversation: Claude Code 2.1.328 gives
 * it `agent_type: "fork"` and writes `isFork: true` and the launching call's
 * `toolUseId` in its `.meta.json` (docs/claude-code-facts.md). A fork of a
 * gated scope carries the gated skill's text and the reports it scored, so
 * it is gated as its launcher was when the launch was let through: the same
 * gate (a `/utility on` main's, a skill's, an agent definition's), and its
 * steps go on from the launcher's count at the launch, so that it can take
 * no more than the launcher had left (docs/gate.md). Pure.
 */

/** The tool names that launch a subagent with a `subagent_type`. */
const LAUNCH_TOOLS = new Set(["Agent", "Task"]);

/** How many launches wait for their fork at most (the oldest go). */
export const FORKS_LIMIT = 16;

export function isForkLaunch(tool: string, input: unknown): boolean {
  if (!LAUNCH_TOOLS.has(tool) || input === null || typeof input !== "object") return false;
  return (input as { subagent_type?: unknown }).subagent_type === "fork";
}

/** The event a gated scope's let-through fork launch adds to its decision's (src/engine/session/decide.ts). */
export function forkLaunchEvents(
  key: ScopeKey,
  call: { tool: string; input: unknown; toolUseId?: string },
  gated: boolean,
  decision: string,
): SessionEvent[] {
  if (!gated || decision !== "passed" || call.toolUseId === undefined || !isForkLaunch(call.tool, call.input)) return [];
  return [{ kind: "fork_launched", scope: key, toolUseId: call.toolUseId }];
}

/** The launching scope's gate and step, kept for its fork under the call's id. */
export function recordFork(session: SessionDraft, scope: ScopeState, key: ScopeKey, toolUseId: string): void {
  const source = effectiveGate(session, scope, { kind: key === "main" ? "main" : "agent" });
  if (!source) return;
  const forks = { ...session.forks, [toolUseId]: { source, step: scope.step } };
  const ids = Object.keys(forks);
  for (const old of ids.slice(0, Math.max(0, ids.length - FORKS_LIMIT))) delete forks[old];
  session.forks = forks;
}

/**
 * The launch a fork joins: the one its `.meta.json` names, taken (it has one
 * fork); none when that call was not a gated launch. With no name (the file
 * could not be read) the oldest gated launch still waiting, left for its own
 * fork too: fail closed.
 */
export function joinFork(session: SessionDraft, scope: ScopeDraft, toolUseId: string | undefined): void {
  const forks = session.forks ?? {};
  const id = toolUseId ?? Object.keys(forks)[0];
  const launch = id !== undefined && Object.hasOwn(forks, id) ? forks[id] : undefined;
  scope.forkOf = launch ? id! : "";
  if (!launch) return;
  if (toolUseId !== undefined) {
    const { [toolUseId]: _taken, ...rest } = forks;
    if (Object.keys(rest).length > 0) session.forks = rest;
    else delete session.forks;
  }
  inherit(scope, launch.source, launch.step);
}

function inherit(scope: ScopeDraft, source: GateSource, step: number): void {
  if (!scope.sources.some((s) => s.file === source.file)) scope.sources = [...scope.sources, source];
  scope.step = Math.max(scope.step, step);
}

/** Whether a scope of this agent type still has to be matched to its launch. */
export function awaitsJoin(scope: ScopeState | undefined, agentType: string | undefined): boolean {
  return agentType === "fork" && scope?.forkOf === undefined;
}

/**
 * A gated skill that runs in a forked subagent (`context: fork`, issue 31's
 * second and third red-team passes): Claude Code starts the subagent with the
 * skill's text only, as the agent type the skill names or as
 * `general-purpose` when it knows no such type (its case and blanks are not
 * the plugin's to guess), writes no launching call in its `.meta.json`, and
 * its first call can come before its transcript shows the skill. So from the
 * Skill call until its result, every subagent that starts is gated by the
 * skill, from step 0: a subagent launched beside it is gated too (fail
 * closed), never the fork left open.
 */
export function recordSkillFork(session: SessionDraft, toolUseId: string, source: GateSource): void {
  const forks = { ...session.skillForks, [toolUseId]: { source } };
  const ids = Object.keys(forks);
  for (const old of ids.slice(0, Math.max(0, ids.length - FORKS_LIMIT))) delete forks[old];
  session.skillForks = forks;
}

/** The Skill call ended (its result, or a denial): the fork it started has ended with it. */
export function endSkillFork(session: SessionDraft, toolUseId: string): void {
  if (!session.skillForks || !Object.hasOwn(session.skillForks, toolUseId)) return;
  const { [toolUseId]: _ended, ...rest } = session.skillForks;
  if (Object.keys(rest).length > 0) session.skillForks = rest;
  else delete session.skillForks;
}

/** A subagent starts: the gated skills forked and still running gate it, whatever its type. */
export function joinSkillForks(session: SessionDraft, scope: ScopeDraft): void {
  for (const fork of Object.values(session.skillForks ?? {})) inherit(scope, fork.source, 0);
}
