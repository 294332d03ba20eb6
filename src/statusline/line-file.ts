/**
 * The status line as the warm server keeps it (SPEC §9, §11): after each
 * answer the server writes the session's line to
 * `<data>/statusline/<session>.txt`, so the statusLine command
 * (plugin/statusline.sh) prints it with a shell, no Node. The file is two
 * lines: a header the script judges freshness by, then the line.
 *
 *     utility-statusline 1 <server pid> <Claude Code pid> <epoch seconds> <HH:MM:SS>
 *     utility · task 1 step 2 · 30 tok · $0.000 · not gated
 *
 * The script shows the line when the server that wrote it still runs and the
 * session's state file is not newer than it; otherwise it says why it cannot
 * (plugin/statusline.sh). Written whole (a temporary file renamed over it),
 * never through a link planted in its place (SPEC §10).
 */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureRealFolder, PRIVATE_FILE, safeId } from "../state/paths.js";

/** The first word of the header: the script refuses a file without it. */
export const LINE_FILE_MAGIC = "utility-statusline";
export const LINE_FILE_VERSION = 1;

export interface LineFile {
  /** The server that wrote it: the script checks that it still runs. */
  serverPid: number;
  /** Claude Code's process, the server's parent; 0 when unknown. */
  claudePid: number;
  /** When it was written. */
  writtenAt: Date;
  line: string;
}

export function lineFilePath(dataDir: string, sessionId: string): string {
  return join(dataDir, "statusline", `${safeId("session id", sessionId)}.txt`);
}

const two = (n: number) => String(n).padStart(2, "0");

/** Pure: the file's text. The line is one line: any line break in it becomes a space. */
export function lineFileText(file: LineFile): string {
  const at = file.writtenAt;
  const clock = `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
  const seconds = Math.floor(at.getTime() / 1000);
  const line = file.line.replace(/[\r\n]+/g, " ");
  return `${LINE_FILE_MAGIC} ${LINE_FILE_VERSION} ${file.serverPid} ${file.claudePid} ${seconds} ${clock}\n${line}\n`;
}

/** Pure: the file read back, or undefined when it is not one (tests, and anything in Node that wants it). */
export function parseLineFile(text: string): LineFile | undefined {
  const match = /^utility-statusline 1 (\d+) (\d+) (\d+) \d\d:\d\d:\d\d\n([^\n]*)\n$/.exec(text);
  if (!match) return undefined;
  return { serverPid: Number(match[1]), claudePid: Number(match[2]), writtenAt: new Date(Number(match[3]) * 1000), line: match[4]! };
}

/** Writes the session's line file whole: a temporary file, renamed over it. Returns its path. */
export function writeLineFile(dataDir: string, sessionId: string, file: LineFile): string {
  const path = lineFilePath(dataDir, sessionId);
  ensureRealFolder(join(dataDir, "statusline"));
  const temp = `${path}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  writeFileSync(temp, lineFileText(file), { flag: "wx", mode: PRIVATE_FILE });
  renameSync(temp, path);
  return path;
}
