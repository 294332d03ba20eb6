import type { HookContext } from "./context.js";
import type { PreCompactInput } from "./input.js";
import type { HookResult } from "./output.js";
import { reduceScope, scopeOf, scopeState } from "./scope.js";
import { freshSession } from "./user-prompt-submit.js";

/** PreCompact: after a compaction the model no longer holds earlier results, so nothing before it is a repeat (SPEC §7). */
export async function preCompact(input: PreCompactInput, ctx: HookContext): Promise<HookResult> {
  const ref = scopeOf(input);
  await ctx.store.transact(input.session_id, (existing) => {
    const session = existing ?? freshSession(ctx, input.session_id);
    reduceScope(scopeState(session, ref), [{ kind: "compact" }]);
    return { state: session, result: undefined };
  });
  return {};
}
