/**
 * `utility export --otlp URL`: step logs already written, sent as the live
 * export sends them (./records.ts), through the same SDK sink (./sdk.ts),
 * then flushed. OTLP has no read-back: sending a log twice sends its records
 * twice, each with the same `utility.record_id` for a backend to keep one.
 */
import { nodeSha256Hex } from "../hash/node-sha256.js";
import { stepRows, taskRows, type LoggedLine, type SessionContext } from "../export/rows.js";
import type { PriceTable } from "../engine/prices.js";
import { stepRecords, taskRecord } from "./records.js";
import { loadStartSink } from "./load.js";
import type { OtlpCounts, OtlpRecord, OtlpTarget, StartSink } from "./types.js";

export interface LogToSend {
  lines: readonly LoggedLine[];
  ctx: SessionContext;
}

/** Every record of the logs, steps first, then each task's spend. */
export function logRecords(logs: readonly LogToSend[], prices: PriceTable): OtlpRecord[] {
  return logs.flatMap(({ lines, ctx }) => [
    ...stepRows(lines, ctx, nodeSha256Hex).flatMap(stepRecords),
    ...taskRows(
      lines.map((l) => l.record),
      ctx,
      prices,
    ).map(taskRecord),
  ]);
}

/** Sends the logs' records and waits until they are sent or given up (`timeoutMs` per export, retries included). */
export async function exportLogs(
  target: OtlpTarget,
  logs: readonly LogToSend[],
  prices: PriceTable,
  options: { timeoutMs?: number; start?: StartSink } = {},
): Promise<OtlpCounts & { records: number }> {
  const records = logRecords(logs, prices);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const start = options.start ?? (await loadStartSink());
  const sink = start(target, { maxQueue: Math.max(1, records.length), timeoutMs, delayMs: 200 });
  sink.emit(records);
  // Each batch of 512 may take the whole timeout; a kept batch is sent once more by flush.
  await sink.flush((Math.ceil(records.length / 512) + 1) * (timeoutMs + 1_000));
  const counts = sink.counts();
  return { ...counts, dropped: counts.dropped + counts.queued, queued: 0, records: records.length };
}
