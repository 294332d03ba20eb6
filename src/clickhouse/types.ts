/**
 * What the live ClickHouse export (./live.ts) hands the sender it loads on
 * demand (./sender.ts, dist/clickhouse.mjs: ./load.ts). Types only: importing
 * them loads nothing, so the hook server starts and answers the same when
 * the export is off (SPEC §17).
 */
import type { SessionRows } from "../export/clickhouse-export.js";

export type { SessionRows };

/** What one send stored: the rows the server did not hold yet. */
export interface SentRows {
  steps: number;
  tasks: number;
}

export interface ClickHouseSender {
  /** Creates the tables if missing (utility export's: src/export/schema.ts). */
  ready(): Promise<void>;
  /** Reads back which of the rows the server holds and inserts the others; rejects on any failure. */
  send(rows: SessionRows): Promise<SentRows>;
}

/** A sender for one ClickHouse URL; each request gives up after `timeoutMs`. */
export type StartSender = (url: string, timeoutMs: number) => ClickHouseSender;
