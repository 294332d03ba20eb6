import { callDigest } from "../engine/redundancy.js";
import { errorLine } from "../state/file-error.js";
import type { SessionEvent } from "../engine/session/events.js";
import { reduceAll } from "../engine/session/reduce.js";
import { newScope, type GateSource, type SessionState } from "../engine/session/state.js";
import { gateOf } from "../engine/session/views.js";
import { StateUnreadableError } from "../state/state-file.js";
import type { HookContext } from "./context.js";
import { DeadlineError } from "./deadline.js";
import type { PreToolUseInput } from "./input.js";
import { baseRecord, type HookResult } from "./records.js";
import { recordError } from "./run.js";
import { scopeOf, type ScopeRef } from "./scope.js";
import { arrivalEvents, freshSession, transcriptEvents } from "./session-io.js";
import { skillGateSource } from "./skill-call.js";
import { TranscriptTrouble } from "./transcript.js";
import { NoTranscript, pendingSkillGate } from "./no-transcript.js";

/**
 * Something went wrong before a decision. A gated scope fails closed: the
 * call is refused with the reason, since an undecided PreToolUse lets the
 * call run. An ungated one is never blocked by the plugin's own trouble: one
 * line on stderr and one the user sees, no decision. Whether the scope is
 * gated is the same reduction the hook makes, run again from whatever can
 * still be read (SPEC §6, §10): the stored state, else the log's switches;
 * the subagent's definition; the transcript from its start. Each source
 * that fails says nothing; any one that shows a gate is enough.
 */
export async function failClosed(error: unknown, input: PreToolUseInput, ctx: HookContext): Promise<HookResult> {
  const trouble = describeTrouble(error, ctx);
  const evidence = (await gateEvidence(input, ctx).catch(() => undefined)) ?? (await gatingSkill(error, input, ctx));
  if (!evidence) {
    const told = `utility: ${trouble}; this scope is not gated, so the call goes on.`;
    return { stderr: told, ...(error instanceof TranscriptTrouble ? { output: { systemMessage: told } } : {}) };
  }
  const reason = refusalReason(error, trouble);
  if (error instanceof StateUnreadableError || error instanceof TranscriptTrouble) logTrouble(input, evidence, ctx, reason, ruleOf(error));
  else recordError(ctx.dataDir, "PreToolUse", `${trouble}; refused (gated scope)`);
  return {
    output: {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `utility gate: ${reason}` },
      ...(error instanceof TranscriptTrouble ? { systemMessage: `utility gate: ${reason}` } : {}),
    },
  };
}

/**
 * A Skill call that would gate the scope, while its transcript cannot be
 * read: no report of the skill's task could be checked, so it fails closed
 * as a gated scope does (issue 31, hole 17). With no transcript at all, the
 * gated skill an earlier Skill call loads (hole 11).
 */
async function gatingSkill(error: unknown, input: PreToolUseInput, ctx: HookContext): Promise<Evidence | undefined> {
  if (error instanceof NoTranscript) return skillLoadedUnseen(input, ctx);
  if (!(error instanceof TranscriptTrouble) || input.tool_name !== "Skill") return undefined;
  const gate = await skillGateSource(input.tool_input, input.cwd, ctx).catch(() => undefined);
  const ref = refOrNone(input);
  return gate && ref ? gatedBy(gate, sessionForEvidence(input.session_id, ctx), ref) : undefined;
}

/** With no transcript, a gated skill a Skill call let through gates the scope (./no-transcript.ts, pendingSkillGate). */
function skillLoadedUnseen(input: PreToolUseInput, ctx: HookContext): Evidence | undefined {
  const ref = refOrNone(input);
  const session = sessionForEvidence(input.session_id, ctx);
  const gate = ref ? pendingSkillGate(session, ref.key) : undefined;
  return gate && ref ? gatedBy(gate, session, ref) : undefined;
}

/** The evidence of a skill that gates the scope, its session showing it loaded (so the record says gated, and by which file). */
function gatedBy(gate: GateSource, session: SessionState, ref: ScopeRef): Evidence {
  return { gate, session: reduceAll(session, [{ kind: "skill_loaded", scope: ref.key, source: gate }]).session, ref };
}

function ruleOf(error: unknown): "state_unreadable" | "transcript_unreadable" {
  return error instanceof TranscriptTrouble ? "transcript_unreadable" : "state_unreadable";
}

function refusalReason(error: unknown, trouble: string): string {
  if (error instanceof StateUnreadableError)
    return `the gate's state cannot be read (${trouble}), so no call can be checked; the user can fix or delete that file, or end the task.`;
  if (error instanceof NoTranscript)
    return `${trouble}: this scope is gated, and no call of it can be checked. Use gated skills and /utility on in sessions that keep their transcript.`;
  if (error instanceof TranscriptTrouble)
    return `${trouble}, so no report can be read and no call can be checked. Something replaced the session's transcript; the user can restore it, or start a new session (/clear).`;
  return `${trouble}, so this call cannot be checked and is refused; try the call again, or end the task.`;
}

interface Evidence {
  gate: GateSource;
  session: SessionState;
  ref: ScopeRef;
}

async function gateEvidence(input: PreToolUseInput, ctx: HookContext): Promise<Evidence | undefined> {
  const ref = refOrNone(input);
  let session = sessionForEvidence(input.session_id, ctx);
  if (!ref) {
    // An id that cannot be a path: only a subagent's definition can still say.
    const definition = input.agent_type
      ? await ctx.loadAgent(input.agent_type, ctx.env.CLAUDE_PROJECT_DIR).catch(() => undefined)
      : undefined;
    return definition?.gated
      ? { gate: definition, session, ref: { kind: "agent", key: "agent:?", transcript: "", lines: "all" } }
      : undefined;
  }
  session = await reduceWhatCanBeRead(session, () => arrivalEvents(session, ref, input.agent_type, ctx));
  const fromStart: SessionState = reduceAll(session, [{ kind: "lines_read", scope: ref.key, offset: 0 }]).session;
  session = await reduceWhatCanBeRead(session, async () => {
    const events = await transcriptEvents(fromStart, ref, ctx);
    return [{ kind: "lines_read", scope: ref.key, offset: 0 }, ...events];
  });
  const gate = gateOf(session, ref.key);
  return gate ? { gate, session, ref } : undefined;
}

async function reduceWhatCanBeRead(session: SessionState, read: () => Promise<SessionEvent[]>): Promise<SessionState> {
  try {
    return reduceAll(session, await read()).session;
  } catch {
    return session; // this source shows nothing
  }
}

function refOrNone(input: PreToolUseInput): ScopeRef | undefined {
  try {
    return scopeOf(input);
  } catch {
    return undefined;
  }
}

/** The session as far as it can be read: the state file (only locked, not unreadable: what it holds still shows a gate), else the log's switches. */
function sessionForEvidence(sessionId: string, ctx: HookContext): SessionState {
  try {
    return ctx.store.read(sessionId) ?? freshSession(ctx, sessionId);
  } catch {
    try {
      return freshSession(ctx, sessionId);
    } catch {
      return { version: 1, sessionId, manualGate: false, main: newScope(), agents: {} };
    }
  }
}

function describeTrouble(error: unknown, ctx: HookContext): string {
  const message = errorLine(error);
  if (error instanceof DeadlineError || error instanceof TranscriptTrouble) return message;
  // A lock wait cut short by the deadline says so: "held for more than 0 ms" alone would not explain it.
  const late = ctx.deadline && ctx.deadline.remainingMs() <= 0 ? `; the hook reached its ${ctx.deadline.limitMs} ms deadline` : "";
  return error instanceof StateUnreadableError ? `${message}${late}` : `the hook failed (${message})${late}`;
}

function logTrouble(
  input: PreToolUseInput,
  evidence: Evidence,
  ctx: HookContext,
  reason: string,
  rule: "state_unreadable" | "transcript_unreadable",
): void {
  try {
    ctx.appendLog(input.session_id, {
      ...baseRecord(ctx, "PreToolUse", { input, ref: evidence.ref, session: evidence.session }, ctx.now()),
      tool: input.tool_name,
      ...(input.tool_use_id ? { toolUseId: input.tool_use_id } : {}),
      inputDigest: callDigest(input.tool_name, input.tool_input),
      decision: "refused",
      rule,
      reason,
    });
  } catch {
    // the refusal stands even when it cannot be logged
  }
}
