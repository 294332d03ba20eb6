/**
 * Logs and state are pruned by the user's retention rule (SPEC §8) once a
 * session ends, at most once an hour per data folder: never on the path of a
 * tool call, never the ending session's own files, nor those of a session
 * whose gate is on and that Claude Code can still continue (src/state/prune.ts).
 */
import { rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configDir } from "../claude/places.js";
import { DAY_MS, PRUNE_GRACE_MS, type RetentionRule } from "../engine/retention.js";
import { parseUserConfig, retentionOf } from "../optin/user-config.js";
import { PRIVATE_FILE } from "../state/paths.js";
import { pruneDataDir } from "../state/prune.js";
import type { HookContext } from "./context.js";

export const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** When the data folder was last pruned: its modification time. */
export const PRUNE_STAMP = "pruned-at";

/** The user's rule, as the hook's environment carries it; an option not set (or invalid) takes its default. */
export function retentionRule(env: Readonly<Record<string, string | undefined>>): RetentionRule {
  const r = retentionOf(parseUserConfig(env));
  return { maxAgeMs: r.maxAgeDays * DAY_MS, maxBytes: r.maxMb * 1024 * 1024 };
}

/** Prunes the hook's data folder unless it was pruned within the hour; returns one line of trouble, if any. */
export function autoPrune(ctx: HookContext, sessionId: string): string | undefined {
  const now = ctx.clock().getTime();
  const stamp = join(ctx.dataDir, PRUNE_STAMP);
  try {
    if (now - statSync(stamp).mtimeMs < PRUNE_EVERY_MS) return undefined;
  } catch {
    // never pruned here
  }
  try {
    // Replaced, never written through a link planted in its place.
    rmSync(stamp, { force: true });
    writeFileSync(stamp, `${new Date(now).toISOString()}\n`, { flag: "wx", mode: PRIVATE_FILE });
    utimesSync(stamp, now / 1000, now / 1000);
    const result = pruneDataDir(
      ctx.dataDir,
      retentionRule(ctx.env),
      { now, protect: new Set([sessionId]), graceMs: PRUNE_GRACE_MS },
      { projectsDir: join(configDir(ctx.env), "projects") },
    );
    return result.trouble[0] && `utility: pruning old logs: ${result.trouble[0]}`;
  } catch (error) {
    return `utility: pruning old logs: ${(error as Error).message.split("\n")[0]}`;
  }
}
