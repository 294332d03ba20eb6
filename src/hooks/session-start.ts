import { sessionStart as checkServer, type SentinelProbe } from "./server-check.js";
import type { HookContext } from "./context.js";
import type { SessionStartInput } from "./input.js";
import { refreshLauncher, refreshStatusScript } from "./launcher.js";
import { tightenDataFolder } from "../state/paths.js";
import type { HookResult } from "./records.js";
import { reduceAll } from "../engine/session/reduce.js";
import { errorLine } from "../state/file-error.js";
import { freshSession } from "./session-io.js";
import { optInWarning } from "./optin-warning.js";

/**
 * SessionStart (a command hook, once per session): the `utility` launcher and
 * the status line script in the data folder follow the plugin version now
 * running (./launcher.ts), and
 * the hook server's check (src/hooks/server-check.ts) says whether every tool
 * call would be refused. A launcher that cannot be written costs nothing
 * else: one line for the error log.
 */
export async function sessionStart(input: SessionStartInput, ctx: HookContext, probe?: SentinelProbe): Promise<HookResult> {
  let trouble: string | undefined;
  const root = ctx.env.CLAUDE_PLUGIN_ROOT;
  tightenDataFolder(ctx.dataDir);
  if (root) {
    try {
      refreshLauncher(ctx.dataDir, root);
      refreshStatusScript(ctx.dataDir, root);
    } catch (error) {
      trouble = `utility: the utility launcher cannot be written in ${ctx.dataDir}: ${(error as Error).message.split("\n")[0]}`;
    }
  }
  // A fork of another session: its first hook that reads the transcript finds which, and carries its switch (./fork-origin.ts).
  if (input.source === "fork") trouble = (await markForked(input.session_id, ctx)) ?? trouble;
  const checked = withWarning(await checkServer(input, ctx, probe), input.cwd ? await optInWarning(input.cwd, ctx.env) : undefined);
  return trouble ? { ...checked, stderr: trouble } : checked;
}

/** The opt-in warning on screen and in the model's context, after what the server check says (its message first when both speak). */
function withWarning(result: HookResult, warning: string | undefined): HookResult {
  if (!warning) return result;
  const joined = (said: unknown) => (typeof said === "string" ? `${said}\n${warning}` : warning);
  const specific = result.output?.hookSpecificOutput as { additionalContext?: unknown } | undefined;
  return {
    ...result,
    output: {
      ...result.output,
      systemMessage: joined(result.output?.systemMessage),
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: joined(specific?.additionalContext) },
    },
  };
}

/** The state says the session is a fork whose origin is still to be found; trouble writing it is one line for the error log. */
async function markForked(sessionId: string, ctx: HookContext): Promise<string | undefined> {
  try {
    await ctx.store.transact(sessionId, (existing) => {
      const reduced = reduceAll(existing ?? freshSession(ctx, sessionId, true), [{ kind: "session_forked" }]);
      return { state: reduced.session, result: undefined };
    });
    return undefined;
  } catch (error) {
    return `utility: this forked session's state cannot be written: ${errorLine(error)}`;
  }
}
