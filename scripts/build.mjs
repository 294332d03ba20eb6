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

const shared = {
  bundle: true,
  platform: "node",
  target: "node20",
  minify: !process.argv.includes("--no-minify"),
  legalComments: "none",
  logLevel: "warning",
};
// gray-matter and its YAML parser are CommonJS; give an ESM bundle a require().
const esmRequire = { js: 'import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);' };

/** The name of the reader module next to the hook scripts. */
const OPTIN_READER = "optin-read.mjs";
const OPTIN_SOURCE = join(root, "src", "optin", "read.ts");

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
await build({ ...shared, format: "esm", banner: esmRequire, entryPoints: [OPTIN_SOURCE], outfile: join(hooksOut, OPTIN_READER) });
await build({
  ...shared,
  format: "esm",
  entryPoints: [join(root, "src", "server", "start.ts")],
  outfile: join(outdir, "server.js"),
  plugins: [runtimeExternal("./hooks/runtime.js")],
});
