import { ENDING_ACTIONS, isCallAction, type Action } from "../engine/vocabulary.js";
import { parseLastReport } from "../engine/report/parse.js";
import type { Report } from "../engine/report/types.js";
import { isCompactionStop } from "../engine/session/compaction.js";
import { reduceAll, scopeAt } from "../engine/session/reduce.js";
import { gateOf, pendingCalls, stillAwaiting } from "../engine/session/views.js";
import { flattenResultContent } from "../transcript/line.js";
import type { HookContext } from "./context.js";
import type { StopInput } from "./input.js";
import { baseRecord, loggedReport, logOutcomes, type HookResult } from "./records.js";
import { scopeOf, type ScopeRef } from "./scope.js";
import { caughtUpUnlessTrouble, promptKeysSince, storedSession } from "./session-io.js";
import { logSwitches } from "./switches.js";
import { transcriptTroubleOf } from "./transcript.js";
import { keepsNoTranscript } from "./no-transcript.js";

function messageText(message: unknown): string {
  if (typeof message === "string") return message;
  if (message && typeof message === "object" && "content" in message)
    return flattenResultContent((message as { content: unknown }).content);
  return "";
}

/** The report in the final message, if any. */
export function finalReport(lastMessage: unknown): Report | undefined {
  const parsed = parseLastReport(messageText(lastMessage));
  return parsed?.ok ? parsed.value : undefined;
}

/** The report in the final message, if it selected an action that needs a call (which a final message never makes). */
export function untakenAction(lastMessage: unknown): { action: Action; utility: number } | undefined {
  const report = finalReport(lastMessage);
  return report && isCallAction(report.action) ? { action: report.action, utility: report.utility } : undefined;
}

/**
 * The final message as §4 reads a message: every text block of it, from the
 * scope's transcript. Claude Code hands the hook only the last text block
 * (`last_assistant_message`), before the message's lines are written
 * (docs/claude-code-facts.md): wait (bounded) for them in every scope, so
 * that the turn's last message is counted in its spend now (status, the
 * status line and budgets read it) and not only by the next hook; a scope
 * that may be gated reads its report from them.
 */
async function readFinalMessage(input: StopInput, ref: ScopeRef, ctx: HookContext): Promise<string> {
  const given = messageText(input.last_assistant_message);
  if (input.stop_hook_active || given.trim() === "") return given;
  const scope = await lookAtScope(input, ref, ctx);
  if (!scope.readable || !ctx.waitForFinal?.(ref, given) || !scope.mayBeGated) return given;
  const texts = ctx.readFinal?.(ref);
  return texts && texts.length > 0 ? texts.join("\n\n") : given;
}

/** What the state says so far, on a copy (the state changes under the lock only): can the transcript show the message, may the scope be gated. */
async function lookAtScope(input: StopInput, ref: ScopeRef, ctx: HookContext): Promise<{ readable: boolean; mayBeGated: boolean }> {
  const session = ctx.store.read(input.session_id) ?? storedSession(ctx, input.session_id);
  // A transcript that is no regular file, or that Claude Code never writes, will never show the message: nothing to wait for (issue 31, holes 17 and 11).
  const none = keepsNoTranscript(input.transcript_path, session, ctx.env, ctx.clock().getTime());
  if (none || transcriptTroubleOf(ref, scopeAt(session, ref.key).offset) !== undefined) return { readable: false, mayBeGated: false };
  if (stillAwaiting(scopeAt(session, ref.key), () => promptKeysSince(session, ref))) return { readable: true, mayBeGated: true };
  const caught = (await caughtUpUnlessTrouble(session, ref, input.agent_type, ctx)).reduced.session;
  return { readable: true, mayBeGated: gateOf(caught, ref.key) !== undefined };
}

/**
 * Stop and SubagentStop, top to bottom: the final message and the scope's new
 * lines become events; in a gated scope a stop is blocked once when the last
 * report selected an action that was never taken (stop_hook_active and the
 * scope's memory keep it from looping); the turn's end takes calls that never
 * ran off the count; one record with the final report and the task's spend.
 */
export async function stopHook(input: StopInput, ctx: HookContext, event: "Stop" | "SubagentStop"): Promise<HookResult> {
  const started = ctx.now();
  const ref = scopeOf(input);
  if (ref.agentId !== undefined && compactionEnded(input, ref.agentId, ctx)) return {};
  const finalText = await readFinalMessage(input, ref, ctx);
  const done = await ctx.store.transact(input.session_id, async (existing) => {
    const session = existing ?? storedSession(ctx, input.session_id);
    const { reduced, trouble } = await caughtUpUnlessTrouble(session, ref, input.agent_type, ctx);
    const seen = reduceAll(reduced.session, [{ kind: "activation_seen", scope: ref.key }]).session;
    const gate = gateOf(seen, ref.key);
    const untaken = gate && !input.stop_hook_active && !scopeAt(seen, ref.key).stopBlocked ? untakenAction(finalText) : undefined;
    const uncounted = pendingCalls(seen, ref.key);
    const ended = reduceAll(seen, [
      { kind: "scope", scope: ref.key, event: { kind: "turn_end", subagent: ref.kind === "agent" && !untaken } },
      ...(untaken ? [{ kind: "stop_blocked" as const, scope: ref.key }] : []),
    ]);
    return { state: ended.session, result: { reduced, ended, untaken, uncounted, trouble } };
  });
  const { untaken, uncounted, trouble } = done;
  const where = { input, ref, session: done.ended.session };
  logSwitches(ctx, event, where, done.reduced.prompts, started);
  logOutcomes(ctx, event, where, [...done.reduced.outcomes, ...done.ended.outcomes]);
  const reason = untaken
    ? `utility gate: your last report selected ${untaken.action} (Utility ${untaken.utility}) but no call was made. Take that action now, or write a new report that selects ${ENDING_ACTIONS.join(" or ")}.`
    : undefined;
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, event, where, started),
    decision: untaken ? "blocked" : "observed",
    ...(reason ? { reason } : {}),
    ...(uncounted > 0 ? { uncounted } : {}),
    ...finalReportField(finalText),
  });
  if (reason) return { output: { decision: "block", reason } };
  return trouble ? troubleTold(trouble) : {};
}

/**
 * A compaction's SubagentStop (src/engine/session/compaction.ts): no subagent
 * the model launched, so no scope, no record, nothing counted. The server
 * answers one call at a time, so a subagent's SubagentStart is in the state
 * before its SubagentStop is read here.
 */
function compactionEnded(input: StopInput, agentId: string, ctx: HookContext): boolean {
  const started = Object.hasOwn(ctx.store.read(input.session_id)?.agents ?? {}, agentId);
  return isCompactionStop({ agentId, agentType: input.agent_type, started });
}

/** The transcript could not be read at the end of a turn: the user is told, and nothing is blocked. */
function troubleTold(trouble: string): HookResult {
  const told = `utility: ${trouble}; this turn's last lines could not be read, so a report in them was not checked. Restore the file, or start a new session (/clear).`;
  return { output: { systemMessage: told }, stderr: told };
}

/** The final message's report, as PreToolUse records log theirs: `respond` and `stop` are decisions too (the HTML report shows them). */
function finalReportField(finalText: string): { report?: ReturnType<typeof loggedReport> } {
  const report = finalReport(finalText);
  return report ? { report: loggedReport(report) } : {};
}
