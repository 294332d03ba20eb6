// What `utility export` reads: every session log in the data folders (or the
// files given), each with who ran it and where. The project and Claude Code's
// own prompt ids come from the session's transcript, when it is on this
// machine: the log keeps only a digest of a prompt id (src/ingest/prompts.ts).
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseLogLines } from "../summary/load.js";
import { dataDirs } from "../state/locate.js";
import { projectsDir } from "../replay/projects.js";
import { promptKey } from "../ingest/prompts.js";
import type { LoggedLine, SessionContext } from "./rows.js";

export { defaultDeveloper } from "./developer.js";

export interface SessionLog {
  file: string;
  session: string;
  lines: LoggedLine[];
  /** Lines that hold no record (torn, another shape): not sent. */
  skipped: number;
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Every session log of the data folders, or the files given. */
export function sessionLogFiles(env: Record<string, string | undefined>, files: readonly string[]): string[] {
  if (files.length > 0) return [...files];
  return dataDirs(env).flatMap((dir) =>
    names(join(dir, "sessions"))
      .filter((n) => n.endsWith(".jsonl"))
      .map((n) => join(dir, "sessions", n)),
  );
}

/** A log's records, each with its line (the line is what makes its id). */
export function readSessionLog(file: string): SessionLog {
  const { lines, skipped } = parseLogLines(readFileSync(file, "utf8"));
  return { file, session: lines[0]?.record.session ?? basename(file, ".jsonl"), lines, skipped };
}

/** The session's transcript under Claude Code's projects folder, if this machine has it. */
function transcriptOf(env: Record<string, string | undefined>, session: string): string | undefined {
  const root = projectsDir(env);
  for (const folder of names(root)) {
    const file = join(root, folder, `${session}.jsonl`);
    try {
      return readFileSync(file, "utf8");
    } catch {
      continue;
    }
  }
  return undefined;
}

/** The project (the transcript's working folder's name) and the prompt ids its lines carry, by their key. */
export function sessionContext(
  env: Record<string, string | undefined>,
  session: string,
  developer: string,
  project?: string,
): SessionContext {
  const promptIds = new Map<string, string>();
  let cwd: string | undefined;
  for (const line of (transcriptOf(env, session) ?? "").split("\n")) {
    if (!line.includes('"promptId"') && cwd !== undefined) continue;
    try {
      const json = JSON.parse(line) as { cwd?: unknown; promptId?: unknown };
      if (cwd === undefined && typeof json.cwd === "string") cwd = json.cwd;
      if (typeof json.promptId === "string") promptIds.set(promptKey(json.promptId), json.promptId);
    } catch {
      continue;
    }
  }
  return { developer, project: project ?? (cwd !== undefined ? basename(cwd) : ""), promptIds };
}
