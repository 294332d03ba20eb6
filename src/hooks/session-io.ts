// The hooks' side of the session machine: what they read (the transcript's new
// lines, skill and agent files, the log when the state is gone) turned into
// events. No state field is assigned here; `reduce` does that.
import { join } from "node:path";
import { manualSource } from "../engine/gate-policy.js";
import type { ScopeKey, SessionEvent } from "../engine/session/events.js";
import { reduceAll, scopeAt } from "../engine/session/reduce.js";
import { newScope, newSession, type SessionState } from "../engine/session/state.js";
import { ingestEvents, promptKeysIn } from "../ingest/transcript.js";
import { loggedSwitches } from "../state/log-file.js";
import { sessionLogPath } from "../state/paths.js";
import type { HookContext } from "./context.js";
import type { ScopeRef } from "./scope.js";
import { offEvidenceEvents } from "./switch-evidence.js";
import { forkJoinEvents } from "./fork-join.js";
import { forkOriginEvents } from "./fork-origin.js";
import { readNewLines, TranscriptTrouble } from "./transcript.js";

/**
 * A session the state does not hold (new, or its file was deleted): what the
 * gate remembers must not vanish with one file (SPEC §10), so `/utility on`
 * comes back from the step log, and an `off` still to be seen is vouched
 * again. `firstPrompt`: the state is new because this is the session's first
 * prompt, which starts task 1 once its line is seen.
 */
export function freshSession(ctx: HookContext, sessionId: string, firstPrompt = false): SessionState {
  const start = firstPrompt ? { ...newSession(sessionId), main: newScope(0) } : newSession(sessionId);
  const logged = loggedSwitches(sessionLogPath(ctx.dataDir, sessionId));
  const events: SessionEvent[] = [];
  if (logged.applied === "on") events.push({ kind: "switch_restored" });
  if (logged.pending)
    events.push({ kind: "prompt_vouched", key: logged.pending.promptId, own: true, switch: logged.pending.switch, slash: true });
  return events.length === 0 ? start : reduceAll(start, events).session;
}

/** The stored session, or a fresh one (see freshSession). StateUnreadableError passes through. */
export function storedSession(ctx: HookContext, sessionId: string): SessionState {
  return ctx.store.read(sessionId) ?? freshSession(ctx, sessionId);
}

/**
 * A subagent's first sight: its start (when SubagentStart was not seen) and,
 * once per scope, its definition (the frontmatter of the file that defines
 * its type, read only when it exists). For the main conversation, the agent
 * definition it runs as, when its hooks' `agent_type` names one not seen yet.
 */
export async function arrivalEvents(
  session: SessionState,
  ref: ScopeRef,
  agentType: string | undefined,
  ctx: HookContext,
): Promise<SessionEvent[]> {
  if (ref.agentId === undefined) return mainAgentEvents(session, agentType, ctx);
  const events: SessionEvent[] = [];
  if (!Object.hasOwn(session.agents, ref.agentId)) events.push({ kind: "subagent_started", agentId: ref.agentId });
  const known = Object.hasOwn(session.agents, ref.agentId) ? session.agents[ref.agentId]!.agentType : undefined;
  if (agentType !== undefined && known === undefined) {
    const definition = await ctx.loadAgent(agentType, ctx.env.CLAUDE_PROJECT_DIR);
    events.push({ kind: "definition_loaded", agentId: ref.agentId, agentType, ...(definition ? { definition } : {}) });
  }
  return events;
}

/**
 * The main conversation run as an agent definition (`--agent`, the `agent`
 * setting): Claude Code 2.1.328 names its type as `agent_type` in the main
 * thread's hook inputs (docs/claude-code-facts.md). Looked up once per type.
 */
async function mainAgentEvents(session: SessionState, agentType: string | undefined, ctx: HookContext): Promise<SessionEvent[]> {
  if (agentType === undefined || agentType === session.main.agentType) return [];
  const definition = await ctx.loadAgent(agentType, ctx.env.CLAUDE_PROJECT_DIR);
  return [{ kind: "main_agent", agentType, ...(definition ? { definition } : {}) }];
}

/** The vouched prompts whose lines are still to be seen. */
const vouchedKeys = (session: SessionState) => Object.keys(session.prompts ?? {});

/**
 * What the scope's transcript says since the hooks last looked, as events:
 * prompt lines, results, usage, compactions, jobs' ends, skills activated
 * (their files read here, once per task), and how far it was read.
 */
export async function transcriptEvents(session: SessionState, ref: ScopeRef, ctx: HookContext): Promise<SessionEvent[]> {
  const scope = scopeAt(session, ref.key);
  const read = readNewLines(scope, ref, vouchedKeys(session));
  const events: SessionEvent[] = [];
  for (const item of ingestEvents(read.events, ref.key, ctx.sha256)) {
    if (item.kind !== "skill_seen") {
      events.push(item);
      continue;
    }
    // Read at each activation line (a new task may have forgotten it); ungated skills are remembered too.
    const file = join(item.folder, "SKILL.md");
    const source = (await ctx.loadSkill(file)) ?? { ...manualSource(), file, gated: false };
    events.push({ kind: "skill_loaded", scope: item.scope, source });
  }
  events.push({
    kind: "lines_read",
    scope: ref.key,
    offset: read.nextOffset,
    ...(read.transcriptId ? { transcriptId: read.transcriptId } : {}),
  });
  return events;
}

/** The prompt keys among the scope's new lines (read outside the lock, to know whether a prompt's line is written yet). */
export function promptKeysSince(session: SessionState, ref: ScopeRef): string[] {
  return promptKeysIn(readNewLines(scopeAt(session, ref.key), ref, vouchedKeys(session)).events);
}

/** The session after the scope's arrival and new lines, and the events that made it. */
export async function caughtUp(
  session: SessionState,
  ref: ScopeRef,
  agentType: string | undefined,
  ctx: HookContext,
): Promise<{ events: SessionEvent[]; reduced: ReturnType<typeof reduceAll> }> {
  // A `/utility off` answered before is in force once its line is written (src/engine/session/switch-off.ts).
  // A forked session carries the switch of the one it came from (./fork-origin.ts).
  const evidence =
    ref.kind === "main" ? [...offEvidenceEvents(session, ref.transcript, ctx.env), ...forkOriginEvents(session, ref.transcript, ctx)] : [];
  const arrival = await arrivalEvents(session, ref, agentType, ctx);
  // A fork inherits its launcher's gate (src/engine/session/fork.ts).
  if (agentType === "fork") arrival.push(...forkJoinEvents(reduceAll(session, arrival).session, ref, agentType));
  const arrived = reduceAll(session, [...evidence, ...arrival]).session;
  const lines = await transcriptEvents(arrived, ref, ctx);
  const events = [...evidence, ...arrival, ...lines];
  return { events, reduced: reduceAll(session, events) };
}

export type { ScopeKey };

/**
 * caughtUp, for the hooks that end a turn or a session: a transcript that
 * cannot be read (TranscriptTrouble) does not stop them; the session goes on
 * from what the state holds, and the trouble is returned to be told.
 */
export async function caughtUpUnlessTrouble(
  session: SessionState,
  ref: ScopeRef,
  agentType: string | undefined,
  ctx: HookContext,
): Promise<{ reduced: ReturnType<typeof reduceAll>; trouble?: string }> {
  try {
    return { reduced: (await caughtUp(session, ref, agentType, ctx)).reduced };
  } catch (error) {
    if (!(error instanceof TranscriptTrouble)) throw error;
    const arrived = reduceAll(session, await arrivalEvents(session, ref, agentType, ctx));
    return { reduced: arrived, trouble: error.message };
  }
}
