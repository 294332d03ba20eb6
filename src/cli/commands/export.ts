/**
 * `utility export --clickhouse URL [--developer NAME] [--project NAME] [--json] [FILE.jsonl...]`:
 * writes every session's step log (or the files given) into ClickHouse over
 * its HTTP interface, creating its tables (docs/team.md, SPEC §17). Sending
 * twice stores nothing twice. `--otlp URL` sends them to an OpenTelemetry
 * collector instead (./export-otlp.ts).
 */
import { ClickHouseError } from "../../export/clickhouse-http.js";
import { clickHouseUrl } from "../../export/clickhouse-url.js";
import { exportToClickHouse, type SessionRows } from "../../export/clickhouse-export.js";
import { stepRows, taskRows } from "../../export/rows.js";
import { defaultDeveloper, sessionLogFiles } from "../../export/sources.js";
import { nodeSha256Hex } from "../../hash/node-sha256.js";
import { stringOption } from "../args.js";
import type { CommandSpec } from "../command-spec.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";
import { pricesFor } from "./prices.js";
import { exportOtlp, otlpTarget, readLogs } from "./export-otlp.js";
import type { OtlpTarget } from "../../otlp/types.js";

const ARGS =
  "(--clickhouse URL | --otlp URL [--otlp-protocol P] [--otlp-headers K=V,…] [--otlp-resource-attributes K=V,…]) [--developer NAME] [--project NAME] [--json] [FILE.jsonl...]";
const USAGE = `utility export ${ARGS}`;

function targetUrl(values: Parsed["values"]): URL {
  const url = stringOption(values.clickhouse);
  if (url === undefined || url === "") throw new UsageError(`missing --clickhouse. Usage: ${USAGE}`);
  try {
    return clickHouseUrl(url);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. Usage: ${USAGE}`);
  }
}

/** Where to send: ClickHouse or an OpenTelemetry collector, one of them. */
function targetOf(values: Parsed["values"]): { otlp?: OtlpTarget; url?: URL } {
  if (values.otlp === undefined) return { url: targetUrl(values) };
  if (values.clickhouse !== undefined) throw new UsageError(`give --clickhouse or --otlp, not both. Usage: ${USAGE}`);
  return { otlp: otlpTarget(values, USAGE) };
}

function nameOption(values: Parsed["values"], name: "developer" | "project"): string | undefined {
  const value = stringOption(values[name]);
  if (value === "") throw new UsageError(`--${name} is empty; expected a name. Usage: ${USAGE}`);
  return value;
}

function sessionRows(files: string[], io: CliIo, names: { developer: string; project?: string }): { rows: SessionRows[]; skipped: number } {
  const prices = pricesFor(io.env);
  const { logs, skipped } = readLogs(files, io, names);
  const rows = logs.map(({ session, lines, ctx }) => ({
    session,
    steps: stepRows(lines, ctx, nodeSha256Hex),
    tasks: taskRows(
      lines.map((l) => l.record),
      ctx,
      prices,
    ),
  }));
  return { rows, skipped };
}

async function runExport({ values, positionals }: Parsed, io: CliIo): Promise<number> {
  const { otlp, url } = targetOf(values);
  const developer = nameOption(values, "developer") ?? defaultDeveloper(io.env);
  const project = nameOption(values, "project");
  const files = sessionLogFiles(io.env, positionals);
  const names = { developer, ...(project !== undefined ? { project } : {}) };
  if (otlp) return exportOtlp(otlp, files, io, names, values.json === true);
  const { rows, skipped } = sessionRows(files, io, names);
  const counts = await exportToClickHouse(url!, rows).catch((error: unknown) => {
    throw error instanceof ClickHouseError ? error : new ClickHouseError(String(error));
  });
  if (values.json) printJson(io, { developer, ...counts, skippedLines: skipped });
  else
    io.stdout(
      `exported ${counts.sessions} session${counts.sessions === 1 ? "" : "s"} as ${developer}: ` +
        `${counts.steps.sent} step records sent (${counts.steps.stored} already stored), ` +
        `${counts.tasks.sent} task rows sent (${counts.tasks.stored} already stored)` +
        `${skipped > 0 ? `; ${skipped} unreadable line${skipped === 1 ? "" : "s"} skipped` : ""}\n`,
    );
  return 0;
}

export const EXPORT: CommandSpec = {
  name: "export",
  summary: "write the step logs into ClickHouse, or send them to an OpenTelemetry collector, for a team (docs/team.md)",
  usage: ARGS,
  arguments: ["[files...]", "session logs to send (default: every session log in the data folders)"],
  options: [
    ["--clickhouse <url>", "the ClickHouse HTTP interface, e.g. http://user:password@host:8123/?database=team"],
    ["--otlp <url>", "an OpenTelemetry collector's OTLP/HTTP address, e.g. http://collector:4318 (/v1/logs is added)"],
    ["--otlp-protocol <protocol>", "http/protobuf (default) or http/json"],
    ["--otlp-headers <pairs>", "headers to send, as OTEL_EXPORTER_OTLP_HEADERS writes them: key=value,…"],
    ["--otlp-resource-attributes <pairs>", "resource attributes, as OTEL_RESOURCE_ATTRIBUTES writes them: key=value,…"],
    ["--developer <name>", "who ran these sessions (default: user@host)"],
    ["--project <name>", "the project (default: the transcript's working folder's name)"],
    ["--json", "print JSON"],
  ],
  run: runExport,
};
