/**
 * Applies the retention rule (src/engine/retention.ts) to a data folder: what
 * each session holds there (its step log, its state file and that file's
 * leftovers), and the error log. Deletes only regular files and links by
 * name inside the data folder's own `sessions/`, `state/` and `statusline/` folders, never
 * following a link out of it (SPEC §10).
 *
 * A session whose gate the user switched on (`/utility on`) is kept while
 * Claude Code still holds its transcript: it may still be running, or be
 * resumed, and its state and log are what keep it gated (SPEC §10, "what the
 * gate remembers"); deleting them would switch its gate off unseen. A scope
 * gated by a skill or agent file needs neither: its transcript says so again.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { planPrune, type PruneContext, type PrunePlan, type RetentionRule, type StoredItem } from "../engine/retention.js";
import { loggedSwitches } from "./log-file.js";
import { errorLogPath, isSafeId, sessionLogPath, sessionStatePath } from "./paths.js";
import { fileErrorText } from "./file-error.js";

/** The name the error log goes by in a plan. */
export const ERROR_LOG_ITEM = "(error log)";

interface Stored {
  items: StoredItem[];
  files: Map<string, string[]>;
  /** Folders skipped because they are links (planted, never followed). */
  skipped: string[];
}

/** A session id from a file name in `sessions/`, `state/` or `statusline/`, with what follows it. */
const SESSION_FILE = /^(.+?)(\.jsonl|\.json(?:\.lock(?:\.takeover)?|\.\d+\.tmp)?)$/;
/** The same in `statusline/`: the line the server keeps for a session (src/statusline/line-file.ts), and its temporary file. */
const LINE_FILE = /^(.+?)(\.txt(?:\.\d+\.tmp)?)$/;

function add(stored: Stored, id: string, file: string): void {
  let stat;
  try {
    stat = lstatSync(file);
  } catch {
    return;
  }
  if (!stat.isFile() && !stat.isSymbolicLink()) return;
  const at = stored.items.find((item) => item.id === id);
  if (at) {
    at.bytes += stat.size;
    at.lastWrite = Math.max(at.lastWrite, stat.mtimeMs);
  } else stored.items.push({ id, bytes: stat.size, lastWrite: stat.mtimeMs });
  stored.files.set(id, [...(stored.files.get(id) ?? []), file]);
}

/** Everything the retention rule weighs in a data folder. */
export function storedIn(dataDir: string): Stored {
  const stored: Stored = { items: [], files: new Map(), skipped: [] };
  // The live ClickHouse export's progress (src/clickhouse/progress.ts) goes with the session's log.
  for (const folder of ["sessions", "state", "statusline", "clickhouse"]) {
    const path = join(dataDir, folder);
    let names: string[];
    try {
      if (lstatSync(path).isSymbolicLink()) {
        stored.skipped.push(path);
        continue;
      }
      names = readdirSync(path);
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const id = (folder === "statusline" ? LINE_FILE : SESSION_FILE).exec(name)?.[1];
      if (id !== undefined && isSafeId(id)) add(stored, id, join(path, name));
    }
  }
  add(stored, ERROR_LOG_ITEM, errorLogPath(dataDir));
  return stored;
}

export interface PruneOptions {
  dryRun?: boolean;
  /** Claude Code's transcripts (`<config>/projects`): a session with its gate on is kept while its transcript is there. */
  projectsDir?: string;
}

export interface PruneResult {
  dataDir: string;
  plan: PrunePlan;
  /** Sessions the rule would have deleted, kept because their gate is on and Claude Code can still continue them. */
  gatedKept: string[];
  /** Files deleted (none on a dry run). */
  deleted: string[];
  /** Files or folders that could not be deleted or were left alone, in words. */
  trouble: string[];
}

/** The state file's text, read without following a link; undefined when it is no regular file. */
function readStateText(file: string): string | undefined {
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    try {
      return fstatSync(fd).isFile() ? readFileSync(fd, "utf8") : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** `/utility on` is in force: the state says so, or, when the state cannot be read, the log does (as the hooks restore it). */
export function switchedOn(dataDir: string, sessionId: string): boolean {
  const text = readStateText(sessionStatePath(dataDir, sessionId));
  if (text !== undefined) {
    try {
      const manualGate = (JSON.parse(text) as { manualGate?: unknown } | null)?.manualGate;
      if (typeof manualGate === "boolean") return manualGate;
    } catch {
      // unreadable: the log decides, as it does for the hooks
    }
  }
  return loggedSwitches(sessionLogPath(dataDir, sessionId)).applied === "on";
}

/** Whether Claude Code still holds the session's transcript (`<projects>/<project>/<id>.jsonl`), so it can run on. */
export function transcriptHeld(projectsDir: string, sessionId: string): boolean {
  let projects: string[];
  try {
    projects = readdirSync(projectsDir);
  } catch {
    return false;
  }
  return projects.some((project) => {
    try {
      return statSync(join(projectsDir, project, `${sessionId}.jsonl`)).isFile();
    } catch {
      return false;
    }
  });
}

/** The plan, with every session whose gate is on and can still run kept (others may pay for it under the size limit). */
function planKeepingGates(dataDir: string, items: StoredItem[], rule: RetentionRule, ctx: PruneContext, projectsDir?: string) {
  const protect = new Set(ctx.protect);
  const gatedKept: string[] = [];
  const checked = new Set<string>();
  for (;;) {
    const plan = planPrune(items, rule, { ...ctx, protect });
    const needed = plan.remove
      .map((item) => item.id)
      .filter((id) => id !== ERROR_LOG_ITEM && !checked.has(id))
      .filter((id) => {
        checked.add(id);
        return projectsDir !== undefined && switchedOn(dataDir, id) && transcriptHeld(projectsDir, id);
      });
    if (needed.length === 0) return { plan, gatedKept };
    for (const id of needed) protect.add(id);
    gatedKept.push(...needed);
  }
}

/** Plans, and unless `dryRun`, deletes. */
export function pruneDataDir(dataDir: string, rule: RetentionRule, ctx: PruneContext, options: PruneOptions = {}): PruneResult {
  const stored = storedIn(dataDir);
  const { plan, gatedKept } = planKeepingGates(dataDir, stored.items, rule, ctx, options.projectsDir);
  const trouble = stored.skipped.map((path) => `${path} is a symbolic link; left alone`);
  const deleted: string[] = [];
  if (!options.dryRun)
    for (const item of plan.remove)
      for (const file of stored.files.get(item.id) ?? []) {
        try {
          rmSync(file, { force: true });
          deleted.push(file);
        } catch (error) {
          trouble.push(`${file} could not be deleted: ${fileErrorText(error)}`);
        }
      }
  return { dataDir, plan, gatedKept, deleted, trouble };
}
