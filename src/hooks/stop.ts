import { ENDING_ACTIONS, isCallAction, type Action } from "../engine/vocabulary.js";
import { parseLastReport } from "../engine/report/parse.js";
import { neverRan } from "../engine/scope-state/reducer.js";
import { newSession } from "../state/schema.js";
import { flattenResultContent } from "../transcript/line.js";
import type { HookContext } from "./context.js";
import { activationSeen, applyScan, effectiveGate, scanTranscript, stillAwaiting, vouchedIn, type ScanResult } from "./gating.js";
import { freshSession, switchRecords } from "./user-prompt-submit.js";
import type { StopInput } from "./input.js";
import { baseRecord, loggedReport, logOutcomes, type HookResult } from "./output.js";
import { reduceScope, scopeOf, scopeState, type ScopeRef } from "./scope.js";
import { userBudgetsSet } from "./budgets.js";

function messageText(message: unknown): string {
  if (typeof message === "string") return message;
  if (message && typeof message === "object" && "content" in message)
    return flattenResultContent((message as { content: unknown }).content);
  return "";
}

/** The report in the final message, if it selected an action that needs a call (which a final message never makes). */
export function untakenAction(lastMessage: unknown): { action: Action; utility: number } | undefined {
  const parsed = parseLastReport(messageText(lastMessage));
  if (!parsed?.ok || !isCallAction(parsed.value.action)) return undefined;
  return { action: parsed.value.action, utility: parsed.value.utility };
}

/**
 * The final message as §4 reads a message: every text block of it, from the
 * scope's transcript. Claude Code hands the hook only the last text block
 * (`last_assistant_message`), before the message's lines are written
 * (docs/claude-code-facts.md): in a scope that may be gated, wait (bounded)
 * for them; so too when calls are still pending, whose results come before
 * the final message. Where the transcript does not show it, the given text is
 * all there is.
 */
async function readFinalMessage(input: StopInput, ref: ScopeRef, ctx: HookContext): Promise<string> {
  const given = messageText(input.last_assistant_message);
  if (input.stop_hook_active || given.trim() === "") return given;
  const { mayBeGated, awaitsLines } = await lookAtScope(input, ref, ctx);
  if (!mayBeGated && !awaitsLines) return given;
  if (!ctx.waitForFinal?.(ref, given) || !mayBeGated) return given;
  const texts = ctx.readFinal?.(ref);
  return texts && texts.length > 0 ? texts.join("\n\n") : given;
}

interface ScopeLook {
  /** The final message may be checked against a report: its lines must be read. */
  mayBeGated: boolean;
  /** Calls still pending (their results come before the final message) or budgets to keep (its usage, SPEC §12): wait for its line. */
  awaitsLines: boolean;
}

/** A look at what the transcript shows so far, on a copy: the state is changed under the lock only. */
async function lookAtScope(input: StopInput, ref: ScopeRef, ctx: HookContext): Promise<ScopeLook> {
  const session = ctx.store.read(input.session_id) ?? newSession(input.session_id);
  const scope = scopeState(session, ref);
  const pendingBefore = neverRan(scope);
  let scan: ScanResult | undefined;
  const scanned = () => (scan ??= scanTranscript(scope, ref, vouchedIn(session)));
  const awaiting = stillAwaiting(scope, scanned);
  if (!awaiting) await applyScan(scope, scanned(), ctx.loadSkill, session);
  const mayBeGated = awaiting || effectiveGate(session, scope, ref) !== undefined;
  return { mayBeGated, awaitsLines: pendingBefore > 0 || userBudgetsSet(ctx.env) };
}

/**
 * Stop and SubagentStop: in a gated scope, block a stop once when the last
 * report selected an action that was never taken; stop_hook_active (Claude
 * Code's own flag) and the scope's memory keep it from looping.
 */
export async function stopHook(input: StopInput, ctx: HookContext, event: "Stop" | "SubagentStop"): Promise<HookResult> {
  const started = ctx.now();
  const ref = scopeOf(input);
  const finalText = await readFinalMessage(input, ref, ctx);
  const finalReport = parseLastReport(finalText);
  const result = await ctx.store.transact(input.session_id, async (existing) => {
    const session = existing ?? freshSession(ctx, input.session_id);
    const scope = scopeState(session, ref);
    const applied = await applyScan(scope, scanTranscript(scope, ref, vouchedIn(session)), ctx.loadSkill, session);
    const outcomes = applied.outcomes;
    switchRecords(ctx, event, { input, ref, session }, applied.prompts, started);
    activationSeen(scope);
    const gate = effectiveGate(session, scope, ref);
    const untaken = gate && !input.stop_hook_active && !scope.stopBlocked ? untakenAction(finalText) : undefined;
    const uncounted = neverRan(scope);
    reduceScope(scope, [{ kind: "turn_end", subagent: ref.kind === "agent" && !untaken }]);
    if (untaken) scope.stopBlocked = true;
    return { state: session, result: { scope: { ...scope }, gate, untaken, uncounted, outcomes } };
  });
  const { scope, gate, untaken, uncounted, outcomes } = result;
  logOutcomes(ctx, event, { input, ref, scope, gate }, outcomes);
  const reason = untaken
    ? `utility gate: your last report selected ${untaken.action} (Utility ${untaken.utility}) but no call was made. Take that action now, or write a new report that selects ${ENDING_ACTIONS.join(" or ")}.`
    : undefined;
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, event, { input, ref, scope, gate }, started),
    decision: untaken ? "blocked" : "observed",
    ...(finalReport?.ok ? { report: loggedReport(finalReport.value) } : {}),
    ...(reason ? { reason } : {}),
    ...(uncounted > 0 ? { uncounted } : {}),
  });
  return reason ? { output: { decision: "block", reason } } : {};
}
