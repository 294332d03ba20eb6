// A fork's first sight in its own hooks (src/engine/session/fork.ts): the launching call its `.meta.json` names.
import { readSmallText } from "../claude/files.js";
import type { SessionEvent } from "../engine/session/events.js";
import { awaitsJoin } from "../engine/session/fork.js";
import type { SessionState } from "../engine/session/state.js";
import type { ScopeRef } from "./scope.js";

/**
 * For a subagent of type `fork` not matched yet: `fork_joined` with the
 * launching call's id, read from `agent-<id>.meta.json` beside its transcript
 * (Claude Code 2.1.328 writes it before the fork's first call, not by its
 * SubagentStart: docs/claude-code-facts.md). Read only while a gated launch
 * waits for its fork.
 */
export function forkJoinEvents(session: SessionState, ref: ScopeRef, agentType: string | undefined): SessionEvent[] {
  if (ref.agentId === undefined) return [];
  const scope = Object.hasOwn(session.agents, ref.agentId) ? session.agents[ref.agentId] : undefined;
  if (!awaitsJoin(scope, agentType)) return [];
  // No gated launch waiting: none to join (""). One waiting and no file to name it: the oldest (undefined, fail closed).
  const toolUseId = Object.keys(session.forks ?? {}).length > 0 ? launchOf(ref.transcript) : "";
  return [{ kind: "fork_joined", agentId: ref.agentId, ...(toolUseId !== undefined ? { toolUseId } : {}) }];
}

/** The `toolUseId` a subagent's `.meta.json` names, if it can be read. */
function launchOf(transcript: string): string | undefined {
  const text = readSmallText(transcript.replace(/\.jsonl$/, ".meta.json"));
  if (text === undefined) return undefined;
  try {
    const meta: unknown = JSON.parse(text);
    const id = meta !== null && typeof meta === "object" ? (meta as { toolUseId?: unknown }).toolUseId : undefined;
    return typeof id === "string" && id !== "" ? id : undefined;
  } catch {
    return undefined;
  }
}
