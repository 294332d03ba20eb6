import { reduceAll, scopeAt } from "../engine/session/reduce.js";
import { scopeLineOf } from "../engine/session/decide.js";
import { budgetNoticeIn } from "../engine/session/budget-input.js";
import type { SessionState } from "../engine/session/state.js";
import { gateOf, lastModelOf } from "../engine/session/views.js";
import { tierOf } from "../engine/context-line.js";
import { frontmatterModelOf } from "../claude/names.js";
import { readSmallText } from "../claude/files.js";
import type { HookContext } from "./context.js";
import type { SubagentStartInput } from "./input.js";
import { baseRecord, type HookResult } from "./records.js";
import { scopeOf, type ScopeRef } from "./scope.js";
import { arrivalEvents, storedSession } from "./session-io.js";
import { settingsOf } from "./settings.js";
import { PARENT_WAIT, waitForNewestModel } from "./wait.js";

/**
 * SubagentStart: a subagent starts, whichever tool started it (Agent, Task,
 * Workflow, a forked skill, a nested launch). Agent budgets count these
 * (SPEC §12), and its definition says whether it is gated from its start.
 * Claude Code runs this hook itself: no shell can forge a start. A subagent
 * gated from its start gets the hooks' line before its first call (its
 * `additionalContext` reaches the subagent's first request, issue 20).
 */
export async function subagentStart(input: SubagentStartInput, ctx: HookContext): Promise<HookResult> {
  const started = ctx.now();
  const ref = scopeOf(input);
  const { session, budget } = await ctx.store.transact(input.session_id, async (existing) => {
    const stored = existing ?? storedSession(ctx, input.session_id);
    const next = reduceAll(stored, await arrivalEvents(stored, ref, input.agent_type, ctx)).session;
    // What is left of the budgets that bind it, its own caps first (SPEC §16).
    const notice = budgetNoticeIn(next, ref.key, settingsOf(ctx));
    const told = reduceAll(next, notice.events).session;
    return { state: told, result: { session: told, budget: notice.text } };
  });
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, "SubagentStart", { input, ref, session }, started),
    decision: "observed",
    reason: "subagent started",
  });
  const line = gateOf(session, ref.key)
    ? scopeLineOf(session, ref.key, settingsOf(ctx), await subagentModel(session, ref, input.transcript_path, ctx))
    : undefined;
  const context = [line, budget].filter((t) => t !== undefined).join("\n");
  return context ? { output: { hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: context } } } : {};
}

/**
 * The model a starting subagent runs on, as Claude Code 2.1.328 chooses it
 * (its Agent tool's schema): its definition's `model`, else the configured
 * subagent model, else its parent's (the main conversation's newest message,
 * from the state or, not read there yet, from the main transcript's end,
 * waiting for it when the session's first message is not written yet).
 * An Agent call's own `model` override is not in this hook's input: then the
 * line after the subagent's first call corrects the tier.
 */
async function subagentModel(session: SessionState, ref: ScopeRef, mainTranscript: string, ctx: HookContext): Promise<string | undefined> {
  const file = scopeAt(session, ref.key).definition?.file;
  const text = file === undefined ? undefined : readSmallText(file);
  const own = text === undefined ? undefined : await frontmatterModelOf(text);
  if (own !== undefined && own !== "inherit") return tierOf(own) ? own : undefined;
  const configured = ctx.env.CLAUDE_CODE_SUBAGENT_MODEL;
  if (configured && configured !== "inherit") return tierOf(configured) ? configured : undefined;
  return (
    lastModelOf(session, "main") ??
    waitForNewestModel(mainTranscript, { ...PARENT_WAIT, ...(ctx.deadline ? { deadline: ctx.deadline } : {}) })
  );
}
