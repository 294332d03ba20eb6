// Finding and reading a session's step log (SPEC §8). The only file in src/summary that touches the disk.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { LogRecordSchema, type LogRecord } from "../log/record.js";
import { dataDirs } from "../state/locate.js";
import { sessionLogPath } from "../state/paths.js";
import { fileErrorText } from "../state/file-error.js";

/** A log that cannot be found or read: the CLI turns it into one line and exit 2. */
export class LogInputError extends Error {
  override readonly name = "LogInputError";
}

export interface LoadedLog {
  file: string;
  records: LogRecord[];
  /** Lines that are not records (cut short, not JSON, another shape): skipped, counted. */
  skipped: number;
}

/** Pure: the records of a log's text, each with the line it was read from; what is not a record is skipped and counted. */
export function parseLogLines(text: string): { lines: Array<{ line: string; record: LogRecord }>; skipped: number } {
  const lines: Array<{ line: string; record: LogRecord }> = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      skipped += 1;
      continue;
    }
    const parsed = LogRecordSchema.safeParse(json);
    if (parsed.success) lines.push({ line, record: parsed.data });
    else skipped += 1;
  }
  return { lines, skipped };
}

/** Pure: the records of a log's text; what is not a record is skipped and counted. */
export function parseLogText(text: string): { records: LogRecord[]; skipped: number } {
  const { lines, skipped } = parseLogLines(text);
  return { records: lines.map((l) => l.record), skipped };
}

export function readLogFile(file: string): LoadedLog {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new LogInputError(`cannot read ${file}: ${fileErrorText(error)}.`);
  }
  return { file, ...parseLogText(text) };
}

/** The most recently written session log in the data folders, or undefined. */
export function latestSessionLog(env: Record<string, string | undefined>): string | undefined {
  let best: { file: string; mtime: number } | undefined;
  for (const dir of dataDirs(env)) {
    const sessions = join(dir, "sessions");
    let names: string[];
    try {
      names = readdirSync(sessions);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith(".jsonl")) continue;
      const file = join(sessions, name);
      let mtime: number;
      try {
        const stat = statSync(file);
        if (!stat.isFile()) continue;
        mtime = stat.mtimeMs;
      } catch {
        continue;
      }
      if (!best || mtime > best.mtime || (mtime === best.mtime && file > best.file)) best = { file, mtime };
    }
  }
  return best?.file;
}

/**
 * Which log a SESSION argument names: a path to a .jsonl (or any existing file),
 * else a session id looked up in the data folders; with none, the latest log.
 */
export function resolveSessionLog(session: string | undefined, env: Record<string, string | undefined>, cwd: string): string {
  if (session === undefined) {
    const latest = latestSessionLog(env);
    if (!latest)
      throw new LogInputError(
        `no session logs in ${dataDirs(env)
          .map((d) => join(d, "sessions"))
          .join(" or ")}; give a SESSION id or a .jsonl path.`,
      );
    return latest;
  }
  const asPath = resolve(cwd, session);
  if (session.endsWith(".jsonl") || session.includes("/") || existsSync(asPath)) {
    if (!existsSync(asPath)) throw new LogInputError(`cannot read ${session}: ${fileErrorText({ code: "ENOENT" })}.`);
    return asPath;
  }
  let candidates: string[];
  try {
    candidates = dataDirs(env).map((dir) => sessionLogPath(dir, session));
  } catch (error) {
    throw new LogInputError((error as Error).message);
  }
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new LogInputError(`no log for session ${session} in ${candidates.join(" or ")}.`);
  return found;
}

/** Reads the log a SESSION argument names (see resolveSessionLog). */
export function loadSessionLog(session: string | undefined, env: Record<string, string | undefined>, cwd: string): LoadedLog {
  return readLogFile(resolveSessionLog(session, env, cwd));
}
