/**
 * What the live ClickHouse export has stored for a session (SPEC §17), kept
 * in `<data>/clickhouse/<session>.json`: how far into the step log ClickHouse
 * holds every row (the log after it is what waits: the log itself is the
 * spool), the prompt key in force there, each task's version stored, and the
 * counts `/utility status` shows (rows sent, records waiting, failed sends,
 * the last error). Written whole (a temporary file renamed over it), 0600.
 */
import * as z from "zod/mini";
import { progressFiles } from "../state/progress-file.js";

export const ClickHouseProgressSchema = z.object({
  offset: z.number(),
  promptKey: z.string(),
  tasks: z.record(z.string(), z.number()),
  sent: z.number(),
  waiting: z.number(),
  failed: z.number(),
  lastError: z.optional(z.string()),
  host: z.optional(z.string()),
  /** The hook server that wrote it: while it runs, no other server sends this session's rows. */
  pid: z.optional(z.number()),
  /** The session's project (its working folder's name), for the rows a later server sends for it. */
  project: z.optional(z.string()),
});
export type ClickHouseProgress = z.infer<typeof ClickHouseProgressSchema>;

export const NO_CLICKHOUSE_PROGRESS: ClickHouseProgress = { offset: 0, promptKey: "", tasks: {}, sent: 0, waiting: 0, failed: 0 };

const FOLDER = "clickhouse";

const FILES = progressFiles(FOLDER, ClickHouseProgressSchema);

export const clickHouseProgressPath = FILES.path;
/** The session's progress, or undefined when none was written (the export never saw it) or it is unreadable. */
export const readClickHouseProgress = FILES.read;
export const writeClickHouseProgress = FILES.write;
/** The sessions the export has seen in this data folder (their progress files). */
export const clickHouseSessions = FILES.sessions;

/** One line for /utility status, or undefined when the export never saw the session. */
export function clickHouseProgressLine(progress: ClickHouseProgress | undefined): string | undefined {
  if (!progress) return undefined;
  const where = progress.host ? ` to ${progress.host}` : "";
  const error = progress.lastError ? `; last error: ${progress.lastError}` : "";
  return `ClickHouse export${where}: ${progress.sent} rows sent, ${progress.waiting} records waiting, ${progress.failed} failed sends${error}`;
}

/** What `/utility status` and `utility status` say of the export: its counts, or why it is off when its setting is invalid. */
export function clickHouseStatus(dataDir: string, sessionId: string, problems: readonly string[]): string | undefined {
  if (problems.length > 0) return `ClickHouse export is off: ${problems.join("; ")}`;
  return clickHouseProgressLine(readClickHouseProgress(dataDir, sessionId));
}
