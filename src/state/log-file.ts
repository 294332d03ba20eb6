import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";

const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;

/**
 * Appends one JSON line with a single write on a file opened for appending:
 * concurrent hooks never interleave within a line (O_APPEND moves to the end
 * and writes in one step for a regular local file). Opened non-blocking and
 * checked to be a regular file: a FIFO in the log's place would otherwise
 * block the hook until a reader comes.
 */
export function appendJsonLine(file: string, record: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
  const fd = openSync(file, APPEND, 0o644);
  try {
    if (!fstatSync(fd).isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: "ENOTREG" });
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}

/**
 * The user's last `/utility on` or `/utility off`, as UserPromptSubmit logged
 * it (reason "/utility on|off"), searched from the end of a session's log;
 * undefined when there is none or the log cannot be read. For when the state
 * that holds the switch cannot be read: a gated scope must still fail closed.
 */
export function lastManualSwitch(file: string): "on" | "off" | undefined {
  let lines: string[];
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!fstatSync(fd).isFile()) return undefined;
      lines = readFileSync(fd, "utf8").split("\n");
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i]!.includes('"UserPromptSubmit"')) continue;
    try {
      const record = JSON.parse(lines[i]!) as { event?: unknown; reason?: unknown };
      if (record.event === "UserPromptSubmit" && (record.reason === "/utility on" || record.reason === "/utility off")) return record.reason === "/utility on" ? "on" : "off";
    } catch {
      // a torn line: skip it
    }
  }
  return undefined;
}
