import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { agentKey, type ScopeKey } from "../engine/session/events.js";
import type { Conversation } from "../engine/vocabulary.js";
import type { LineFilter } from "../transcript/line-filter.js";
import { safeId } from "../state/paths.js";

/** Which loop a hook call belongs to and where its transcript is: the main conversation, or one subagent (SPEC §2). */
export interface ScopeRef {
  kind: Conversation;
  /** The session machine's key for it. */
  key: ScopeKey;
  agentId?: string;
  /** The scope's own transcript: the session file, or the subagent's file beside it. */
  transcript: string;
  /** Which lines of that file are the scope's own. */
  lines: LineFilter;
}

export function scopeOf(input: { session_id: string; transcript_path: string; agent_id?: string | undefined }): ScopeRef {
  if (!input.agent_id) return { kind: "main", key: "main", transcript: input.transcript_path, lines: "main" };
  const agentId = safeId("agent id", input.agent_id);
  const sessionId = safeId("session id", input.session_id);
  const subagents = join(dirname(input.transcript_path), sessionId, "subagents");
  return { kind: "agent", key: agentKey(agentId), agentId, transcript: subagentTranscript(subagents, agentId), lines: "all" };
}

/**
 * A subagent's own transcript: `subagents/agent-<id>.jsonl`, or, for one a
 * Workflow started, `subagents/workflows/<run id>/agent-<id>.jsonl`
 * (docs/claude-code-facts.md). Before either exists, the first.
 */
function subagentTranscript(subagents: string, agentId: string): string {
  const name = `agent-${agentId}.jsonl`;
  const plain = join(subagents, name);
  if (existsSync(plain)) return plain;
  let runs: string[];
  try {
    runs = readdirSync(join(subagents, "workflows"));
  } catch {
    return plain;
  }
  const found = runs.map((run) => join(subagents, "workflows", run, name)).find((file) => existsSync(file));
  return found ?? plain;
}
