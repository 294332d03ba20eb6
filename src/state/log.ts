import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Appends one JSON line with a single write on a file opened for appending:
 * concurrent hooks never interleave within a line (O_APPEND moves to the end
 * and writes in one step for a regular local file).
 */
export function appendJsonLine(file: string, record: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(record)}\n`, { flag: "a" });
}
