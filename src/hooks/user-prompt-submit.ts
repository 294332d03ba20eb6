import { newScope, newSession } from "../state/schema.js";
import type { HookContext } from "./context.js";
import { effectiveGate } from "./gating.js";
import type { UserPromptSubmitInput } from "./input.js";
import { baseRecord, type HookResult } from "./output.js";
import { reduceScope, scopeOf } from "./scope.js";

/** `/utility on`, `/utility:utility off`: the user's own prompt, which no model can forge. */
const MANUAL_SWITCH = /^\s*\/(?:utility:)?utility\s+(on|off)\b/i;
/** Any `/utility …` prompt: a question about the current task, not a new one. */
const OWN_COMMAND = /^\s*\/(?:utility:)?utility(?:\s|$)/i;

export function isOwnCommand(prompt: string | undefined): boolean {
  return prompt !== undefined && OWN_COMMAND.test(prompt);
}

export function manualSwitch(prompt: string | undefined): "on" | "off" | undefined {
  const match = prompt ? MANUAL_SWITCH.exec(prompt) : null;
  return match ? (match[1]!.toLowerCase() as "on" | "off") : undefined;
}

/**
 * UserPromptSubmit: a new task begins in the main scope (SPEC §2). Steps,
 * refusals and the skills that gate start over; calls that ran stay in the
 * history (repeats are judged since the last compaction, not per task).
 * The plugin's own `/utility …` prompts look at the current task and do not
 * start a new one (else `/utility status` would always show a fresh task).
 */
export async function userPromptSubmit(input: UserPromptSubmitInput, ctx: HookContext): Promise<HookResult> {
  const started = ctx.now();
  const ref = scopeOf({ ...input, agent_id: undefined });
  const switched = manualSwitch(input.prompt);
  const own = isOwnCommand(input.prompt);
  const session = await ctx.store.transact(input.session_id, (existing) => {
    // A fresh session's first prompt starts task 1.
    const state = existing ?? (own ? newSession(input.session_id) : { ...newSession(input.session_id), main: newScope(0) });
    const main = state.main;
    if (!own) reduceScope(main, [{ kind: "prompt", typed: true }]);
    if (switched) state.manualGate = switched === "on";
    // A slash command may activate a skill whose lines are not written yet.
    if (!own && input.prompt?.trimStart().startsWith("/")) main.awaitingActivation = true;
    return { state, result: state };
  });
  const gate = effectiveGate(session, session.main, ref);
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, "UserPromptSubmit", input, ref, session.main, gate, started),
    decision: "observed",
    ...(switched ? { reason: `/utility ${switched}` } : own ? { reason: "/utility (same task)" } : {}),
  });
  return {};
}
