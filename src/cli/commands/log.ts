/** `utility log [SESSION|FILE.jsonl] [--json]`: a session's step-log records as a readable table. */
import { renderLogTable } from "../../report/log-table.js";
import { parseCommandArgs } from "../args.js";
import { UsageError, type CliIo } from "../io.js";
import { loadLogForCli } from "./report.js";

export const LOG_USAGE = "utility log [SESSION|FILE.jsonl] [--json]";

const OPTIONS = { json: { type: "boolean" } } as const;

export function runLog(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, OPTIONS, LOG_USAGE);
  if (positionals.length > 1) throw new UsageError(`log takes at most one SESSION. Usage: ${LOG_USAGE}`);
  const log = loadLogForCli(positionals[0], io);
  if (values.json) {
    io.stdout(`${JSON.stringify({ file: log.file, skippedLines: log.skipped, records: log.records }, null, 2)}\n`);
    return 0;
  }
  io.stdout(`${log.file}\n${renderLogTable(log.records)}${log.skipped > 0 ? `(${log.skipped} unreadable line${log.skipped === 1 ? "" : "s"} skipped)\n` : ""}`);
  return 0;
}
