/**
 * The entry of the live ClickHouse export's sender (dist/clickhouse.mjs,
 * loaded by ./load.ts only when clickhouse_url is set): utility export's own
 * client, tables and read-back (src/export/clickhouse-export.ts), so live and
 * `utility export --clickhouse` store nothing twice.
 */
import { createTables, sendSessionRows } from "../export/clickhouse-export.js";
import { clickHouse } from "../export/clickhouse-http.js";
import type { ClickHouseSender, StartSender } from "./types.js";

export const startSender: StartSender = (url: string, timeoutMs: number): ClickHouseSender => {
  const ch = clickHouse(new URL(url), timeoutMs);
  return {
    ready: () => createTables(ch),
    async send(rows) {
      const counts = await sendSessionRows(ch, rows);
      return { steps: counts.steps.sent, tasks: counts.tasks.sent };
    },
  };
};
