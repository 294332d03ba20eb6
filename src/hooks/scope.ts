import { dirname, join } from "node:path";
import type { LineFilter } from "../transcript/line-filter.js";
import { safeId } from "../state/paths.js";
import type { Conversation, Scope } from "../engine/vocabulary.js";
import { newScope, type GateSource, type ScopeState, type SessionState } from "../state/schema.js";
import type { ScopeEvent } from "../engine/scope-state/events.js";
import { applyEvent, applyEvents, type Outcome } from "../engine/scope-state/reducer.js";

export { rootSpendOf } from "../engine/scope-state/reducer.js";

/** Which loop a hook call belongs to: the main conversation, or one subagent (SPEC §2). */
export interface ScopeRef {
  kind: Conversation;
  agentId?: string;
  /** The scope's own transcript: the session file, or the subagent's file beside it. */
  transcript: string;
  /** Which lines of that file are the scope's own. */
  lines: LineFilter;
}

export function scopeOf(input: { session_id: string; transcript_path: string; agent_id?: string | undefined }): ScopeRef {
  if (!input.agent_id) return { kind: "main", transcript: input.transcript_path, lines: "main" };
  const agentId = safeId("agent id", input.agent_id);
  const sessionId = safeId("session id", input.session_id);
  const transcript = join(dirname(input.transcript_path), sessionId, "subagents", `agent-${agentId}.jsonl`);
  return { kind: "agent", agentId, transcript, lines: "all" };
}

export function scopeState(session: SessionState, ref: ScopeRef): ScopeState {
  if (ref.kind === "main") return session.main;
  // Own keys only: an id such as "constructor" must not find what every object inherits.
  const existing = Object.hasOwn(session.agents, ref.agentId!) ? session.agents[ref.agentId!] : undefined;
  if (existing) return existing;
  // A subagent counts toward the main scope's task it was launched in (SPEC §12).
  const created = applyEvent(newScope(1), { kind: "subagent_started", rootTask: session.main.task }).state;
  session.agents[ref.agentId!] = created;
  return created;
}

/** Puts the reducer's result in place of a scope's state (the object stays: callers hold it). */
export function replaceScope(target: ScopeState, next: ScopeState): void {
  for (const key of Object.keys(target) as (keyof ScopeState)[]) if (!(key in next)) delete target[key];
  Object.assign(target, next);
}

/** Feeds events to the scope's reducer, in place; returns the outcomes they made known. */
export function reduceScope(target: ScopeState, events: readonly ScopeEvent[]): Outcome[] {
  const reduced = applyEvents(target, events);
  replaceScope(target, reduced.state);
  return reduced.outcomes;
}

/** The scope's name (SPEC §2): a subagent, or the main conversation, which a skill with utility_scope: dispatch makes a dispatcher. */
export function scopeNameOf(ref: ScopeRef, gate: GateSource | undefined): Scope {
  if (ref.kind === "agent") return "subagent";
  return gate?.scope === "dispatch" ? "dispatch" : "self";
}
