import type { Action } from "../engine/actions.js";
import { parseLastReport } from "../engine/report/parse.js";
import { newSession, type ScopeState } from "../state/schema.js";
import { flattenResultContent } from "../transcript/line.js";
import type { HookContext } from "./context.js";
import { applyScan, effectiveGate, scanTranscript } from "./gating.js";
import type { StopInput } from "./input.js";
import { baseRecord, type HookResult } from "./output.js";
import { scopeOf, scopeState, type ScopeRef } from "./scope.js";

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
 * The final message as §4 reads a message: every text block of it, from the
 * scope's transcript. Claude Code hands the hook only the last text block
 * (`last_assistant_message`), before the message's lines are written
 * (docs/claude-code-facts.md): in a scope that may be gated, wait (bounded)
 * for them. Where the transcript does not show it, the given text is all there is.
 */
async function readFinalMessage(input: StopInput, ref: ScopeRef, ctx: HookContext): Promise<string> {
  const given = messageText(input.last_assistant_message);
  if (input.stop_hook_active || given.trim() === "") return given;
  // A look at what the transcript shows so far, on a copy: the state is changed under the lock only.
  const session = ctx.store.read(input.session_id) ?? newSession(input.session_id);
  const scope = scopeState(session, ref);
  if (!scope.awaitingActivation) await applyScan(scope, scanTranscript(scope, ref), ctx.loadSkill);
  if (!scope.awaitingActivation && !effectiveGate(session, scope, ref)) return given;
  if (!ctx.waitForFinal?.(ref, given)) return given;
  const texts = ctx.readFinal?.(ref);
  return texts && texts.length > 0 ? texts.join("\n\n") : given;
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
  const result = await ctx.store.transact(input.session_id, async (existing) => {
    const session = existing ?? newSession(input.session_id);
    const scope = scopeState(session, ref);
    await applyScan(scope, scanTranscript(scope, ref), ctx.loadSkill);
    delete scope.awaitingActivation;
    const gate = effectiveGate(session, scope, ref);
    const untaken = gate && !input.stop_hook_active && !scope.stopBlocked ? untakenAction(finalText) : undefined;
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
