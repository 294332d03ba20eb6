#!/usr/bin/env node
// Bundles the CLI, the hooks and the hook server into dist/: plain JavaScript
// that needs no node_modules, because an installed plugin gets only the
// repository's files. `--out DIR` builds elsewhere (the staleness test).
//
// The hooks and the hook server share one CommonJS bundle,
// dist/hooks/runtime.js (src/server/runtime.ts): the hook server (dist/server.js,
// which Claude Code starts once per session and which answers the hooks,
// docs/decisions/0002-warm-hooks.md) and each command hook
// (dist/hooks/<event>.js, the events src/hooks/events.ts declares `command`)
// are one-line entries that require it, so the plugin carries one copy of the
// handlers (its install stays under 1 MB). CommonJS, one file: Node's ESM
// loader and a graph of shared chunks cost a command hook about 7 ms more per
// start on Node 20. The frontmatter reader (gray-matter, js-yaml) is a
// separate ES module, dist/hooks/optin-read.mjs, imported only when a skill or
// agent file must be read, so its 60 KB are never compiled on the hot path.
import { build } from "esbuild";
import { brotliCompressSync, constants as zlib } from "node:zlib";
import { readFileSync, rmSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outIndex = process.argv.indexOf("--out");
const outdir = outIndex > 0 ? process.argv[outIndex + 1] : join(root, "plugin", "dist");

// The command hooks (the events src/hooks/events.ts declares `command`), as plugin/hooks/hooks.json lists them:
// each is one line that answers its event through the shared runtime bundle.
const hooksJson = JSON.parse(readFileSync(join(root, "plugin", "hooks", "hooks.json"), "utf8"));
const hookEntries = Object.entries(hooksJson.hooks).flatMap(([event, groups]) =>
  groups.flatMap((g) => g.hooks.filter((h) => h.type === "command").map((h) => ({ event, file: basename(h.args[0]) }))),
);

/** The OpenTelemetry SDK (src/otlp/sdk.ts), gzipped: loaded only when an OTLP export is on (src/otlp/load.ts). */
const OTLP_BUNDLE = "otlp.mjs.br";
/** The live ClickHouse export's sender (src/clickhouse/sender.ts): loaded only when clickhouse_url is set (src/clickhouse/load.ts). */
const CLICKHOUSE_BUNDLE = "clickhouse.mjs";

const shared = {
  bundle: true,
  platform: "node",
  target: "node20",
  minify: !process.argv.includes("--no-minify"),
  legalComments: "none",
  logLevel: "warning",
  // The OpenTelemetry SDK's bundle (src/otlp/load.ts), beside the entries.
  define: { UTILITY_OTLP_BUNDLE: JSON.stringify(OTLP_BUNDLE), UTILITY_CLICKHOUSE_BUNDLE: JSON.stringify(CLICKHOUSE_BUNDLE) },
};
// gray-matter and its YAML parser are CommonJS; give an ESM bundle a require().
const esmRequire = { js: 'import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);' };

/** The name of the reader module next to the hook scripts. */
const OPTIN_READER = "optin-read.mjs";
const OPTIN_SOURCE = join(root, "src", "optin", "read.ts");
/** The reader's code, compressed; OPTIN_READER loads it. */
const OPTIN_PACKED = "optin-read.br";
const BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } };

/** In a hook bundle, `import("../optin/read.js")` stays a dynamic import of the separate reader module, at `at` from the bundle. */
const optinReaderExternal = (at = `./${OPTIN_READER}`) => ({
  name: "optin-reader-external",
  setup(b) {
    b.onResolve({ filter: /(^|\/)optin\/read\.js$/ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined;
      return { path: at, external: true };
    });
  },
});

rmSync(outdir, { recursive: true, force: true });
await build({ ...shared, format: "esm", banner: esmRequire, entryPoints: { cli: join(root, "src", "cli", "main.ts") }, outdir });
// The statusLine command (src/statusline/main.ts): the state, its views and the price table only, so it starts fast.
await build({ ...shared, format: "esm", entryPoints: { statusline: join(root, "src", "statusline", "main.ts") }, outdir });
// The CLI is ESM; say so beside it, since the installed plugin folder has no package.json of its own.
writeFileSync(join(outdir, "package.json"), `${JSON.stringify({ type: "module" }, null, 2)}\n`);
/** In the server's entry (src/server/start.ts), `import … from "./runtime.js"` is the shared bundle, at `at` from its output. */
const runtimeExternal = (at) => ({
  name: "runtime-external",
  setup(b) {
    b.onResolve({ filter: /(^|\/)runtime\.js$/ }, () => ({ path: at, external: true }));
  },
});

const hooksOut = join(outdir, "hooks");
mkdirSync(hooksOut, { recursive: true });
writeFileSync(join(hooksOut, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
await build({
  ...shared,
  format: "cjs",
  entryPoints: [join(root, "src", "server", "runtime.ts")],
  outfile: join(hooksOut, "runtime.js"),
  plugins: [optinReaderExternal()],
});
for (const { event, file } of hookEntries)
  writeFileSync(join(hooksOut, file), `"use strict";require("./runtime.js").runEntry(${JSON.stringify(event)});\n`);
// The reader, compressed with Brotli (96 KB of JavaScript, 25 KB packed): OPTIN_READER is a few lines that decompress
// it and import it as a data: module, re-exporting its names, so the plugin's install stays under 1 MB with the
// OTLP bundle beside it. Its require() (for gray-matter's "fs") is made from the working folder: a data: module has no
// file URL, and Node's own modules resolve from anywhere.
const reader = await build({
  ...shared,
  format: "esm",
  banner: { js: 'import{createRequire as __cr}from"node:module";const require=__cr(process.cwd()+"/");' },
  entryPoints: [OPTIN_SOURCE],
  outdir: hooksOut,
  write: false,
  metafile: true,
});
const readerNames = Object.values(reader.metafile.outputs)[0].exports;
writeFileSync(join(hooksOut, OPTIN_PACKED), brotliCompressSync(reader.outputFiles[0].contents, BROTLI));
writeFileSync(
  join(hooksOut, OPTIN_READER),
  `import{readFileSync as r}from"node:fs";import{brotliDecompressSync as b}from"node:zlib";` +
    `const m=await import("data:text/javascript;base64,"+b(r(new URL("./${OPTIN_PACKED}",import.meta.url))).toString("base64"));` +
    `export const{${readerNames.join(",")}}=m;\n`,
);
await build({
  ...shared,
  format: "esm",
  entryPoints: [join(root, "src", "server", "start.ts")],
  outfile: join(outdir, "server.js"),
  plugins: [runtimeExternal("./hooks/runtime.js")],
});
// The OpenTelemetry SDK for the OTLP export (SPEC §17): one ES module with no imports but Node's own, compressed with
// Brotli (about 60 KB minified, 16 KB packed), decompressed and imported as a data: module by src/otlp/load.ts only
// when export is on.
const sdk = await build({ ...shared, format: "esm", entryPoints: [join(root, "src", "otlp", "bundle.ts")], write: false, outdir });
writeFileSync(join(outdir, OTLP_BUNDLE), brotliCompressSync(sdk.outputFiles[0].contents, BROTLI));
// The live ClickHouse export's sender (SPEC §17): utility export's client, tables and read-back, one small ES module
// with no imports but Node's own, imported by src/clickhouse/load.ts only when clickhouse_url is set.
await build({
  ...shared,
  format: "esm",
  entryPoints: [join(root, "src", "clickhouse", "sender.ts")],
  outfile: join(outdir, CLICKHOUSE_BUNDLE),
});
