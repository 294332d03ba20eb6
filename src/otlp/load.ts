/**
 * Loads the OpenTelemetry SDK (./sdk.ts) only when an export needs it, so
 * that the hook server and the CLI start and answer as fast when export is
 * off (SPEC §17). The build writes it beside the entries as `otlp.mjs.br`:
 * the SDK's 60 KB of minified JavaScript, compressed with Brotli to keep the
 * plugin's install under 1 MB (test/e2e/gate/install.test.ts). It is
 * decompressed and imported as a data: module (its only imports are Node's
 * own modules). From the sources (tests under tsx) ./bundle.ts is imported.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import type { StartSink } from "./types.js";

/** The bundle's file name; set by scripts/build.mjs (esbuild `define`), absent when running from the sources. */
declare const UTILITY_OTLP_BUNDLE: string | undefined;

export const OTLP_BUNDLE = typeof UTILITY_OTLP_BUNDLE === "string" ? UTILITY_OTLP_BUNDLE : undefined;

/** The packed bundle beside the running entry (dist/server.js, dist/cli.js). */
function packedBundle(): string {
  const entry = process.argv[1] ? realpathSync(process.argv[1]) : "";
  const file = join(dirname(entry), OTLP_BUNDLE ?? "");
  if (!existsSync(file)) throw new Error(`${OTLP_BUNDLE} is missing beside ${entry || "the entry"}`);
  return file;
}

export async function loadStartSink(): Promise<StartSink> {
  if (OTLP_BUNDLE) {
    const code = brotliDecompressSync(readFileSync(packedBundle())).toString("base64");
    return ((await import(`data:text/javascript;base64,${code}`)) as { startSink: StartSink }).startSink;
  }
  // From the sources only: the specifier is not a literal, so esbuild leaves it out of the bundles.
  const source = "./bundle.js";
  return ((await import(/* @vite-ignore */ source)) as { startSink: StartSink }).startSink;
}
