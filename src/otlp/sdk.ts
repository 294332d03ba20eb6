/**
 * The OpenTelemetry JS SDK behind the OTLP export (SPEC §17), built as its
 * own bundle (dist/otlp.mjs) that the hook server and the CLI load by dynamic
 * import only when export is on. Records go through the SDK's
 * BatchLogRecordProcessor to its OTLP/HTTP exporter (protobuf or JSON),
 * whose transport retries what an endpoint refuses for now or does not
 * answer. Around the exporter, this file keeps the queue bounded and counts
 * what was sent and dropped; a batch that failed after the SDK's retries is
 * kept (up to the bound) and sent again with the next, so an endpoint that
 * comes back after an outage loses nothing.
 */
import { SeverityNumber } from "@opentelemetry/api";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import { OTLPLogExporter as ProtoExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPLogExporter as JsonExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider, type LogRecordExporter, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { logsUrl, recordKey, type OtlpCounts, type OtlpRecord, type OtlpSink, type OtlpTarget, type SinkOptions } from "./types.js";

const DEFAULTS = { maxQueue: 2048, timeoutMs: 10_000, delayMs: 1_000 };
/** How long a kept batch waits before it is sent again when no new batch comes. */
const AGAIN_MS = 3_000;

/** Counts around the SDK's exporter, and keeps a failed batch to send again. */
class KeepingExporter implements LogRecordExporter {
  readonly counts: OtlpCounts = { sent: 0, dropped: 0, queued: 0 };
  /** The records handed over and not yet accepted nor dropped, by recordKey. */
  readonly unacked = new Map<string, OtlpRecord>();
  private kept: ReadableLogRecord[] = [];
  private again: NodeJS.Timeout | undefined;
  private busy = 0;

  constructor(
    private readonly inner: LogRecordExporter,
    private readonly maxQueue: number,
    private readonly onCounts: (counts: OtlpCounts) => void,
  ) {}

  export(batch: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    const all = [...this.kept.splice(0), ...batch];
    this.busy++;
    this.inner.export(all, (result) => {
      this.busy--;
      if (result.code === ExportResultCode.SUCCESS) {
        this.forget(all);
        this.counts.sent += all.length;
        this.counts.queued -= all.length;
        delete this.counts.lastError;
      } else {
        this.keep(all, result.error);
      }
      this.report();
      done({ code: ExportResultCode.SUCCESS });
    });
  }

  private keep(records: ReadableLogRecord[], error: Error | undefined): void {
    this.counts.lastError = (error?.message ?? "export failed").split("\n")[0]!.slice(0, 200);
    // Newest first out when over the bound: the oldest are already the longest unsent.
    const room = Math.max(0, this.maxQueue - this.kept.length);
    const kept = records.slice(0, room);
    const lost = records.length - kept.length;
    this.kept.push(...kept);
    this.forget(records.slice(kept.length));
    this.counts.dropped += lost;
    this.counts.queued -= lost;
    clearTimeout(this.again);
    this.again = setTimeout(() => this.sendKept(), AGAIN_MS);
    this.again.unref();
  }

  private forget(records: readonly ReadableLogRecord[]): void {
    for (const r of records) this.unacked.delete(recordKey(String(r.eventName ?? ""), r.attributes));
  }

  /** Sends the kept records by themselves, when no export is under way. */
  sendKept(): Promise<void> {
    if (this.kept.length === 0 || this.busy > 0) return Promise.resolve();
    return new Promise((resolve) => this.export([], () => resolve()));
  }

  private report(): void {
    try {
      this.onCounts({ ...this.counts });
    } catch {
      // Counting is for /utility status; it never stops an export.
    }
  }

  async forceFlush(): Promise<void> {
    await this.sendKept();
  }

  shutdown(): Promise<void> {
    clearTimeout(this.again);
    return this.inner.shutdown();
  }
}

function exporterFor(target: OtlpTarget, timeoutMs: number): LogRecordExporter {
  const config = { url: logsUrl(target.endpoint), headers: target.headers, timeoutMillis: timeoutMs };
  return target.protocol === "http/json" ? new JsonExporter(config) : new ProtoExporter(config);
}

const SEVERITY: Record<string, SeverityNumber> = {
  "utility.refusal": SeverityNumber.WARN,
  "utility.budget_stop": SeverityNumber.WARN,
  "utility.stuck_loop": SeverityNumber.WARN,
};

/** Starts the SDK for one target. */
export function startSink(target: OtlpTarget, options: SinkOptions = {}): OtlpSink {
  const { maxQueue, timeoutMs, delayMs } = { ...DEFAULTS, ...options };
  const exporter = new KeepingExporter(exporterFor(target, timeoutMs), maxQueue, options.onCounts ?? (() => undefined));
  const processor = new BatchLogRecordProcessor({
    exporter,
    maxQueueSize: maxQueue,
    maxExportBatchSize: Math.min(512, maxQueue),
    scheduledDelayMillis: delayMs,
    exportTimeoutMillis: timeoutMs + 1_000,
  });
  const provider = new LoggerProvider({ resource: resourceFromAttributes(target.resource), processors: [processor] });
  const logger = provider.getLogger("utility");
  const counts = exporter.counts;
  return {
    emit(records) {
      for (const r of records) {
        if (counts.queued >= maxQueue) {
          counts.dropped++;
          continue;
        }
        counts.queued++;
        exporter.unacked.set(recordKey(r.eventName, r.attributes), r);
        const severityNumber = SEVERITY[r.eventName] ?? SeverityNumber.INFO;
        logger.emit({ eventName: r.eventName, timestamp: r.timeMs, severityNumber, body: r.body, attributes: r.attributes });
      }
    },
    counts: () => ({ ...counts }),
    unsent: () => [...exporter.unacked.values()],
    async flush(ms) {
      let timer: NodeJS.Timeout | undefined;
      const until = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
      await Promise.race([provider.forceFlush().then(() => exporter.sendKept()), until]).catch(() => undefined);
      clearTimeout(timer);
    },
  };
}
