/**
 * The hook server's process: the plugin's own MCP server
 * (`.claude-plugin/plugin.json`, `mcpServers.hooks`), which Claude Code starts
 * with the session, keeps warm, starts again on the next hook call after it
 * died, and stops when the session ends (docs/decisions/0002-warm-hooks.md).
 * Its front (./front.ts, dist/server.js) speaks the protocol; this is what
 * it loads once connected. Nothing but protocol lines may reach stdout.
 */
import { errorLine } from "../state/file-error.js";
import { dataDir } from "../state/paths.js";
import { recordError } from "../hooks/run.js";
import { serverEnv } from "./env.js";
import { hookServer } from "./serve.js";
import type { Attached } from "./front.js";
import { refreshLauncher, refreshStatusScript } from "../hooks/launcher.js";
import { basename, dirname } from "node:path";
import { warmUp } from "./warm-up.js";

/**
 * Calls of a made-up session that warm the handlers. Measured in process: 5 made the first real call fast, 30 the
 * later ones too (about 2.9 → 2.1 ms), 12 about half of that; 24 costs about 130 ms of CPU (docs/speed.md).
 */
const WARM_UP_CALLS = 24;

type Trouble = (message: string) => void;

/**
 * An exception outside a call leaves the process in a state nobody checked:
 * end, and Claude Code starts a fresh server on the next hook call. (Stdin's
 * end, signals and a closed stdout end it from the front, ./front.ts.)
 */
function endOnException(trouble: Trouble): void {
  process.on("uncaughtException", (error) => {
    trouble(`stopped on ${errorLine(error)}`);
    process.exit(1);
  });
}

/** The plugin's folder: Claude Code's CLAUDE_PLUGIN_ROOT when it gave one, else the one this server runs from (dist/server.js). */
export function pluginRootOf(env: Record<string, string | undefined>, entry: string | undefined): string | undefined {
  if (env.CLAUDE_PLUGIN_ROOT) return env.CLAUDE_PLUGIN_ROOT;
  return entry && basename(entry) === "server.js" ? dirname(dirname(entry)) : undefined;
}

/**
 * Work that used to hold the session's start (the SessionStart hook's): the
 * `utility` launcher and the status line script follow the plugin version running (src/hooks/launcher.ts;
 * the data folder was made the user's alone with the marker). Done once the
 * first hook call is answered, then the warm-up.
 */
function afterFirstAnswer(dir: string, root: string | undefined, trouble: Trouble): void {
  if (root) {
    try {
      refreshLauncher(dir, root);
      refreshStatusScript(dir, root);
    } catch (error) {
      trouble(`the utility launcher or status line script cannot be written in ${dir}: ${errorLine(error)}`);
    }
  }
  // The skill and agent definition reader (frontmatter, YAML) is loaded when a definition is first read: in the
  // server, load it now, so that the first gated call does not pay for it; then warm the handlers' code
  // (./warm-up.ts). Not before: on two cores it would compete with Claude Code's own start and first request.
  setTimeout(() => {
    import("../optin/read.js").then(
      () => warmUp({ calls: WARM_UP_CALLS, done: (failed) => failed && trouble(`could not warm up (${errorLine(failed)})`) }),
      () => undefined,
    );
  }, 0);
}

/**
 * The server's work, once the front (./front.ts) has answered what Claude
 * Code waits for at connect (and written the marker) and loads the runtime: the handlers,
 * and after the first hook call's answer the launcher and the warm-up.
 */
export function attach(troubles: string[] = []): Attached {
  const env = serverEnv(process.env, process.ppid);
  const dir = dataDir(env);
  const trouble: Trouble = (message) => recordError(dir, "server", `utility hook server: ${message}`);
  for (const early of troubles) trouble(early);
  endOnException(trouble);
  const server = hookServer(env);
  let first = true;
  return {
    callTool: (call) => server.callTool(call),
    settle() {
      server.settle();
      if (!first) return;
      first = false;
      afterFirstAnswer(dir, pluginRootOf(env, process.argv[1]), trouble);
    },
  };
}
