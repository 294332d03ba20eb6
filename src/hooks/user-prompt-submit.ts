import { loggedSwitches } from "../state/log-file.js";
import { sessionLogPath } from "../state/paths.js";
import { newScope, newSession, VOUCHED_PROMPTS_LIMIT, type SessionState } from "../state/schema.js";
import type { LogRecord } from "../log/record.js";
import type { HookContext } from "./context.js";
import { awaitPrompt, effectiveGate, promptKey, type PromptOutcome } from "./gating.js";
import type { UserPromptSubmitInput } from "./input.js";
import { baseRecord, type HookResult, type RecordScope } from "./output.js";
import { scopeOf, type ScopeRef } from "./scope.js";

/** `/utility on`, `/utility:utility off`: the user's own prompt, once its transcript line shows it was typed. */
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

/** What the log says of a switch the hooks applied: lastManualSwitch finds it when the state file is gone or unreadable. */
export const switchReason = (switched: "on" | "off") => `/utility ${switched}`;

/**
 * A session the state does not hold (new, or its file was deleted): what the
 * gate remembers must not vanish with one file (SPEC §10), so `/utility on`
 * comes back from the step log.
 */
export function freshSession(ctx: HookContext, sessionId: string): SessionState {
  return recoverSwitches(newSession(sessionId), ctx.dataDir);
}

/** The log's switches into a session: the last applied one, and one asked for whose line is still to be seen (vouched again). */
export function recoverSwitches(session: SessionState, dataDir: string): SessionState {
  const logged = loggedSwitches(sessionLogPath(dataDir, session.sessionId));
  session.manualGate = logged.applied === "on";
  if (logged.pending) vouch(session, logged.pending.promptId, { own: true, switch: logged.pending.switch });
  return session;
}

/**
 * UserPromptSubmit. Claude Code runs it alike for a prompt the user typed, a
 * background task's `<task-notification>` and a ScheduleWakeup prompt (its
 * input tells them apart by nothing, docs/claude-code-facts.md). So it starts
 * no task here: it vouches for the prompt's key, and the transcript line Claude
 * Code writes for it next shows what the prompt was (SPEC §2). The next hook
 * of the scope applies it (applyScan), once it sees that line.
 */
export async function userPromptSubmit(input: UserPromptSubmitInput, ctx: HookContext): Promise<HookResult> {
  const started = ctx.now();
  const ref = scopeOf({ ...input, agent_id: undefined });
  const key = promptKey(input.prompt_id);
  const switched = manualSwitch(input.prompt);
  const session = await ctx.store.transact(input.session_id, (existing) => {
    // A session's first prompt starts task 1 once its line is seen.
    const state = existing ?? { ...freshSession(ctx, input.session_id), main: newScope(0) };
    vouch(state, key, { own: isOwnCommand(input.prompt), ...(switched ? { switch: switched } : {}) });
    // The prompt's line (and a slash command's skill activation) is written after this hook: the next call looks for it.
    awaitPrompt(state.main, key, input.prompt);
    return { state, result: state };
  });
  const gate = effectiveGate(session, session.main, ref);
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, "UserPromptSubmit", { input, ref, scope: session.main, gate }, started),
    decision: "observed",
    reason: "prompt received; what it is shows in its transcript line",
    promptId: key,
    ...(switched ? { switch: switched } : {}),
  });
  return {};
}

function vouch(state: SessionState, key: string, prompt: { own: boolean; switch?: "on" | "off" }): void {
  const prompts = (state.prompts ??= {});
  prompts[key] = prompt;
  const ids = Object.keys(prompts);
  for (const old of ids.slice(0, Math.max(0, ids.length - VOUCHED_PROMPTS_LIMIT))) delete prompts[old];
}

/** The hook call whose scan saw the prompts, and the session they were applied to. */
export interface SwitchSource {
  input: RecordScope["input"];
  ref: ScopeRef;
  session: SessionState;
}

/** One record per switch a typed prompt made, written by the hook that saw its line. */
export function switchRecords(
  ctx: HookContext,
  event: LogRecord["event"],
  { input, ref, session }: SwitchSource,
  outcomes: readonly PromptOutcome[],
  started: number,
): void {
  for (const outcome of outcomes) {
    if (!outcome.switched) continue;
    ctx.appendLog(input.session_id, {
      ...baseRecord(ctx, event, { input, ref, scope: session.main, gate: effectiveGate(session, session.main, ref) }, started),
      decision: "observed",
      reason: switchReason(outcome.switched),
      switched: outcome.switched,
    });
  }
}
