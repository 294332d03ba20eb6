import { pruneLedger } from "../state/ledger.js";
import type { HookContext } from "./context.js";
import type { SessionEndInput } from "./input.js";
import { baseRecord, logOutcomes, type HookResult } from "./records.js";
import { scopeOf } from "./scope.js";
import { caughtUpUnlessTrouble, storedSession } from "./session-io.js";
import { autoPrune } from "./retention.js";

/**
 * SessionEnd: the main transcript's last lines (the final message of the last
 * turn) are read into the machine, so the session's spend is whole in the
 * state and the log (every surface shows the same spend, SPEC §15). A session
 * the plugin never saw is left alone. The spend ledger's days past any
 * window are removed. Then old sessions' logs and state are pruned by the
 * user's retention rule (./retention.ts), this one's never.
 */
export async function sessionEnd(input: SessionEndInput, ctx: HookContext): Promise<HookResult> {
  const result = await readLastLines(input, ctx);
  const pruned = autoPrune(ctx, input.session_id);
  const trouble = [result.stderr, pruned].filter(Boolean).join("; ");
  return trouble ? { ...result, stderr: trouble } : result;
}

async function readLastLines(input: SessionEndInput, ctx: HookContext): Promise<HookResult> {
  const started = ctx.now();
  if (!ctx.store.read(input.session_id)) return {};
  const ref = scopeOf({ ...input, agent_id: undefined });
  const { reduced, trouble } = await ctx.store.transact(input.session_id, async (existing) => {
    const caught = await caughtUpUnlessTrouble(existing ?? storedSession(ctx, input.session_id), ref, undefined, ctx);
    return { state: caught.reduced.session, result: caught };
  });
  const where = { input, ref, session: reduced.session };
  logOutcomes(ctx, "SessionEnd", where, reduced.outcomes);
  ctx.appendLog(input.session_id, { ...baseRecord(ctx, "SessionEnd", where, started), decision: "observed", reason: "session ended" });
  // Days of spend no window can reach any more (SPEC §12): once per session, so readers never list them.
  pruneLedger(ctx.dataDir, ctx.clock().getTime());
  return trouble ? { stderr: `utility: ${trouble}; the session's last lines could not be read, so its spend may miss them.` } : {};
}
