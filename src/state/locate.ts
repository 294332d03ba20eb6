import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { dataDir, sessionLogPath, sessionStatePath } from "./paths.js";

/**
 * The data folders that may hold sessions, for the CLI: UTILITY_DATA_DIR
 * alone when set; else CLAUDE_PLUGIN_DATA (or ~/.claude/plugins/data/utility)
 * and the folders Claude Code gives the plugin (`utility-inline` under
 * --plugin-dir, `utility-<marketplace>` when installed), since a command run
 * by a person may not have the variable.
 */
export function dataDirs(env: Record<string, string | undefined>): string[] {
  if (env.UTILITY_DATA_DIR) return [env.UTILITY_DATA_DIR];
  const base = join(env.HOME || homedir(), ".claude", "plugins", "data");
  let installed: string[] = [];
  try {
    installed = readdirSync(base)
      .filter((name) => name === "utility" || name.startsWith("utility-"))
      .sort()
      .map((name) => join(base, name));
  } catch {
    installed = [];
  }
  const primary = env.CLAUDE_PLUGIN_DATA ? dataDir(env) : join(base, "utility");
  return [...new Set([primary, ...installed])];
}

/** The data folder that holds a session's state or log, if any. */
export function locateSessionData(env: Record<string, string | undefined>, sessionId: string): string | undefined {
  return dataDirs(env).find((dir) => existsSync(sessionStatePath(dir, sessionId)) || existsSync(sessionLogPath(dir, sessionId)));
}
