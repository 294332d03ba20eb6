import { ENDING_ACTIONS, isCallAction, type Action } from "../engine/vocabulary.js";
import { parseLastReport } from "../engine/report/parse.js";
import { neverRan } from "../engine/scope-state/reducer.js";
import { newSession } from "../state/schema.js";
import { flattenResultContent } from "../transcript/line.js";
import type { HookContext } from "./context.js";
import { applyScan, effectiveGate, scanTranscript } from "./gating.js";
import type { StopInput } from "./input.js";
import { baseRecord, logOutcomes, type HookResult } from "./output.js";
import { reduceScope, scopeOf, scopeState } from "./scope.js";

function messageText(message: unknown): string {
  if (typeof message === "string") return message;
  if (message && typeof message === "object" && "content" in message) return flattenResultContent((message as { content: unknown }).content);
  return "";
}

/** The report in the final message, if it selected an action that needs a call (which a final message never makes). */
export function untakenAction(lastMessage: unknown): { action: Action; utility: number } | undefined {
  const parsed = parseLastReport(messageText(lastMessage));
  if (!parsed?.ok || !isCallAction(parsed.value.action)) return undefined;
  return { action: parsed.value.action, utility: parsed.value.utility };
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
  // Calls still pending may have results not written yet (the same flush): wait for the final message, after which all are.
  const known = ctx.store.read(input.session_id);
  const finalText = messageText(input.last_assistant_message);
  const knownScope = known ? scopeState(known, ref) : undefined;
  const waitFor = knownScope?.awaitingActivation || (knownScope !== undefined && neverRan(knownScope) > 0);
  if (waitFor && finalText.trim() !== "") ctx.waitForFinal?.(ref, finalText);
  const result = await ctx.store.transact(input.session_id, async (existing) => {
    const session = existing ?? newSession(input.session_id);
    const scope = scopeState(session, ref);
    const outcomes = await applyScan(scope, scanTranscript(scope, ref), ctx.loadSkill);
    delete scope.awaitingActivation;
    const gate = effectiveGate(session, scope, ref);
    const untaken = gate && !input.stop_hook_active && !scope.stopBlocked ? untakenAction(input.last_assistant_message) : undefined;
    const uncounted = neverRan(scope);
    reduceScope(scope, [{ kind: "turn_end", subagent: ref.kind === "agent" && !untaken }]);
    if (untaken) scope.stopBlocked = true;
    return { state: session, result: { scope: { ...scope }, gate, untaken, uncounted, outcomes } };
  });
  const { scope, gate, untaken, uncounted, outcomes } = result;
  logOutcomes(ctx, event, input, ref, scope, gate, outcomes);
  const reason = untaken
    ? `utility gate: your last report selected ${untaken.action} (Utility ${untaken.utility}) but no call was made. Take that action now, or write a new report that selects ${ENDING_ACTIONS.join(" or ")}.`
    : undefined;
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, event, input, ref, scope, gate, started),
    decision: untaken ? "blocked" : "observed",
    ...(reason ? { reason } : {}),
    ...(uncounted > 0 ? { uncounted } : {}),
  });
  return reason ? { output: { decision: "block", reason } } : {};
}
