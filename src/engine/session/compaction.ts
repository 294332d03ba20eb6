// Whether a subagent is a compaction: Claude Code summarising the
// conversation in a forked model call, which is no subagent the model
// launched (it counts toward no agent budget, SPEC §12). One definition for
// the hooks (SubagentStop) and replay (a subagent file). Pure.
//
// Seen in 2.1.328 (docs/claude-code-facts.md, "Compaction"): `/compact` runs
// PreCompact, then SubagentStop with `agent_type: ""` and an agent id no
// SubagentStart named, then PostCompact; no UserPromptSubmit, no
// SubagentStart, and no subagent file (the fork skips its transcript). Its
// request's last message holds "Your task is to create a detailed summary of
// the conversation so far…", after a "CRITICAL: Respond with TEXT ONLY"
// preamble. A fork given a label gets the agent id `a<label>-<hex>`
// (`acompact-…`); older versions wrote such compaction files beside the
// session, their first line the compaction prompt.

/** The words every compaction prompt holds, at its start or after a short preamble. */
export const COMPACTION_PROMPT = "Your task is to create a detailed summary of the conversation so far";

/** How far into a prompt its compaction words may start (2.1.328's preamble is 380 characters). */
const PREAMBLE_CHARS = 4000;

/** A subagent's first prompt is Claude Code's compaction request. */
export function isCompactionPrompt(text: string): boolean {
  const at = text.indexOf(COMPACTION_PROMPT);
  return at >= 0 && at <= PREAMBLE_CHARS;
}

/** An agent id Claude Code gives a compaction fork (`acompact-<hex>`). */
export function isCompactionAgentId(agentId: string): boolean {
  return /^acompact-/.test(agentId);
}

/**
 * A SubagentStop is a compaction's: its agent never started (no
 * SubagentStart, so the session does not know it) and has no type. Every
 * subagent the model launches (Agent, a forked skill, a Workflow's) starts
 * with SubagentStart and a type.
 */
export function isCompactionStop(stop: { agentId: string; agentType: string | undefined; started: boolean }): boolean {
  if (stop.started) return false;
  return isCompactionAgentId(stop.agentId) || (stop.agentType ?? "") === "";
}
