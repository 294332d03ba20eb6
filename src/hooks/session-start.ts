import { sessionStart as checkServer, type SentinelProbe } from "../server/sentinel.js";
import type { HookContext } from "./context.js";
import type { SessionStartInput } from "./input.js";
import { refreshLauncher } from "./launcher.js";
import type { HookResult } from "./records.js";

/**
 * SessionStart (a command hook, once per session): the `utility` launcher in
 * the data folder follows the plugin version now running (./launcher.ts), and
 * the hook server's check (src/server/sentinel.ts) says whether every tool
 * call would be refused. A launcher that cannot be written costs nothing
 * else: one line for the error log.
 */
export async function sessionStart(input: SessionStartInput, ctx: HookContext, probe?: SentinelProbe): Promise<HookResult> {
  let trouble: string | undefined;
  const root = ctx.env.CLAUDE_PLUGIN_ROOT;
  if (root) {
    try {
      refreshLauncher(ctx.dataDir, root);
    } catch (error) {
      trouble = `utility: the utility launcher cannot be written in ${ctx.dataDir}: ${(error as Error).message.split("\n")[0]}`;
    }
  }
  const checked = await checkServer(input, ctx, probe);
  return trouble ? { ...checked, stderr: trouble } : checked;
}
