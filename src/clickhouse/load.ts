/**
 * Loads the live ClickHouse export's sender (./sender.ts) only when
 * clickhouse_url is set, so that the hook server starts and answers as fast
 * with the export off (SPEC §17). The build writes it beside the entries as
 * `clickhouse.mjs` (a few KB, Node's own modules only). From the sources
 * (tests under tsx) ./sender.ts is imported.
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { StartSender } from "./types.js";

/** The bundle's file name; set by scripts/build.mjs (esbuild `define`), absent when running from the sources. */
declare const UTILITY_CLICKHOUSE_BUNDLE: string | undefined;

const CLICKHOUSE_BUNDLE = typeof UTILITY_CLICKHOUSE_BUNDLE === "string" ? UTILITY_CLICKHOUSE_BUNDLE : undefined;

export async function loadSender(): Promise<StartSender> {
  if (CLICKHOUSE_BUNDLE) {
    const entry = process.argv[1] ? realpathSync(process.argv[1]) : "";
    const file = join(dirname(entry), CLICKHOUSE_BUNDLE);
    if (!existsSync(file)) throw new Error(`${CLICKHOUSE_BUNDLE} is missing beside ${entry || "the entry"}`);
    return ((await import(pathToFileURL(file).href)) as { startSender: StartSender }).startSender;
  }
  // From the sources only: the specifier is not a literal, so esbuild leaves it out of the bundles.
  const source = "./sender.js";
  return ((await import(/* @vite-ignore */ source)) as { startSender: StartSender }).startSender;
}
