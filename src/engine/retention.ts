/**
 * How long step logs and state files are kept (SPEC §8): a session's files go
 * once they are older than the age limit, and, while all that is kept is
 * larger than the size limit, the oldest sessions' go first. Pure: the caller
 * lists what is stored and deletes what the plan says.
 */

/** What one session (or the error log) holds in the data folder. */
export interface StoredItem {
  /** The session id, or a name for something else kept there (the error log). */
  id: string;
  bytes: number;
  /** When any of its files was last written, epoch ms. */
  lastWrite: number;
}

export interface RetentionRule {
  maxAgeMs: number;
  maxBytes: number;
}

export interface PruneContext {
  now: number;
  /** Never removed: the session running the prune, and any other the caller names. */
  protect: ReadonlySet<string>;
  /** Never removed either: anything written this recently, which another session may still be using. */
  graceMs: number;
}

export type PruneReason = "age" | "size";

export interface PrunePlan {
  remove: Array<StoredItem & { why: PruneReason }>;
  keep: StoredItem[];
  keptBytes: number;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
/** A session written within the last day may still be open in another Claude Code: neither limit removes it. */
export const PRUNE_GRACE_MS = DAY_MS;

/** Oldest first; the same age in id order, so a plan never depends on listing order. */
function byAge(a: StoredItem, b: StoredItem): number {
  return a.lastWrite - b.lastWrite || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function planPrune(items: readonly StoredItem[], rule: RetentionRule, ctx: PruneContext): PrunePlan {
  const held = (item: StoredItem) => ctx.protect.has(item.id) || ctx.now - item.lastWrite < ctx.graceMs;
  const remove: PrunePlan["remove"] = [];
  const left: StoredItem[] = [];
  for (const item of [...items].sort(byAge)) {
    if (!held(item) && ctx.now - item.lastWrite > rule.maxAgeMs) remove.push({ ...item, why: "age" });
    else left.push(item);
  }
  let total = left.reduce((sum, item) => sum + item.bytes, 0);
  const keep: StoredItem[] = [];
  for (const item of left) {
    if (total > rule.maxBytes && !held(item)) {
      remove.push({ ...item, why: "size" });
      total -= item.bytes;
    } else keep.push(item);
  }
  return { remove, keep, keptBytes: total };
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS };
const SIZES: Record<string, number> = { b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3 };

/** `30d`, `12h`, `2w`, `90m`, or a bare number of days, as milliseconds; undefined when it is none of these. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$/i.exec(text);
  if (!m) return undefined;
  const value = Number(m[1]) * UNITS[(m[2] || "d").toLowerCase()]!;
  return value > 0 ? value : undefined;
}

/** `100MB`, `1.5G`, `500k`, or a bare number of megabytes, as bytes; undefined when it is none of these. */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?b?)\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = (m[2] || "mb").toLowerCase();
  const value = Math.round(Number(m[1]) * SIZES[unit]!);
  return value > 0 ? value : undefined;
}

/** Bytes as people read them: `512 B`, `3.4 KB`, `12.0 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
