import { reduceAll } from "../engine/session/reduce.js";
import type { HookContext } from "./context.js";
import type { SubagentStartInput } from "./input.js";
import { baseRecord, type HookResult } from "./records.js";
import { scopeOf } from "./scope.js";
import { arrivalEvents, storedSession } from "./session-io.js";

/**
 * SubagentStart: a subagent starts, whichever tool started it (Agent, Task,
 * Workflow, a forked skill, a nested launch). Agent budgets count these
 * (SPEC §12), and its definition says whether it is gated from its start.
 * Claude Code runs this hook itself: no shell can forge a start.
 */
export async function subagentStart(input: SubagentStartInput, ctx: HookContext): Promise<HookResult> {
  const started = ctx.now();
  const ref = scopeOf(input);
  const session = await ctx.store.transact(input.session_id, async (existing) => {
    const stored = existing ?? storedSession(ctx, input.session_id);
    const next = reduceAll(stored, await arrivalEvents(stored, ref, input.agent_type, ctx)).session;
    return { state: next, result: next };
  });
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, "SubagentStart", { input, ref, session }, started),
    decision: "observed",
    reason: "subagent started",
  });
  return {};
}
