/**
 * The live ClickHouse export's setting (SPEC §17): clickhouse_url, declared
 * with the others in src/optin/options.ts, a sensitive value (it may hold a
 * user and password). Off unless set. Pure: it takes the environment as a
 * record.
 */
import * as z from "zod/mini";
import { optionEnvName } from "./options.js";

export const CLICKHOUSE_OPTION = "clickhouse_url";

const UrlSchema = z.url({ protocol: /^https?$/ });

export interface ClickHouseConfig {
  /** The ClickHouse HTTP interface; absent when the export is off or the setting is invalid. */
  url?: string;
  /** Why the export is off though set (never the value: it may hold a password). */
  problems: string[];
}

export function parseClickHouseConfig(env: Readonly<Record<string, string | undefined>>): ClickHouseConfig {
  const value = env[optionEnvName(CLICKHOUSE_OPTION)]?.trim();
  if (value === undefined || value === "") return { problems: [] };
  if (!UrlSchema.safeParse(value).success)
    return { problems: [`${CLICKHOUSE_OPTION} is not an http:// or https:// URL (its value is not shown: it may hold a password)`] };
  return { url: value, problems: [] };
}

/** Where a URL points, as status names it: host and port, never its user or password. */
export function clickHouseHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}
