/**
 * What the live OTLP export has done for a session (SPEC §17), kept in
 * `<data>/otlp/<session>.json`: how far into the step log it has read (so a
 * hook server started again for the session sends nothing twice), the last
 * prompt key it saw there, the tasks whose spend it sent, and the counts
 * `/utility status` shows (sent, dropped, queued, the last error). Written
 * whole (a temporary file renamed over it), 0600.
 */
import * as z from "zod/mini";
import { progressFiles } from "../state/progress-file.js";

export const ProgressSchema = z.object({
  offset: z.number(),
  promptKey: z.string(),
  tasksSent: z.array(z.string()),
  sent: z.number(),
  dropped: z.number(),
  queued: z.number(),
  lastError: z.optional(z.string()),
  endpoint: z.optional(z.string()),
  /** The hook server that wrote it: while it runs, no other server sends this session's records. */
  pid: z.optional(z.number()),
  /** The session's project (its working folder's name), for the records a later server sends for it. */
  project: z.optional(z.string()),
});
export type Progress = z.infer<typeof ProgressSchema>;

export const NO_PROGRESS: Progress = { offset: 0, promptKey: "", tasksSent: [], sent: 0, dropped: 0, queued: 0 };

const FILES = progressFiles("otlp", ProgressSchema);

export const progressPath = FILES.path;
/** The session's progress, or undefined when none was written (the export never saw it) or it is unreadable. */
export const readProgress = FILES.read;
export const writeProgress = FILES.write;
/** The sessions the export has seen in this data folder (their progress files). */
export const progressSessions = FILES.sessions;

/** One line for /utility status, or undefined when export never ran for the session. */
export function progressLine(progress: Progress | undefined): string | undefined {
  if (!progress) return undefined;
  const where = progress.endpoint ? ` to ${progress.endpoint}` : "";
  const error = progress.lastError ? `; last error: ${progress.lastError}` : "";
  return `OTLP export${where}: ${progress.sent} records sent, ${progress.dropped} dropped, ${progress.queued} waiting${error}`;
}

/** What `/utility status` and `utility status` say of the export: its counts, or why it is off when its settings are invalid. */
export function otlpStatus(dataDir: string, sessionId: string, problems: readonly string[]): string | undefined {
  if (problems.length > 0) return `OTLP export is off: ${problems.join("; ")}`;
  try {
    return progressLine(readProgress(dataDir, sessionId));
  } catch {
    return undefined;
  }
}
