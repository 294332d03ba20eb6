// What a step log gained since an offset: its whole lines only (a line being
// written is left for the next read). The live exports read the logs with it
// (src/otlp/live.ts, src/clickhouse/live.ts).
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";

/** The log's whole lines from `offset` on, and how many bytes they take. */
export function readFrom(file: string, offset: number): { text: string; bytes: number } {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return { text: "", bytes: 0 };
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return { text: "", bytes: 0 };
    const buffer = Buffer.alloc(size - offset);
    const read = readSync(fd, buffer, 0, buffer.length, offset);
    const end = buffer.subarray(0, read).lastIndexOf(0x0a) + 1;
    return { text: buffer.subarray(0, end).toString("utf8"), bytes: end };
  } finally {
    closeSync(fd);
  }
}

/** The log's size in bytes; 0 when there is none. */
export function logSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
