import { reduceAll } from "../engine/session/reduce.js";
import { scopeLineOf } from "../engine/session/decide.js";
import { budgetNoticeIn } from "../engine/session/budget-input.js";
import { windowHoursOf } from "../engine/session-budget.js";
import { windowSpend } from "../state/ledger.js";
import { scoped, type SessionEvent } from "../engine/session/events.js";
import type { SessionState } from "../engine/session/state.js";
import { lastModelOf } from "../engine/session/views.js";
import { promptKey, readPrompt, type PromptText } from "../ingest/prompts.js";
import type { HookContext } from "./context.js";
import type { UserPromptSubmitInput } from "./input.js";
import { baseRecord, type HookResult } from "./records.js";
import { scopeOf } from "./scope.js";
import { arrivalEvents, freshSession } from "./session-io.js";
import { promptWithoutLine } from "./prompt-without-line.js";
import { isNotification } from "../engine/session/prompt-kind.js";
import { settingsOf } from "./settings.js";
import { skillGateSource } from "./skill-call.js";
import { offEvidenceEvents } from "./switch-evidence.js";

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
  const done = await ctx.store.transact(input.session_id, async (existing) => {
    const session = existing ?? freshSession(ctx, input.session_id, true);
    // A transcript that can never show the prompt's line: the prompt is taken by its text now (./prompt-without-line.ts).
    const unseen = await promptWithoutLine(session, ref, input, prompt, ctx);
    const reduced = reduceAll(session, [
      // The main conversation run as a gated agent definition is gated from this prompt on (./session-io.ts).
      ...(await arrivalEvents(session, ref, input.agent_type, ctx)),
      // A `/utility off` answered before this prompt is in force once its line is written (src/engine/session/switch-off.ts).
      ...offEvidenceEvents(session, input.transcript_path, ctx.env),
      {
        kind: "prompt_vouched",
        key,
        own: prompt.own,
        slash: prompt.slash,
        at: ctx.clock().getTime(),
        ...(prompt.switch ? { switch: prompt.switch } : {}),
      },
      ...unseen.events,
    ]);
    const budget = startNotice(reduced.session, input, prompt, ctx);
    const state = budget.events.length > 0 ? reduceAll(reduced.session, budget.events).session : reduced.session;
    return { state, result: { ...reduced, session: state, trouble: unseen.trouble, told: unseen.told, budget: budget.text } };
  });
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, "UserPromptSubmit", { input, ref, session: done.session }, started),
    decision: "observed",
    reason: done.trouble
      ? `prompt received; ${done.trouble}, so it is taken by its text`
      : "prompt received; what it is shows in its transcript line",
    promptId: key,
    ...(prompt.switch ? { switch: prompt.switch } : {}),
    ...(done.switchedNow ? { switched: done.switchedNow } : {}),
  });
  const context = [await promptLineOf(done.session, input, prompt, ctx), done.budget].filter((t) => t !== undefined).join("\n");
  const told = done.told ? { systemMessage: done.told } : {};
  return context || done.told
    ? { output: { ...told, ...(context ? { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context } } : {}) } }
    : {};
}

/**
 * What is left of the budgets, told as the task this prompt starts begins
 * (SPEC §16): for a prompt that will start one (not `/utility …`, not a
 * background task's notification), against the session as it will be then.
 * Remembered for that task, so its first call does not tell it again.
 */
function startNotice(
  session: SessionState,
  input: UserPromptSubmitInput,
  prompt: PromptText,
  ctx: HookContext,
): { text?: string; events: SessionEvent[] } {
  if (prompt.own || isNotification(input.prompt ?? "")) return { events: [] };
  const user = settingsOf(ctx);
  const started = reduceAll(session, [scoped("main", { kind: "prompt", typed: true })]).session;
  const hours = user.session?.windowCostBudgetUsd !== undefined ? windowHoursOf(user.session) : undefined;
  const window = hours === undefined ? undefined : windowSpend(ctx.dataDir, ctx.clock().getTime(), hours);
  return budgetNoticeIn(started, "main", user, window);
}

/**
 * The hooks' line for the turn this prompt starts, when the main scope will be
 * gated in it: `/utility on` gates the current task now; a typed prompt
 * under `/utility on`, or a slash command whose skill opts in, starts a
 * gated task at step 0. The tier is the main conversation's newest message's
 * (none on a session's first prompt: then the line comes with the first call).
 * It decides nothing; a wakeup prompt, which this hook cannot tell from a
 * typed one, would be told step 0 until its first call's line.
 */
async function promptLineOf(
  session: SessionState,
  input: UserPromptSubmitInput,
  prompt: PromptText,
  ctx: HookContext,
): Promise<string | undefined> {
  const model = lastModelOf(session, "main");
  const user = settingsOf(ctx);
  if (prompt.own) return prompt.switch === "on" ? scopeLineOf(session, "main", user, model) : undefined;
  const text = input.prompt ?? "";
  if (model === undefined || isNotification(text)) return undefined;
  const events: SessionEvent[] = [scoped("main", { kind: "prompt", typed: true })];
  const name = prompt.slash ? /^\s*\/(\S+)/.exec(text)?.[1] : undefined;
  const source = name === undefined ? undefined : await skillGateSource({ skill: name }, input.cwd, ctx);
  if (source) events.push({ kind: "skill_loaded", scope: "main", source });
  return scopeLineOf(reduceAll(session, events).session, "main", user, model);
}
