/**
 * `utility replay [TRANSCRIPT…|FOLDER] [--all] [--since DATE] [--json | --html FILE] [--gated]`.
 *
 * With no path, the current project's sessions (Claude Code keeps them in
 * `~/.claude/projects/<folder>/`), with `--all` every project's, with a
 * FOLDER the sessions in it: the history a user wants to see before opting
 * in (spend per task, the budgets that would have stopped the outliers,
 * repeats, the settings to use). With transcript files: per file, the
 * redundancy rule and, with --gated, the gate (default config) over them.
 * A session file brings the subagent files Claude Code wrote beside it.
 */
import { statSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { renderHistoryHtml } from "../../history/html.js";
import { bytesText } from "../../history/labels.js";
import { renderHistoryText } from "../../history/text.js";
import { planFiles, ReplayInputError, replayFiles } from "../../replay/files.js";
import { subagentDefinitions } from "../../replay/agent-definitions.js";
import { plannedSessions, replayHistory, type HistoryProgress, type HistoryRequest } from "../../history/replay-all.js";
import {
  holdsSessions,
  installedPluginId,
  projectFolderName,
  projectFolderOf,
  projectFolders,
  projectsDir,
} from "../../replay/projects.js";
import { renderReplayText } from "../../replay/render.js";
import type { ReplayReport } from "../../replay/types.js";
import { stringOption } from "../args.js";
import type { CommandSpec } from "../command-spec.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";

const ARGS = "[TRANSCRIPT.jsonl...|FOLDER] [--all] [--since DATE] [--json | --html FILE] [--gated]";
const USAGE = `utility replay ${ARGS}`;

async function replay(paths: string[], gated: boolean, io: CliIo): Promise<ReplayReport> {
  try {
    const subagents = planFiles(paths, io.cwd).flatMap((file) => (file.role === "subagent" ? [file.path] : []));
    return replayFiles(paths, { gated, cwd: io.cwd, agents: await subagentDefinitions(subagents, io.env) });
  } catch (error) {
    if (error instanceof ReplayInputError) throw new UsageError(error.message);
    throw error;
  }
}

async function runFiles(paths: string[], values: Parsed["values"], io: CliIo): Promise<number> {
  const report = await replay(paths, values.gated === true, io);
  const empty = report.files.filter((file) => file.lines === 0);
  if (values.json) printJson(io, report);
  else if (empty.length < report.files.length) io.stdout(renderReplayText(report));
  for (const file of empty)
    io.stderr(`utility replay: ${file.path} holds no Claude Code transcript: none of its lines is a transcript line.\n`);
  return empty.length > 0 ? 1 : 0;
}

const DAY_MS = 86_400_000;

/** `--since`: a date (2026-11-01, UTC midnight), a time (ISO 8601), or days back (`30d`). */
export function parseSince(text: string, nowMs: number): { ms: number; text: string } {
  const days = /^(\d{1,4})d$/.exec(text.trim());
  if (days) {
    const ms = nowMs - Number(days[1]) * DAY_MS;
    return { ms, text: new Date(ms).toISOString().slice(0, 10) };
  }
  const ms = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim()) ? Date.parse(text.trim()) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(
      `--since ${JSON.stringify(text)} is not a date; expected YYYY-MM-DD, an ISO 8601 time, or a number of days such as 30d. Usage: ${USAGE}`,
    );
  return { ms, text: text.trim() };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Which project folders the history reads: the current folder's, every one, or those of a folder given. */
function historyFolders(folder: string | undefined, all: boolean, io: CliIo): Pick<HistoryRequest, "what" | "folders"> {
  const projects = projectsDir(io.env);
  if (folder !== undefined) {
    const path = resolve(io.cwd, folder);
    return { what: "folder", folders: holdsSessions(path) ? [path] : projectFolders(path) };
  }
  if (all) {
    if (!isDirectory(projects)) throw new UsageError(`no Claude Code sessions here: ${projects} does not exist.`);
    return { what: "all", folders: projectFolders(projects) };
  }
  const own = projectFolderOf(projects, io.cwd);
  if (own === undefined)
    throw new UsageError(
      `no Claude Code sessions of ${io.cwd} (looked in ${projects}/${projectFolderName(io.cwd)}); \`utility replay --all\` reads every project's.`,
    );
  return { what: "project", folders: [own] };
}

/** A progress line on stderr, shown when stdout is a terminal and reading has taken more than a second. */
function progressLine(io: CliIo): { update(at: HistoryProgress): void; done(): void } {
  const now = io.now ?? (() => Date.now());
  const started = now();
  let shown = 0;
  let visible = false;
  return {
    update(at) {
      if (!io.stdoutIsTTY) return;
      const t = now();
      if (t - started < 1000 || t - shown < 100) return;
      shown = t;
      visible = true;
      const rate = at.bytes / 1e6 / ((t - started) / 1000);
      io.stderr(
        `\r\u001b[Kutility replay: ${bytesText(at.bytes)} of ${bytesText(at.totalBytes)}, ${at.sessions} of ${at.totalSessions} sessions, ${rate.toFixed(0)} MB/s`,
      );
    },
    done() {
      if (visible) io.stderr("\r\u001b[K");
    },
  };
}

async function runHistory(folder: string | undefined, values: Parsed["values"], io: CliIo): Promise<number> {
  const html = stringOption(values.html);
  if (values.json && html !== undefined) throw new UsageError(`give --json or --html, not both. Usage: ${USAGE}`);
  if (html === "") throw new UsageError(`--html needs a FILE. Usage: ${USAGE}`);
  if (values.gated) throw new UsageError(`--gated replays transcript files: give them (the history has no gate). Usage: ${USAGE}`);
  const sinceText = stringOption(values.since);
  const since = sinceText === undefined ? undefined : parseSince(sinceText, (io.now ?? Date.now)());
  const request = { ...historyFolders(folder, values.all === true, io), ...(since ? { since } : {}) };
  // The sessions are planned twice (here for their subagents' definitions, read first, and by replayHistory): listing is cheap.
  const agents = await subagentDefinitions(
    plannedSessions(request).flatMap((session) => session.subagents),
    io.env,
  );
  const progress = progressLine(io);
  const report = replayHistory({
    ...request,
    agents,
    pluginId: installedPluginId(io.env),
    progress: (at) => progress.update(at),
  });
  progress.done();
  if (html !== undefined) {
    const out = resolve(io.cwd, html);
    try {
      writeFileSync(out, renderHistoryHtml(report));
    } catch (error) {
      throw new UsageError(`cannot write ${html}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
    }
    io.stdout(`wrote ${out} (${report.totals.tasks} tasks in ${report.read.sessions} sessions)\n`);
  } else if (values.json) printJson(io, report);
  else io.stdout(renderHistoryText(report));
  return 0;
}

function runReplay({ values, positionals }: Parsed, io: CliIo): Promise<number> {
  const folder = positionals.length === 1 && isDirectory(resolve(io.cwd, positionals[0]!)) ? positionals[0] : undefined;
  if (positionals.length > 0 && folder === undefined) {
    if (values.all || values.since !== undefined || values.html !== undefined)
      throw new UsageError(`--all, --since and --html read a history: give no transcript, or a folder. Usage: ${USAGE}`);
    return runFiles(positionals, values, io);
  }
  if (folder !== undefined && values.all) throw new UsageError(`give a FOLDER or --all, not both. Usage: ${USAGE}`);
  return runHistory(folder, values, io);
}

export const REPLAY: CommandSpec = {
  name: "replay",
  summary: "your sessions replayed: spend per task, budgets that would have stopped the outliers, repeats, settings to use",
  usage: ARGS,
  arguments: [
    "[paths...]",
    "Claude Code session files (.jsonl; subagent files beside them are read too), or a folder of sessions (default: this folder's project)",
  ],
  options: [
    ["--all", "every project's sessions (~/.claude/projects)"],
    ["--since <date>", "only tasks started since DATE (YYYY-MM-DD, an ISO time, or 30d)"],
    ["--json", "print JSON"],
    ["--html <file>", "write the history as one self-contained HTML page"],
    ["--gated", "with transcript files: also run the gate with the default configuration"],
  ],
  run: runReplay,
};
