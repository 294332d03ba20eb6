/**
 * The live ClickHouse export's pure parts (SPEC §17): what the step log
 * gained, cut into sends of at most so many lines; the step rows of those
 * lines with the prompt key in force; the tasks whose stored version is
 * behind; how long to wait after failed sends.
 */
import { stepRow, type LoggedLine, type SessionContext, type StepRow, type TaskRow } from "../export/rows.js";

export interface LineChunk {
  /** Whole lines, each ending with a newline. */
  text: string;
  /** The chunk's length in bytes (the log's offset moves by it once sent). */
  bytes: number;
  lines: number;
}

/** Whole lines cut into chunks of at most `maxLines` lines, in order. */
export function lineChunks(text: string, maxLines: number): LineChunk[] {
  const lines = text.split("\n").slice(0, -1);
  const chunks: LineChunk[] = [];
  for (let i = 0; i < lines.length; i += maxLines) {
    const part = lines.slice(i, i + maxLines);
    const chunk = `${part.join("\n")}\n`;
    chunks.push({ text: chunk, bytes: Buffer.byteLength(chunk), lines: part.length });
  }
  return chunks;
}

/** The lines' step rows, given the prompt key in force before them, and the key in force after them. */
export function stepRowsAfter(
  lines: readonly LoggedLine[],
  ctx: SessionContext,
  promptKey: string,
  sha256: (text: string) => string,
): { rows: StepRow[]; promptKey: string } {
  let key = promptKey;
  const rows = lines.map((entry) => {
    const r = entry.record;
    if (r.event === "UserPromptSubmit" && r.agentId === undefined && r.promptId) key = r.promptId;
    return stepRow(entry, ctx, key, sha256);
  });
  return { rows, promptKey: key };
}

/** The tasks whose row is newer (more records) than the version stored. */
export function tasksBehind(rows: readonly TaskRow[], stored: Readonly<Record<string, number>>): TaskRow[] {
  return rows.filter((row) => row.version > (stored[row.id] ?? 0));
}

/** The wait before sending again after `failures` failed sends in a row: doubling from `baseMs`, at most 30 s. */
export function retryDelay(failures: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, failures - 1), 30_000);
}

/** One line of an error, never longer than 300 characters. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n")[0] ?? "";
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
