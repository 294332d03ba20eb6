// The --clickhouse value's check (docs/team.md): an http(s) URL.
import * as z from "zod/mini";
import { ClickHouseError } from "./clickhouse-http.js";

const UrlSchema = z.string().check(z.regex(/^https?:\/\/[^\s]+$/));

/** Checks the --clickhouse value: an http(s) URL with no query of its own. */
export function clickHouseUrl(text: string): URL {
  const parsed = UrlSchema.safeParse(text);
  if (!parsed.success) throw new ClickHouseError(`--clickhouse: found ${JSON.stringify(text)}, expected an http:// or https:// URL`);
  return new URL(text);
}
