/**
 * `utility export --otlp URL`: step logs already written sent to an
 * OpenTelemetry collector as OTLP log records, the same records the live
 * export sends (SPEC §17, docs/team.md). The SDK is loaded only for this.
 */
import { readSessionLog, sessionContext } from "../../export/sources.js";
import { parsePairs } from "../../optin/otlp-config.js";
import type { LogToSend } from "../../otlp/export-logs.js";
import { fileErrorText } from "../../state/file-error.js";
import { stringOption } from "../args.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";
import { pricesFor } from "./prices.js";
import type { OtlpTarget } from "../../otlp/types.js";

function pairsOption(values: Parsed["values"], name: string, usage: string): Record<string, string> {
  const pairs = parsePairs(stringOption(values[name]) ?? "");
  if (!pairs) throw new UsageError(`--${name} is not key=value pairs separated by commas. Usage: ${usage}`);
  return pairs;
}

/** The collector and how to send, from the options. */
export function otlpTarget(values: Parsed["values"], usage: string): OtlpTarget {
  const endpoint = stringOption(values.otlp) ?? "";
  if (!/^https?:\/\/./.test(endpoint))
    throw new UsageError(`--otlp is ${JSON.stringify(endpoint)}; expected an http:// or https:// URL. Usage: ${usage}`);
  const protocol = stringOption(values["otlp-protocol"]) ?? "http/protobuf";
  if (protocol !== "http/protobuf" && protocol !== "http/json")
    throw new UsageError(`--otlp-protocol is ${JSON.stringify(protocol)}; expected http/protobuf or http/json. Usage: ${usage}`);
  const resource = pairsOption(values, "otlp-resource-attributes", usage);
  return { endpoint, protocol, headers: pairsOption(values, "otlp-headers", usage), resource: { "service.name": "utility", ...resource } };
}

/** Each file's step log with the context its rows carry; an unreadable file is a usage error, naming it. Also for `--clickhouse` (./export.ts). */
export function readLogs(
  files: string[],
  io: CliIo,
  names: { developer: string; project?: string },
): { logs: Array<LogToSend & { session: string }>; skipped: number } {
  let skipped = 0;
  const logs: Array<LogToSend & { session: string }> = [];
  for (const file of files) {
    let log: ReturnType<typeof readSessionLog>;
    try {
      log = readSessionLog(file);
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${fileErrorText(error)}.`);
    }
    skipped += log.skipped;
    if (log.lines.length > 0)
      logs.push({ session: log.session, lines: log.lines, ctx: sessionContext(io.env, log.session, names.developer, names.project) });
  }
  return { logs, skipped };
}

/** Sends the logs; 0 when every record was accepted, 1 when some were dropped. */
export async function exportOtlp(
  target: OtlpTarget,
  files: string[],
  io: CliIo,
  names: { developer: string; project?: string },
  json: boolean,
): Promise<number> {
  const { logs, skipped } = readLogs(files, io, names);
  const { exportLogs } = await import("../../otlp/export-logs.js");
  const counts = await exportLogs(target, logs, pricesFor(io.env));
  if (json) printJson(io, { developer: names.developer, sessions: logs.length, ...counts, skippedLines: skipped });
  else
    io.stdout(
      `exported ${logs.length} session${logs.length === 1 ? "" : "s"} as ${names.developer} to ${new URL(target.endpoint).host}: ` +
        `${counts.sent} of ${counts.records} log records sent, ${counts.dropped} dropped` +
        `${counts.lastError ? ` (${counts.lastError})` : ""}` +
        `${skipped > 0 ? `; ${skipped} unreadable line${skipped === 1 ? "" : "s"} skipped` : ""}\n`,
    );
  return counts.dropped > 0 ? 1 : 0;
}
