// Which transcript lines belong to the scope being asked about. Pure.
import type { TranscriptEvent } from "./line.js";

/**
 * `main`: the main conversation's lines (isSidechain false). `sidechain`: subagent lines
 * (1.0.x inline sidechains, 2.1.x agent_progress copies, a subagent's own transcript).
 * `all`: every line, e.g. a subagent's own file whatever its flags say.
 */
export type LineScope = "main" | "sidechain" | "all";

export interface ScopeOptions {
  lines?: LineScope;
  /** Also require this agent id (lines that carry one; 1.0.x sidechain lines carry none). */
  agentId?: string;
}

export function inScope(event: TranscriptEvent, scope: ScopeOptions): boolean {
  const lines = scope.lines ?? "main";
  if (lines === "main" && event.sidechain) return false;
  if (lines === "sidechain" && !event.sidechain) return false;
  if (scope.agentId !== undefined && event.agentId !== undefined && event.agentId !== scope.agentId) return false;
  return true;
}

/** A real user prompt: where a task begins (SPEC §2). */
export function isPrompt(event: TranscriptEvent): boolean {
  return event.kind === "user_text" && event.isPrompt;
}
