import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { pool, type PooledMode } from "../../../scripts/bench/pool.mjs";

const POOL = join(ROOT, "scripts", "bench", "pool.mjs");

/** A run as client.mjs --out writes it: each mode's calls, round by round (here every call of a mode alike). */
function run(perCall: Record<string, number>, rounds = 2, calls = 2) {
  const base = (mode: string) => (mode === "no plugin" || mode === "bare node -e 0 PreToolUse" ? mode : "utility ungated");
  return {
    rows: Object.entries(perCall).map(([mode, ms]) => ({
      mode,
      base: base(mode),
      prefixBytes: 0,
      gapsByRound: Array.from({ length: rounds }, () => Array.from({ length: calls }, () => ms)),
    })),
  };
}

const byMode = (rows: PooledMode[], mode: string) => rows.find((r) => r.mode === mode)!;

describe("pool: several client bench runs taken as one", () => {
  it("takes every call of every run against the no-plugin and bare-hook calls of the same runs", () => {
    const a = run({ "no plugin": 10, "bare node -e 0 PreToolUse": 60, "utility ungated": 20, "a copy": 15 });
    const b = run({ "no plugin": 20, "bare node -e 0 PreToolUse": 90, "utility ungated": 30 });
    const rows = pool([a, b]);
    // Medians over both runs' calls (not a mean of each run's ratio, 0.17): none (10, 20) → 15, bare (60, 90) → 75,
    // ungated (20, 30) → 25; so 10 ms over 60.
    expect(byMode(rows, "utility ungated")).toMatchObject({ runs: 2, rounds: 4, overheadMs: 10 });
    expect(byMode(rows, "utility ungated").ratio).toBeCloseTo(1 / 6, 12);
    // A mode only one run has is set against that run's own calls: (15 − 10) / (60 − 10).
    expect(byMode(rows, "a copy")).toMatchObject({ runs: 1, rounds: 2, overheadMs: 5, ratio: 0.1 });
    expect(rows.map((r) => r.mode)).not.toContain("no plugin");
  });

  it("spreads by redrawing each run's rounds, so it says how often the ungated budget is met", () => {
    const within = run({ "no plugin": 10, "bare node -e 0 PreToolUse": 60, "utility ungated": 20 });
    expect(byMode(pool([within]), "utility ungated")).toMatchObject({ ci95: [0.2, 0.2], ungatedMetInDraws: 1 });
    const over = run({ "no plugin": 10, "bare node -e 0 PreToolUse": 60, "utility ungated": 30 });
    expect(byMode(pool([over]), "utility ungated").ungatedMetInDraws).toBe(0);
    // Three slow rounds of eight: the figure over all calls holds (0.2), the draws that pick them often spread above it.
    const mixed = run({ "no plugin": 10, "bare node -e 0 PreToolUse": 60, "utility ungated": 20 }, 8);
    for (const r of [0, 1, 2]) mixed.rows[2]!.gapsByRound[r] = [40, 40];
    const spread = byMode(pool([mixed]), "utility ungated");
    expect(spread.ratio).toBe(0.2);
    expect(spread.ci95[0]).toBe(0.2);
    expect(spread.ci95[1]).toBeGreaterThan(0.2);
  });

  it("sets a mode with a twin (client.mjs --otlp) against the twin's calls of the same runs", () => {
    const a = run({ "no plugin": 10, "bare node -e 0 PreToolUse": 60, "utility ungated": 20, "utility ungated, OTLP silent": 23 }, 8);
    const b = run({ "no plugin": 20, "bare node -e 0 PreToolUse": 90, "utility ungated": 30, "utility ungated, OTLP silent": 31 }, 8);
    for (const r of [a, b]) Object.assign(r.rows[3]!, { base: "utility ungated, OTLP silent", against: "utility ungated" });
    const rows = pool([a, b]);
    // Medians over both runs: the mode (23, 31) → 27, its twin (20, 30) → 25.
    expect(byMode(rows, "utility ungated, OTLP silent")).toMatchObject({ against: "utility ungated", overAgainstMs: 2 });
    const [low, high] = byMode(rows, "utility ungated, OTLP silent").overAgainstMsCi95!;
    expect(low).toBeLessThanOrEqual(2);
    expect(high).toBeGreaterThanOrEqual(2);
    expect(byMode(rows, "utility ungated").against).toBeUndefined();
  });

  it("refuses, in one line with exit 2, no file, a file that is not JSON, and a run without its calls", () => {
    const dir = mkdtempSync(join(tmpdir(), "utility-pool-"));
    const notJson = join(dir, "a.json");
    writeFileSync(notJson, "{");
    const noCalls = join(dir, "b.json");
    writeFileSync(noCalls, JSON.stringify({ rows: [{ mode: "no plugin", medianCallMs: 40 }] }));
    for (const [args, says] of [
      [[], "expected one or more run files"],
      [[notJson], `cannot read ${notJson} as JSON`],
      [[noCalls], `${noCalls}: expected each row's "gapsByRound"`],
    ] as const) {
      const done = spawnSync(process.execPath, [POOL, ...args], { encoding: "utf8" });
      expect(done.status).toBe(2);
      expect(done.stdout).toBe("");
      expect(done.stderr.trim().split("\n")).toEqual([expect.stringContaining(says)]);
    }
  });
});
