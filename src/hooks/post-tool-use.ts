import { effectOf, inputDigest } from "../engine/redundancy.js";
import { HISTORY_LIMIT } from "../engine/scope-state/reducer.js";
import { isNeutralTool } from "../engine/tools.js";
import { launchedJobId, resultShowsFinished } from "../engine/background.js";
import { freshSession } from "./user-prompt-submit.js";
import type { HookContext } from "./context.js";
import { awaitActivation, effectiveGate } from "./gating.js";
import type { PostToolUseInput } from "./input.js";
import { logOutcomes, type HookResult } from "./output.js";
import { reduceScope, scopeOf, scopeState } from "./scope.js";

export { HISTORY_LIMIT };

function resultBytes(response: unknown): number {
  if (response === undefined) return 0;
  return Buffer.byteLength(typeof response === "string" ? response : (JSON.stringify(response) ?? ""), "utf8");
}

/**
 * PostToolUse and PostToolUseFailure: the call ran (a failed call ran too).
 * Not in hooks/hooks.json any more: the next hook learns the result from the
 * transcript (docs/decisions/0001-one-blocking-process.md). Kept as a feeder
 * of the same reducer event, for a configuration that runs it (it is then
 * the first to learn the outcome, with Claude Code's own duration).
 */
export async function postToolUse(input: PostToolUseInput, ctx: HookContext): Promise<HookResult> {
  if (input.tool_name === "Skill") return skillRan(input, ctx);
  if (isNeutralTool(input.tool_name)) return {};
  const ref = scopeOf(input);
  const id = input.tool_use_id;
  const failed = input.hook_event_name === "PostToolUseFailure";
  const learned = await ctx.store.transact(input.session_id, (existing) => {
    const session = existing ?? freshSession(ctx, input.session_id);
    const scope = scopeState(session, ref);
    // A call the gate never saw let through (no id, or no state): remembered all the same.
    const known = id !== undefined && Object.hasOwn(scope.pending, id);
    const duration = typeof input.duration_ms === "number" ? { durationMs: input.duration_ms } : {};
    const jobId = launchedJobId(input.tool_response);
    const job = { ...(jobId !== undefined ? { jobId } : {}), ...(resultShowsFinished(input.tool_response) ? { finished: true } : {}) };
    const outcomes = known
      ? reduceScope(scope, [{ kind: "result", toolUseId: id, failed, bytes: resultBytes(input.tool_response), ...duration, ...job }])
      : (reduceScope(scope, [
          {
            kind: "ran_unchecked",
            tool: input.tool_name,
            digest: inputDigest(input.tool_input),
            effect: effectOf(input.tool_name, input.tool_input),
            ...(id !== undefined ? { toolUseId: id } : {}),
            failed,
          },
        ]),
        []);
    return { state: session, result: { outcomes, scope: { ...scope }, gate: effectiveGate(session, scope, ref) } };
  });
  logOutcomes(
    ctx,
    failed ? "PostToolUseFailure" : "PostToolUse",
    { input, ref, scope: learned.scope, gate: learned.gate },
    learned.outcomes,
  );
  return {};
}

/** A skill was activated: its "Base directory" line may not be written yet, so the next call waits for the transcript. */
async function skillRan(input: PostToolUseInput, ctx: HookContext): Promise<HookResult> {
  const ref = scopeOf(input);
  await ctx.store.transact(input.session_id, (existing) => {
    const session = existing ?? freshSession(ctx, input.session_id);
    awaitActivation(scopeState(session, ref));
    return { state: session, result: undefined };
  });
  return {};
}
