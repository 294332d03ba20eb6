/** `utility log [SESSION|FILE.jsonl] [--json]`: a session's step-log records as a readable table. */
import { renderLogTable } from "../../summary/log-table.js";
import { spendJson, summarizeSpend } from "../../summary/spend.js";
import { pricesFor } from "./prices.js";
import type { CommandSpec } from "../command-spec.js";
import { printJson, type CliIo, type Parsed } from "../io.js";
import { loadLogForCli } from "./report.js";

function runLog({ values, positionals }: Parsed, io: CliIo): number {
  const log = loadLogForCli(positionals[0], io);
  if (values.json) {
    const spend = summarizeSpend(log.records, pricesFor(io.env)).total;
    printJson(io, { spend: spendJson(spend), file: log.file, skippedLines: log.skipped, records: log.records });
    return 0;
  }
  io.stdout(
    `${log.file}\n${renderLogTable(log.records)}${log.skipped > 0 ? `(${log.skipped} unreadable line${log.skipped === 1 ? "" : "s"} skipped)\n` : ""}`,
  );
  return 0;
}

export const LOG: CommandSpec = {
  name: "log",
  summary: "a session's step-log records as a table",
  usage: "[SESSION|FILE.jsonl] [--json]",
  arguments: ["[session]", "a session id or a log file (default: the latest session)"],
  options: [["--json", "print JSON"]],
  run: runLog,
};
