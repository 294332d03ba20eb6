import { effectOf, inputDigest } from "../engine/redundancy.js";
import { isNeutralTool } from "../engine/tools.js";
import { callEnd, endJob, launchedJobId } from "../engine/background.js";
import { freshSession } from "./user-prompt-submit.js";
import type { HookContext } from "./context.js";
import type { PostToolUseInput } from "./input.js";
import type { HookResult } from "./output.js";
import { scopeOf, scopeState } from "./scope.js";

/** How many calls a scope remembers for exact repeats; older ones age out. */
export const HISTORY_LIMIT = 256;

/**
 * PostToolUse and PostToolUseFailure: the call ran (a failed call ran too). Move it from pending to the scope's history, the
 * memory that exact repeats are judged against (SPEC §7), with the id of a job it launched in the background; a call that
 * stopped a job, or saw it finish, ends that job. No log record: the
 * step was recorded when it was decided.
 */
export async function postToolUse(input: PostToolUseInput, ctx: HookContext): Promise<HookResult> {
  if (input.tool_name === "Skill") return skillRan(input, ctx);
  if (isNeutralTool(input.tool_name)) return {};
  const ref = scopeOf(input);
  await ctx.store.transact(input.session_id, (existing) => {
    const session = existing ?? freshSession(ctx, input.session_id);
    const scope = scopeState(session, ref);
    const id = input.tool_use_id;
    // Own keys only: a tool_use_id such as "constructor" must not find what every object inherits.
    const pending = id && Object.hasOwn(scope.pending, id) ? scope.pending[id] : undefined;
    if (id) delete scope.pending[id];
    const failed = input.hook_event_name === "PostToolUseFailure";
    const found = pending ?? { tool: input.tool_name, digest: inputDigest(input.tool_input), effect: effectOf(input.tool_name, input.tool_input), at: scope.step, ...(id ? { toolUseId: id } : {}) };
    const jobId = found.effect.kind === "exec" && found.effect.background ? launchedJobId(input.tool_response) : undefined;
    scope.history.push({ ...found, ...(jobId ? { jobId } : {}), ...(failed ? { failed: true } : {}) });
    // A stop of a background job, or a poll that shows it finished, records its end (SPEC §7).
    const end = failed ? undefined : callEnd(input.tool_name, input.tool_input, input.tool_response);
    if (end) scope.history = endJob(scope.history, end, scope.step);
    if (scope.history.length > HISTORY_LIMIT) scope.history.splice(0, scope.history.length - HISTORY_LIMIT);
    return { state: session, result: undefined };
  });
  return {};
}

/** A skill was activated: its "Base directory" line may not be written yet, so the next call waits for the transcript. */
async function skillRan(input: PostToolUseInput, ctx: HookContext): Promise<HookResult> {
  const ref = scopeOf(input);
  await ctx.store.transact(input.session_id, (existing) => {
    const session = existing ?? freshSession(ctx, input.session_id);
    scopeState(session, ref).awaitingActivation = true;
    return { state: session, result: undefined };
  });
  return {};
}
