#!/usr/bin/env node
// Bundles the CLI and the hook scripts into dist/: plain JavaScript that
// needs no node_modules, because an installed plugin gets only the
// repository's files. `--out DIR` builds elsewhere (the staleness test).
import { build } from "esbuild";
import { readdirSync, rmSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outIndex = process.argv.indexOf("--out");
const outdir = outIndex > 0 ? process.argv[outIndex + 1] : join(root, "dist");

const hookDir = join(root, "src", "hooks", "entries");
const hookEntries = existsSync(hookDir)
  ? readdirSync(hookDir).filter((f) => f.endsWith(".ts")).map((f) => join(hookDir, f))
  : [];

const shared = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  // gray-matter and its YAML parser are CommonJS; give the ESM bundle a require().
  banner: { js: 'import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);' },
};

rmSync(outdir, { recursive: true, force: true });
await build({ ...shared, entryPoints: { cli: join(root, "src", "cli", "main.ts") }, outdir });
if (hookEntries.length > 0) {
  // Splitting lets a hook load the frontmatter reader only when it must read a skill file.
  await build({ ...shared, entryPoints: hookEntries, outdir: join(outdir, "hooks"), splitting: true, chunkNames: "chunks/[name]-[hash]" });
}
