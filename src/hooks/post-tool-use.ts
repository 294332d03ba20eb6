import { effectOf, inputDigest } from "../engine/redundancy.js";
import { isNeutralTool } from "../engine/tools.js";
import { newSession } from "../state/schema.js";
import type { HookContext } from "./context.js";
import type { PostToolUseInput } from "./input.js";
import type { HookResult } from "./output.js";
import { scopeOf, scopeState } from "./scope.js";

/** How many calls a scope remembers for exact repeats; older ones age out. */
export const HISTORY_LIMIT = 256;

/**
 * PostToolUse and PostToolUseFailure: the call ran (a failed call ran too). Move it from pending to the scope's history, the
 * memory that exact repeats are judged against (SPEC §7). No log record: the
 * step was recorded when it was decided.
 */
export async function postToolUse(input: PostToolUseInput, ctx: HookContext): Promise<HookResult> {
  if (input.tool_name === "Skill") return skillRan(input, ctx);
  if (isNeutralTool(input.tool_name)) return {};
  const ref = scopeOf(input);
  await ctx.store.transact(input.session_id, (existing) => {
    const session = existing ?? newSession(input.session_id);
    const scope = scopeState(session, ref);
    const id = input.tool_use_id;
    // Own keys only: a tool_use_id such as "constructor" must not find what every object inherits.
    const pending = id && Object.hasOwn(scope.pending, id) ? scope.pending[id] : undefined;
    if (id) delete scope.pending[id];
    const failed = input.hook_event_name === "PostToolUseFailure";
    const found = pending ?? { tool: input.tool_name, digest: inputDigest(input.tool_input), effect: effectOf(input.tool_name, input.tool_input), at: scope.step, ...(id ? { toolUseId: id } : {}) };
    scope.history.push(failed ? { ...found, failed: true } : found);
    if (scope.history.length > HISTORY_LIMIT) scope.history.splice(0, scope.history.length - HISTORY_LIMIT);
    return { state: session, result: undefined };
  });
  return {};
}

/** A skill was activated: its "Base directory" line may not be written yet, so the next call waits for the transcript. */
async function skillRan(input: PostToolUseInput, ctx: HookContext): Promise<HookResult> {
  const ref = scopeOf(input);
  await ctx.store.transact(input.session_id, (existing) => {
    const session = existing ?? newSession(input.session_id);
    scopeState(session, ref).awaitingActivation = true;
    return { state: session, result: undefined };
  });
  return {};
}
