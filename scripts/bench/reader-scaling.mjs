// How the transcript reader's cost grows with the file: `utility replay` on the
// largest fixture repeated k times. A benchmark, not a test: it prints the cost
// per MB above the 1× run, which stays about the same when reading is linear.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "./stats.mjs";

function timeOnce(args, cwd) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`replay exited ${r.status}: ${r.stderr.trim().split("\n")[0]}`);
  return ms;
}

/** Replays copies of `fixture` made `k` times longer; returns one row per k. */
export function readerScaling({ cli, fixture, work, factors = [1, 10, 40], runs = 3 }) {
  const text = readFileSync(fixture, "utf8");
  const rows = factors.map((k) => {
    const file = join(work, `replay-${k}x.jsonl`);
    writeFileSync(file, text.repeat(k));
    const ms = median(Array.from({ length: runs }, () => timeOnce([cli, "replay", "--json", file], work)));
    return { factor: k, bytes: statSync(file).size, medianMs: Math.round(ms * 10) / 10 };
  });
  const [first] = rows;
  return rows.map((r) => ({
    ...r,
    msPerMbAboveFirst: r === first ? null : Math.round(((r.medianMs - first.medianMs) / ((r.bytes - first.bytes) / 1e6)) * 10) / 10,
  }));
}
