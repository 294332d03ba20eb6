#!/usr/bin/env node
// How fast `utility replay` reads a month of sessions: a benchmark, not a test.
//
//   node scripts/bench/history.mjs [--mb 120] [--runs 3] [--folder DIR] [--keep]
//
// Writes a folder laid out like ~/.claude/projects (./projects-folder.mjs; or
// reads DIR), runs the built CLI (plugin/dist/cli.js: `npm run build` first)
// on it `--runs` times, and prints MB/s by the wall clock and by the CPU time
// the run used, its peak memory against the largest file, and the machine's
// load (the machine is shared: quote the load with the figure).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProjectsFolder } from "./projects-folder.mjs";
import { median } from "./stats.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "plugin", "dist", "cli.js");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const mb = Number(option("mb", "120"));
const runs = Number(option("runs", "3"));
const given = option("folder", undefined);
const keep = args.includes("--keep");
const TIME = "/usr/bin/time";

function files(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => path.endsWith(".jsonl") && statSync(path).isFile());
}

function once(folder) {
  const command = existsSync(TIME)
    ? [TIME, "-f", "%U %S %M", process.execPath, cli, "replay", folder, "--json"]
    : [process.execPath, cli, "replay", folder, "--json"];
  const started = process.hrtime.bigint();
  const run = spawnSync(command[0], command.slice(1), { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`replay exited ${run.status}: ${run.stderr.trim().split("\n")[0]}`);
  const measured = existsSync(TIME) ? run.stderr.trim().split("\n").at(-1).split(" ").map(Number) : [];
  return { wallMs, cpuMs: measured.length === 3 ? (measured[0] + measured[1]) * 1000 : undefined, rssKb: measured[2] };
}

const round = (v, d = 1) => Math.round(v * 10 ** d) / 10 ** d;

if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build`);
const work = given ?? mkdtempSync(join(tmpdir(), "utility-history-bench-"));
try {
  if (!given) {
    const started = Date.now();
    const written = writeProjectsFolder(work, { bytes: mb * 1e6, seed: 1 });
    console.log(
      `wrote ${round(written.bytes / 1e6)} MB in ${written.files} files (${written.sessions.length} sessions) under ${work} in ${Date.now() - started} ms`,
    );
  }
  const all = files(work);
  const bytes = all.reduce((n, f) => n + statSync(f).size, 0);
  const largest = Math.max(...all.map((f) => statSync(f).size));
  const loadBefore = loadavg();
  const results = Array.from({ length: runs }, () => once(work));
  const loadAfter = loadavg();
  const wall = median(results.map((r) => r.wallMs));
  const cpu = results.every((r) => r.cpuMs !== undefined) ? median(results.map((r) => r.cpuMs)) : undefined;
  const rss = results.every((r) => r.rssKb !== undefined) ? Math.max(...results.map((r) => r.rssKb)) : undefined;
  const report = {
    folder: work,
    bytes,
    files: all.length,
    largestFileBytes: largest,
    runs,
    medianWallMs: round(wall, 0),
    mbPerSecondWall: round(bytes / 1e6 / (wall / 1000)),
    ...(cpu !== undefined ? { medianCpuMs: round(cpu, 0), mbPerSecondCpu: round(bytes / 1e6 / (cpu / 1000)) } : {}),
    ...(rss !== undefined ? { peakRssMb: round(rss / 1024) } : {}),
    cpus: cpus().length,
    loadBefore: loadBefore.map((v) => round(v, 2)),
    loadAfter: loadAfter.map((v) => round(v, 2)),
    node: process.version,
  };
  console.log(JSON.stringify(report, null, 2));
  console.log(
    `utility replay: ${round(bytes / 1e6)} MB in ${all.length} files, median of ${runs}: ${report.mbPerSecondWall} MB/s by the wall clock${cpu !== undefined ? `, ${report.mbPerSecondCpu} MB/s by CPU time` : ""}${rss !== undefined ? `; peak memory ${report.peakRssMb} MB with a largest file of ${round(largest / 1e6)} MB` : ""}; load ${report.loadBefore[0]} before, ${report.loadAfter[0]} after, on ${report.cpus} CPUs`,
  );
} finally {
  if (!given && !keep) rmSync(work, { recursive: true, force: true });
}
