import type { Action } from "../engine/actions.js";
import { parseLastReport } from "../engine/report/parse.js";
import type { ScopeState } from "../state/schema.js";
import { flattenResultContent } from "../transcript/line.js";
import type { HookContext } from "./context.js";
import { applyScan, effectiveGate, scanTranscript, vouchedIn } from "./gating.js";
import { freshSession, switchRecords } from "./user-prompt-submit.js";
import type { StopInput } from "./input.js";
import { baseRecord, type HookResult } from "./output.js";
import { scopeOf, scopeState } from "./scope.js";

const TAKES_A_CALL: readonly Action[] = ["retrieve", "tool_call", "verify", "delegate"];

function messageText(message: unknown): string {
  if (typeof message === "string") return message;
  if (message && typeof message === "object" && "content" in message) return flattenResultContent((message as { content: unknown }).content);
  return "";
}

/** The report in the final message, if it selected an action that needs a call (which a final message never makes). */
export function untakenAction(lastMessage: unknown): { action: Action; utility: number } | undefined {
  const parsed = parseLastReport(messageText(lastMessage));
  if (!parsed?.ok || !TAKES_A_CALL.includes(parsed.value.action)) return undefined;
  return { action: parsed.value.action, utility: parsed.value.utility };
}

/**
 * Steps are counted when the gate lets a call through; a call that Claude
 * Code's own permissions then refused (or that was interrupted) never
 * reaches PostToolUse. At the end of the turn every call has finished, so
 * what is still pending never ran: it is not a step.
 */
export function uncountNeverRan(scope: ScopeState): number {
  const never = Object.keys(scope.pending).length;
  scope.step = Math.max(0, scope.step - never);
  scope.pending = {};
  return never;
}

/**
 * Stop and SubagentStop: in a gated scope, block a stop once when the last
 * report selected an action that was never taken; stop_hook_active (Claude
 * Code's own flag) and the scope's memory keep it from looping.
 */
export async function stopHook(input: StopInput, ctx: HookContext, event: "Stop" | "SubagentStop"): Promise<HookResult> {
  const started = ctx.now();
  const ref = scopeOf(input);
  // A skill activated just before the stop may not be in the transcript yet: wait for the final message's line.
  const known = ctx.store.read(input.session_id);
  const finalText = messageText(input.last_assistant_message);
  if (known && scopeState(known, ref).awaitingActivation && finalText.trim() !== "") ctx.waitForFinal?.(ref, finalText);
  const result = await ctx.store.transact(input.session_id, async (existing) => {
    const session = existing ?? freshSession(ctx, input.session_id);
    const scope = scopeState(session, ref);
    const prompts = await applyScan(scope, scanTranscript(scope, ref, vouchedIn(session)), ctx.loadSkill, session);
    switchRecords(ctx, event, input, ref, session, prompts, started);
    delete scope.awaitingActivation;
    const gate = effectiveGate(session, scope, ref);
    const untaken = gate && !input.stop_hook_active && !scope.stopBlocked ? untakenAction(input.last_assistant_message) : undefined;
    const uncounted = uncountNeverRan(scope);
    if (untaken) scope.stopBlocked = true;
    else if (ref.kind === "agent") Object.assign(scope, { ended: true, history: [], pending: {} });
    return { state: session, result: { scope: { ...scope }, gate, untaken, uncounted } };
  });
  const { scope, gate, untaken, uncounted } = result;
  const reason = untaken
    ? `utility gate: your last report selected ${untaken.action} (Utility ${untaken.utility}) but no call was made. Take that action now, or write a new report that selects respond or stop.`
    : undefined;
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, event, input, ref, scope, gate, started),
    decision: untaken ? "blocked" : "observed",
    ...(reason ? { reason } : {}),
    ...(uncounted > 0 ? { uncounted } : {}),
  });
  return reason ? { output: { decision: "block", reason } } : {};
}
