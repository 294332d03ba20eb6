import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { ensureRealFolder, PRIVATE_FILE } from "./paths.js";

// O_NOFOLLOW: a link planted in the log's place is never followed out of the data folder (SPEC §10).
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Appends one JSON line with a single write on a file opened for appending:
 * concurrent hooks never interleave within a line (O_APPEND moves to the end
 * and writes in one step for a regular local file). Opened non-blocking and
 * checked to be a regular file: a FIFO in the log's place would otherwise
 * block the hook until a reader comes. The file is the user's alone (0600).
 */
export function appendJsonLine(file: string, record: unknown): void {
  ensureRealFolder(dirname(file));
  const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
  const fd = openSync(file, APPEND, PRIVATE_FILE);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: "ENOTREG" });
    // A log written before records were private (0644) is made so as it grows.
    if ((stats.mode & 0o077) !== 0) fchmodSync(fd, PRIVATE_FILE);
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}

/** What a session's log says of `/utility on|off`: the last switch applied, and a switch asked for since whose line no hook has seen yet. */
export interface LoggedSwitches {
  applied?: "on" | "off";
  /** A UserPromptSubmit of `/utility on|off` after the last applied switch: it switches once its transcript line shows it typed. */
  pending?: { promptId: string; switch: "on" | "off" };
}

const isSwitch = (value: unknown): value is "on" | "off" => value === "on" || value === "off";

/**
 * The user's switches as the log records them, searched from its end: a
 * record that carries `switched` (written by the hook that saw the typed
 * line; a field, never read back from the reason text), and
 * UserPromptSubmit records that carry `switch` and
 * `promptId` (asked, not yet seen). Empty when the log cannot be read. For
 * when the state that holds the switch is gone or unreadable: what the gate
 * remembers must not vanish with one file (SPEC §10).
 */
export function loggedSwitches(file: string): LoggedSwitches {
  const lines = readLogLines(file);
  const found: LoggedSwitches = {};
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i]!.includes('"switch')) continue;
    const record = parseSwitchRecord(lines[i]!);
    if (!record) continue;
    if (isSwitch(record.switched)) return { ...found, applied: record.switched };
    if (!found.pending && isPendingSwitch(record)) found.pending = { promptId: record.promptId, switch: record.switch };
  }
  return found;
}

interface SwitchRecord {
  event?: unknown;
  switched?: unknown;
  switch?: unknown;
  promptId?: unknown;
}

/** The log's lines, or none when it cannot be read (never following a link). */
function readLogLines(file: string): string[] {
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    try {
      if (!fstatSync(fd).isFile()) return [];
      return readFileSync(fd, "utf8").split("\n");
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
}

/** One log line as a record, or undefined for a torn line. */
function parseSwitchRecord(line: string): SwitchRecord | undefined {
  try {
    return JSON.parse(line) as SwitchRecord;
  } catch {
    return undefined;
  }
}

function isPendingSwitch(record: SwitchRecord): record is SwitchRecord & { promptId: string; switch: "on" | "off" } {
  return record.event === "UserPromptSubmit" && isSwitch(record.switch) && typeof record.promptId === "string";
}

/** The last switch applied, per the log (see loggedSwitches). */
export function lastManualSwitch(file: string): "on" | "off" | undefined {
  return loggedSwitches(file).applied;
}
