/**
 * `utility report [SESSION] [--json | --html FILE]`: a session's step log
 * summarised per scope (steps by action, refusals by rule, overrides, repeats
 * caught, budget used, tasks). SESSION is a session id or a path to a .jsonl;
 * without it, the most recent session log in the data folder.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { renderReportHtml } from "../../report/html.js";
import { LogInputError, loadSessionLog, type LoadedLog } from "../../report/load.js";
import { renderSummaryText, summarize } from "../../report/summarize.js";
import { parseCommandArgs } from "../args.js";
import { UsageError, type CliIo } from "../io.js";

export const REPORT_USAGE = "utility report [SESSION|FILE.jsonl] [--json | --html FILE]";

const OPTIONS = {
  json: { type: "boolean" },
  html: { type: "string" },
} as const;

/** Loads the log a SESSION argument names; a log that cannot be found is a usage error. */
export function loadLogForCli(session: string | undefined, io: CliIo): LoadedLog {
  try {
    return loadSessionLog(session, io.env, io.cwd);
  } catch (error) {
    if (error instanceof LogInputError) throw new UsageError(error.message);
    throw error;
  }
}

export function runReport(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, OPTIONS, REPORT_USAGE);
  if (positionals.length > 1) throw new UsageError(`report takes at most one SESSION. Usage: ${REPORT_USAGE}`);
  if (values.json && values.html !== undefined) throw new UsageError(`give --json or --html, not both. Usage: ${REPORT_USAGE}`);
  if (values.html === "") throw new UsageError(`--html needs a FILE. Usage: ${REPORT_USAGE}`);
  const log = loadLogForCli(positionals[0], io);
  if (values.html !== undefined) {
    const out = resolve(io.cwd, values.html);
    try {
      writeFileSync(out, renderReportHtml(log.records, { source: log.file }));
    } catch (error) {
      throw new UsageError(`cannot write ${values.html}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
    }
    io.stdout(`wrote ${out} (${log.records.length} records)\n`);
    return 0;
  }
  const summary = summarize(log.records);
  if (values.json) io.stdout(`${JSON.stringify({ file: log.file, skippedLines: log.skipped, ...summary }, null, 2)}\n`);
  else io.stdout(`${renderSummaryText(summary)}${log.skipped > 0 ? `(${log.skipped} unreadable line${log.skipped === 1 ? "" : "s"} skipped)\n` : ""}`);
  return 0;
}
