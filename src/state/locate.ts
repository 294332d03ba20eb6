import { existsSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { dataDir, sessionLogPath, sessionStatePath } from "./paths.js";

/**
 * The data folders that may hold sessions, for the CLI: UTILITY_DATA_DIR
 * alone when set; else CLAUDE_PLUGIN_DATA (or ~/.claude/plugins/data/utility,
 * under CLAUDE_CONFIG_DIR instead of ~/.claude when that is set)
 * and the folders Claude Code gives the plugin (`utility-inline` under
 * --plugin-dir, `utility-<marketplace>` when installed), since a command run
 * by a person may not have the variable.
 */
export function dataDirs(env: Record<string, string | undefined>): string[] {
  if (env.UTILITY_DATA_DIR) return [env.UTILITY_DATA_DIR];
  // Claude Code keeps its folder, the plugins' data included, in CLAUDE_CONFIG_DIR when set.
  const base = join(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude"), "plugins", "data");
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

/** The newest regular file with `suffix` in a folder, by modification time. */
function newestIn(folder: string, suffix: string): { name: string; mtime: number } | undefined {
  let best: { name: string; mtime: number } | undefined;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!name.endsWith(suffix)) continue;
    try {
      const stat = statSync(join(folder, name));
      if (stat.isFile() && (!best || stat.mtimeMs > best.mtime)) best = { name: name.slice(0, -suffix.length), mtime: stat.mtimeMs };
    } catch {
      // gone since it was listed
    }
  }
  return best;
}

/** The session whose log or state was written last, in any data folder: what `status`, `log` and `report` show by default. */
export function latestSession(env: Record<string, string | undefined>): { sessionId: string; dir: string } | undefined {
  let best: { sessionId: string; dir: string; mtime: number } | undefined;
  for (const dir of dataDirs(env)) {
    for (const found of [newestIn(join(dir, "sessions"), ".jsonl"), newestIn(join(dir, "state"), ".json")]) {
      if (found && (!best || found.mtime > best.mtime)) best = { sessionId: found.name, dir, mtime: found.mtime };
    }
  }
  return best && { sessionId: best.sessionId, dir: best.dir };
}
