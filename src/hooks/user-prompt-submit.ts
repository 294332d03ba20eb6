import { reduceAll } from "../engine/session/reduce.js";
import { promptKey, readPrompt } from "../ingest/prompts.js";
import type { HookContext } from "./context.js";
import type { UserPromptSubmitInput } from "./input.js";
import { baseRecord, type HookResult } from "./records.js";
import { scopeOf } from "./scope.js";
import { freshSession } from "./session-io.js";

/**
 * UserPromptSubmit. Claude Code runs it alike for a prompt the user typed, a
 * background task's `<task-notification>` and a ScheduleWakeup prompt (its
 * input tells them apart by nothing, docs/claude-code-facts.md). So it starts
 * no task here: it vouches for the prompt's key, and the transcript line Claude
 * Code writes for it next shows what the prompt was (SPEC §2). `/utility on`
 * only tightens, so the machine applies it at once (issue 18: a turn
 * interrupted before any other hook ran must not lose it).
 */
export async function userPromptSubmit(input: UserPromptSubmitInput, ctx: HookContext): Promise<HookResult> {
  const started = ctx.now();
  const ref = scopeOf({ ...input, agent_id: undefined });
  const key = promptKey(input.prompt_id);
  const prompt = readPrompt(input.prompt);
  const done = await ctx.store.transact(input.session_id, (existing) => {
    const session = existing ?? freshSession(ctx, input.session_id, true);
    const reduced = reduceAll(session, [
      { kind: "prompt_vouched", key, own: prompt.own, slash: prompt.slash, ...(prompt.switch ? { switch: prompt.switch } : {}) },
    ]);
    return { state: reduced.session, result: reduced };
  });
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, "UserPromptSubmit", { input, ref, session: done.session }, started),
    decision: "observed",
    reason: "prompt received; what it is shows in its transcript line",
    promptId: key,
    ...(prompt.switch ? { switch: prompt.switch } : {}),
    ...(done.switchedNow ? { switched: done.switchedNow } : {}),
  });
  return {};
}
