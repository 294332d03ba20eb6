/**
 * The hook server's side of the live ClickHouse export (SPEC §17): the
 * setting's check and the export (./live.ts), whose sender is loaded on
 * demand (./load.ts). With clickhouse_url not set the server makes none.
 */
import { parseClickHouseConfig } from "../optin/clickhouse-config.js";
import { clickHouseLive, type ClickHouseLive, type ClickHouseLiveOptions } from "./live.js";
import { loadSender } from "./load.js";

type Env = Record<string, string | undefined>;

/** The live export when clickhouse_url is set and valid; undefined otherwise (trouble says why). */
export function clickHouseShim(
  env: Env,
  options: Omit<ClickHouseLiveOptions, "loadSender">,
  load = loadSender,
): ClickHouseLive | undefined {
  const { url, problems } = parseClickHouseConfig(env);
  if (problems.length > 0) options.trouble(`ClickHouse export is off: ${problems.join("; ")}`);
  if (!url) return undefined;
  const live = clickHouseLive(env, url, { ...options, loadSender: load });
  live.start();
  return live;
}
