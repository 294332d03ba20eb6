// Which lines of a transcript file a reader keeps: a filter, not a scope. Pure.
import type { TranscriptEvent } from "./line-events.js";

/**
 * `main`: the main conversation's lines (isSidechain false). `sidechain`: subagent lines
 * (1.0.x inline sidechains, 2.1.x agent_progress copies, a subagent's own transcript).
 * `all`: every line, e.g. a subagent's own file whatever its flags say.
 */
export type LineFilter = "main" | "sidechain" | "all";

export interface LineFilterOptions {
  lines?: LineFilter;
  /** Also require this agent id (lines that carry one; 1.0.x sidechain lines carry none). */
  agentId?: string;
}

export function keepsLine(event: TranscriptEvent, filter: LineFilterOptions): boolean {
  const lines = filter.lines ?? "main";
  if (lines === "main" && event.sidechain) return false;
  if (lines === "sidechain" && !event.sidechain) return false;
  if (filter.agentId !== undefined && event.agentId !== undefined && event.agentId !== filter.agentId) return false;
  return true;
}

/** A real user prompt: where a task begins (SPEC §2). */
export function isPrompt(event: TranscriptEvent): boolean {
  return event.kind === "user_text" && event.isPrompt;
}
