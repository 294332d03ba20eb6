#!/usr/bin/env node
// Mutation testing of the pure modules (stryker.config.mjs), then the score
// per area from Stryker's JSON report, with the targets of docs/mutation.md.
// Extra arguments go to Stryker, e.g. `npm run mutation -- --mutate src/engine/utility.ts`.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// The PreToolUse plan: what the hook and replay decide a call with (docs/mutation.md).
const CALL_PLAN = ["call-plan.ts", "decide.ts", "call-waits.ts"].map((file) => `src/engine/session/${file}`);
const AREAS = [
  { name: "PreToolUse plan", files: CALL_PLAN, target: 90 },
  { name: "session machine", prefix: "src/engine/session/", target: 90 },
  { name: "engine", prefix: "src/engine/", target: 90 },
  { name: "ingestion", prefix: "src/ingest/", target: 90 },
  { name: "transcript reader", prefix: "src/transcript/", target: 80 },
];
// Stryker's own definition: killed and timed out over all mutants that are valid and covered or not.
const DETECTED = new Set(["Killed", "Timeout"]);
const COUNTED = new Set(["Killed", "Timeout", "Survived", "NoCoverage"]);

const inArea = (file, area) => (area.files ? area.files.some((f) => file.endsWith(f)) : file.includes(area.prefix));

const args = process.argv.slice(2);
const config = args[0]?.endsWith(".mjs") ? [] : ["stryker.config.mjs"];
const run = spawnSync(join(root, "node_modules", ".bin", "stryker"), ["run", ...config, ...args], { cwd: root, stdio: "inherit" });
if (run.status !== 0) process.exit(run.status ?? 1);

const report = JSON.parse(readFileSync(join(root, ".tmp", "mutation", "mutation.json"), "utf8"));
let missed = false;
console.log("\nmutation score per area:");
for (const area of AREAS) {
  const mutants = Object.entries(report.files)
    .filter(([file]) => inArea(file.replaceAll("\\", "/"), area))
    .flatMap(([, file]) => file.mutants);
  const counted = mutants.filter((m) => COUNTED.has(m.status));
  if (counted.length === 0) continue;
  const detected = counted.filter((m) => DETECTED.has(m.status)).length;
  const score = (100 * detected) / counted.length;
  const ok = score >= area.target;
  missed ||= !ok;
  console.log(
    `  ${area.name.padEnd(18)} ${score.toFixed(2).padStart(6)}%  (${detected} of ${counted.length} mutants detected; target ${area.target}%)${ok ? "" : "  BELOW TARGET"}`,
  );
}
process.exit(missed ? 1 : 0);
