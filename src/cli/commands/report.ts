/**
 * `utility report [SESSION] [--json | --html FILE]`: a session's step log
 * summarised per scope (steps by action, refusals by rule, overrides, repeats
 * caught, budget used, tasks). SESSION is a session id or a path to a .jsonl;
 * without it, the most recent session log in the data folder.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { renderReportHtml } from "../../summary/html.js";
import { buildReportView } from "../../summary/report-view.js";
import { noProgressOf } from "../../summary/no-progress.js";
import { LogInputError, loadSessionLog, type LoadedLog } from "../../summary/load.js";
import { renderSummaryText } from "../../summary/report-text.js";
import { summarize } from "../../summary/summarize.js";
import { spendJson } from "../../summary/spend.js";
import { stringOption } from "../args.js";
import type { CommandSpec } from "../command-spec.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";
import { fileErrorText } from "../../state/file-error.js";

const ARGS = "[SESSION|FILE.jsonl] [--json | --html FILE]";
export const REPORT_USAGE = `utility report ${ARGS}`;

/** Loads the log a SESSION argument names; a log that cannot be found is a usage error. */
export function loadLogForCli(session: string | undefined, io: CliIo): LoadedLog {
  try {
    return loadSessionLog(session, io.env, io.cwd);
  } catch (error) {
    if (error instanceof LogInputError) throw new UsageError(error.message);
    throw error;
  }
}

function runReport({ values, positionals }: Parsed, io: CliIo): number {
  const html = stringOption(values.html);
  if (values.json && html !== undefined) throw new UsageError(`give --json or --html, not both. Usage: ${REPORT_USAGE}`);
  if (html === "") throw new UsageError(`--html needs a FILE. Usage: ${REPORT_USAGE}`);
  const log = loadLogForCli(positionals[0], io);
  if (html !== undefined) {
    const out = resolve(io.cwd, html);
    try {
      writeFileSync(out, renderReportHtml(buildReportView(log.records, { source: log.file, noProgress: noProgressOf(log.records) })));
    } catch (error) {
      throw new UsageError(`cannot write ${html}: ${fileErrorText(error)}.`);
    }
    io.stdout(`wrote ${out} (${log.records.length} records)\n`);
    return 0;
  }
  const summary = summarize(log.records);
  if (values.json) {
    const { spend, ...rest } = summary;
    const { total, ...bySession } = spend;
    printJson(io, {
      spend: { ...spendJson(total), total: total.total, byModel: total.byModel, ...bySession },
      file: log.file,
      skippedLines: log.skipped,
      ...rest,
    });
  } else
    io.stdout(
      `${renderSummaryText(summary)}${log.skipped > 0 ? `(${log.skipped} unreadable line${log.skipped === 1 ? "" : "s"} skipped)\n` : ""}`,
    );
  return 0;
}

export const REPORT: CommandSpec = {
  name: "report",
  summary: "a session's steps by action, refusals, overrides, repeats, budget per scope",
  usage: ARGS,
  arguments: ["[session]", "a session id or a log file (default: the latest session)"],
  options: [
    ["--json", "print JSON"],
    ["--html <file>", "write one self-contained HTML page: every decision, its U, steps and spend against budgets"],
  ],
  run: runReport,
};
