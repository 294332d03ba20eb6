import { reduceAll } from "../engine/session/reduce.js";
import type { HookContext } from "./context.js";
import type { PreCompactInput } from "./input.js";
import type { HookResult } from "./records.js";
import { scopeOf } from "./scope.js";
import { storedSession } from "./session-io.js";

/** PreCompact: after a compaction the model no longer holds earlier results, so nothing before it is a repeat (SPEC §7). */
export async function preCompact(input: PreCompactInput, ctx: HookContext): Promise<HookResult> {
  const ref = scopeOf(input);
  await ctx.store.transact(input.session_id, (existing) => {
    const session = existing ?? storedSession(ctx, input.session_id);
    return { state: reduceAll(session, [{ kind: "scope", scope: ref.key, event: { kind: "compact" } }]).session, result: undefined };
  });
  return {};
}
