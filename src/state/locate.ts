import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { dataDir, sessionLogPath, sessionStatePath } from "./paths.js";

/**
 * The data folder that holds a session, for the CLI. Claude Code gives hooks
 * CLAUDE_PLUGIN_DATA (`~/.claude/plugins/data/utility-inline` under
 * --plugin-dir, `utility-<marketplace>` when installed); a command run by a
 * person may not have it, so those folders are searched too.
 */
export function locateSessionData(env: Record<string, string | undefined>, sessionId: string): string | undefined {
  const base = join(env.HOME || homedir(), ".claude", "plugins", "data");
  let installed: string[] = [];
  try {
    installed = readdirSync(base)
      .filter((d) => d === "utility" || d.startsWith("utility-"))
      .map((d) => join(base, d));
  } catch {
    installed = [];
  }
  const candidates = [...new Set([dataDir(env), ...installed])];
  return candidates.find((dir) => existsSync(sessionStatePath(dir, sessionId)) || existsSync(sessionLogPath(dir, sessionId)));
}
