/**
 * What the live export and `utility export --otlp` hand the OpenTelemetry
 * SDK bundle (src/otlp/sdk.ts, dist/otlp.mjs), and what it counts back. Types
 * only: importing them loads nothing, so the hook server's start-up and its
 * calls cost the same when export is off (SPEC §17).
 */

/** One OTLP log record, as src/otlp/records.ts maps it from a step row or a task row. */
export interface OtlpRecord {
  /** The event's name (`utility.step`, `utility.refusal`, …), also sent as the `event.name` attribute. */
  eventName: string;
  timeMs: number;
  body: string;
  attributes: Record<string, string | number | boolean>;
}

// Where and how to send is the settings' shape (src/optin/otlp-config.ts), so optin does not import otlp.
import type { OtlpProtocol, OtlpTarget } from "../optin/otlp-config.js";
export type { OtlpProtocol, OtlpTarget };

/** What became of the records handed over so far. */
export interface OtlpCounts {
  /** Accepted by the endpoint. */
  sent: number;
  /** Given up: the queue was full, or kept too long without an endpoint. */
  dropped: number;
  /** Handed over and not yet accepted (waiting for a batch, in flight, or kept to send again). */
  queued: number;
  /** The last failure, one line, if the last export failed. */
  lastError?: string;
}

export interface OtlpSink {
  /** Queues the records; never waits, never throws. A full queue drops and counts. */
  emit(records: readonly OtlpRecord[]): void;
  counts(): OtlpCounts;
  /** Sends what is queued, waiting at most `ms`. */
  flush(ms: number): Promise<void>;
  /** The records handed over and not yet accepted nor dropped (what a server that is ending keeps for the next). */
  unsent(): OtlpRecord[];
}

/** What tells two records apart: their event and the step record's or the task's id. */
export function recordKey(eventName: string, attributes: Record<string, unknown> | undefined): string {
  return `${eventName}\n${String(attributes?.["utility.record_id"] ?? attributes?.["utility.task_id"] ?? "")}`;
}

export interface SinkOptions {
  /** At most this many records waiting; the rest are dropped and counted. */
  maxQueue?: number;
  /** How long one export may take, its retries included (the SDK's timeoutMillis). */
  timeoutMs?: number;
  /** Milliseconds between batches. */
  delayMs?: number;
  /** Called after each export's result, off the hooks' path. */
  onCounts?: (counts: OtlpCounts) => void;
}

export type StartSink = (target: OtlpTarget, options?: SinkOptions) => OtlpSink;

/** The logs URL of an endpoint: Claude Code's OTEL_EXPORTER_OTLP_ENDPOINT form (a base) gets `/v1/logs`. */
export function logsUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, "");
  return trimmed.endsWith("/v1/logs") ? trimmed : `${trimmed}/v1/logs`;
}
