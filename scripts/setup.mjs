#!/usr/bin/env node
// Installs the development tools into dev/ and links them as ./node_modules.
// The plugin root itself has no dependencies: Claude Code runs `npm ci` in an
// installed plugin copy, and everything the hooks need is bundled in dist/.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installNotice } from "./lib/first-run.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dev = join(root, "dev");
const quiet = process.argv.includes("--quiet");
const stamp = join(dev, "node_modules", ".utility-lock-hash");
const lockHash = createHash("sha256")
  .update(readFileSync(join(dev, "package-lock.json")))
  .digest("hex");

function log(message) {
  if (!quiet) console.log(message);
}

if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== lockHash) {
  console.error(installNotice(JSON.parse(readFileSync(join(dev, "package-lock.json"), "utf8"))));
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dev, stdio: ["ignore", "inherit", "inherit"] });
  writeFileSync(stamp, lockHash);
} else {
  log("utility: development tools are installed.");
}

const link = join(root, "node_modules");
let linkStat;
try {
  linkStat = lstatSync(link);
} catch {
  linkStat = undefined;
}
if (linkStat && !linkStat.isSymbolicLink()) {
  // An `npm install` at the root leaves an empty folder; the plugin root has no dependencies.
  const entries = readdirSync(link).filter((name) => !name.startsWith("."));
  if (entries.length > 0) {
    console.error("utility: ./node_modules is a real folder with packages in it; remove it so it can link to dev/node_modules.");
    process.exit(1);
  }
  rmSync(link, { recursive: true, force: true });
  linkStat = undefined;
}
if (!linkStat) {
  symlinkSync(join("dev", "node_modules"), link, "dir");
  log("utility: linked ./node_modules -> dev/node_modules");
}
