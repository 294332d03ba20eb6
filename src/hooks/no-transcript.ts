// A session whose transcript Claude Code never writes (issue 31, hole 11).
import { lstatSync, readFileSync } from "node:fs";
import type { ScopeKey } from "../engine/session/events.js";
import { scopeAt } from "../engine/session/reduce.js";
import { gateOf } from "../engine/session/views.js";
import type { GateSource, SessionState } from "../engine/session/state.js";
import { TranscriptTrouble } from "./transcript.js";
import { TRANSCRIPT_FILE_WAIT_MS } from "./wait.js";

/**
 * What the user is told, once, and what a gated call's refusal says.
 * `claude -p --no-session-persistence` (the SDK's `persistSession: false`)
 * writes no transcript: hook inputs still name one (docs/claude-code-facts.md).
 */
export const NO_TRANSCRIPT =
  "Claude Code keeps no transcript for this session (--no-session-persistence, or persistSession: false in the SDK), so the plugin can read no action report and measure no tokens";

/** The consequences, for the one warning at the session's first prompt. */
export const NO_TRANSCRIPT_TOLD = `utility: ${NO_TRANSCRIPT}. Calls in a gated skill or under /utility on are refused; elsewhere nothing is refused, steps and subagents are counted (max_agents applies), but token and cost budgets cannot bind.`;

/** No transcript to wait for or read: refused where gated, with the reason; never a wait. */
export class NoTranscript extends TranscriptTrouble {}

const flagOf = new Map<string, boolean>();

/**
 * Whether the running Claude Code was started with `--no-session-persistence`
 * (its command line, CLAUDE_PID, Linux /proc; elsewhere false). Read once per
 * process and pid: a command line does not change.
 */
export function startedWithoutPersistence(env: Readonly<Record<string, string | undefined>>): boolean {
  const pid = env.CLAUDE_PID;
  if (!pid || !/^\d+$/.test(pid)) return false;
  let known = flagOf.get(pid);
  if (known === undefined) {
    try {
      known = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes("--no-session-persistence");
    } catch {
      known = false;
    }
    flagOf.set(pid, known);
  }
  return known;
}

/** Lines were read from the main transcript: it was written, and if it is gone now, TranscriptTrouble says so; it is not one never kept. */
function wasWritten(session: SessionState): boolean {
  return session.main.offset > 0 || session.main.transcriptId !== undefined;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the session's transcript will never be written: the main
 * transcript (the hook input's `transcript_path`, in subagents too) is not
 * there, and either Claude Code was started without persistence, or the
 * latest prompt was submitted long enough ago that Claude Code would have
 * made the file (it does at its first flush, 100 ms after the prompt's line
 * is queued; SubagentStart waits as long for it). Pure but for one lstat
 * and the command line read once.
 */
export function keepsNoTranscript(
  mainTranscript: string,
  session: SessionState,
  env: Readonly<Record<string, string | undefined>>,
  nowMs: number,
): boolean {
  if (mainTranscript === "" || exists(mainTranscript)) return false;
  if (wasWritten(session)) return false;
  if (startedWithoutPersistence(env)) return true;
  return session.promptAt !== undefined && nowMs - session.promptAt >= TRANSCRIPT_FILE_WAIT_MS;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * keepsNoTranscript, for a call that would wait for its line: while the
 * file is not there and the latest prompt is recent, it may still be made,
 * so wait for it (polling, at most TRANSCRIPT_FILE_WAIT_MS in all, within
 * the hook's deadline), never the 3 s a line is waited for. With no prompt
 * seen (no state of one), nothing is known: false, as before.
 */
export function noTranscriptAfterWait(
  mainTranscript: string,
  session: SessionState,
  ctx: { env: Readonly<Record<string, string | undefined>>; clock(): Date; deadline?: { check(doing: string): void } },
): boolean {
  if (session.promptAt === undefined || wasWritten(session)) return false;
  const started = Date.now();
  for (;;) {
    if (mainTranscript === "" || exists(mainTranscript)) return false;
    if (keepsNoTranscript(mainTranscript, session, ctx.env, ctx.clock().getTime())) return true;
    if (Date.now() - started >= TRANSCRIPT_FILE_WAIT_MS) return true;
    ctx.deadline?.check("waiting for the transcript's file");
    Atomics.wait(sleeper, 0, 0, 5);
  }
}

/**
 * The gated skill a Skill call of the scope let through will load: Claude
 * Code's result line says it loaded, and with no transcript that line never
 * comes, so the scope is taken as gated by it from the call on (stricter).
 */
export function pendingSkillGate(session: SessionState, key: ScopeKey): GateSource | undefined {
  return Object.values(scopeAt(session, key).skillCalls ?? {}).find((call) => call.source?.gated)?.source;
}

/**
 * For PreToolUse: a call that would wait for the transcript (`needed`), or
 * whose scope a Skill call may have gated, when none will come. True: decide
 * without it, waiting for nothing. A gated scope cannot be decided without
 * it: NoTranscript is thrown, and the call refused with the reason (./fail-closed.ts).
 */
export function waitsInVain(
  needed: boolean,
  session: SessionState,
  key: ScopeKey,
  mainTranscript: string,
  ctx: Parameters<typeof noTranscriptAfterWait>[2],
): boolean {
  const skillGate = pendingSkillGate(session, key);
  if (!(needed || skillGate) || !noTranscriptAfterWait(mainTranscript, session, ctx)) return false;
  if (gateOf(session, key) ?? skillGate) throw new NoTranscript(NO_TRANSCRIPT);
  return true;
}
