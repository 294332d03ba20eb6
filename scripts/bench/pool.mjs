#!/usr/bin/env node
// Several client bench runs (scripts/bench/client.mjs --out) taken as one: each mode's figures over the calls of
// every run that has it, against "no plugin" and the bare `node -e 0` hook of those same runs. Runs an hour apart
// move more than one run's spread says (docs/speed.md); pooling them gives the figure over the most calls, and
// its spread redraws each run's rounds with replacement (1000 times, seeded), so that every run keeps its weight.
//
//   node scripts/bench/pool.mjs RUN.json…
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BOOTSTRAP_SEED, overheadOf, quantile, redrawn, seededRandom, UNGATED_BUDGET } from "./stats.mjs";

const DRAWS = 1000;
const BASELINES = ["no plugin", "bare node -e 0 PreToolUse"];

function usage(message) {
  process.stderr.write(`pool: ${message}\n`);
  process.exit(2);
}

/** A run's rows that kept their calls: mode, base, prefixBytes and gapsByRound. */
function readRun(file) {
  let run;
  try {
    run = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    usage(`cannot read ${file} as JSON (${error.code ?? error.message})`);
  }
  const rows = Array.isArray(run?.rows) ? run.rows : usage(`${file}: expected "rows", found none`);
  if (!rows.some((r) => Array.isArray(r.gapsByRound)))
    usage(`${file}: expected each row's "gapsByRound" (client.mjs --out keeps them since 2026-12-02), found none`);
  return { file, rows: rows.filter((r) => Array.isArray(r.gapsByRound)) };
}

/** A mode's figures over the rounds picked in each run (`picks[i]`: round indexes of run i, repeats allowed). */
function estimate(runs, picks, mode) {
  const calls = (pick) =>
    runs.flatMap((run, i) => {
      const row = run.rows.find(pick);
      return row ? picks[i].flatMap((r) => row.gapsByRound[r] ?? []) : [];
    });
  return overheadOf({
    none: calls((r) => r.base === "no plugin" && r.prefixBytes === mode.prefixBytes),
    bare: calls((r) => r.base === "bare node -e 0 PreToolUse" && r.prefixBytes === mode.prefixBytes),
    mode: calls((r) => r.mode === mode.mode),
  });
}

export function pool(runs) {
  const modes = [];
  for (const run of runs)
    for (const row of run.rows)
      if (!modes.some((m) => m.mode === row.mode))
        modes.push({ mode: row.mode, base: row.base, prefixBytes: row.prefixBytes, against: row.against });
  const measured = modes.filter((m) => !BASELINES.includes(m.base));
  const all = runs.map((run) => Array.from({ length: run.rows[0].gapsByRound.length }, (_, r) => r));
  const random = seededRandom(BOOTSTRAP_SEED);
  const draws = Array.from({ length: DRAWS }, () => all.map((rounds) => redrawn(rounds.length, random)));
  return measured.map((m) => {
    const having = runs.map((run) => run.rows.some((r) => r.mode === m.mode));
    const kept = (picks) => picks.map((p, i) => (having[i] ? p : []));
    const point = estimate(runs, kept(all), m);
    const ratios = draws.map((d) => estimate(runs, kept(d), m).ratio);
    // A mode with a twin in the same runs (client.mjs --otlp: the export off): its median call against the twin's.
    const twin = m.against && measured.find((t) => t.base === m.against && t.prefixBytes === m.prefixBytes);
    const vsMs = (picks) => estimate(runs, kept(picks), m).perCall - estimate(runs, kept(picks), twin).perCall;
    const against = twin
      ? {
          against: twin.mode,
          overAgainstMs: vsMs(all),
          overAgainstMsCi95: ((d) => [quantile(d, 0.025), quantile(d, 0.975)])(draws.map(vsMs)),
        }
      : {};
    return {
      mode: m.mode,
      runs: having.filter(Boolean).length,
      rounds: all.reduce((n, rounds, i) => n + (having[i] ? rounds.length : 0), 0),
      overheadMs: point.overhead,
      bareMs: point.bare,
      ratio: point.ratio,
      ci95: [quantile(ratios, 0.025), quantile(ratios, 0.975)],
      ...against,
      ...(m.base === "utility ungated" ? { ungatedMetInDraws: ratios.filter((r) => r <= UNGATED_BUDGET).length / DRAWS } : {}),
    };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const files = process.argv.slice(2);
  if (files.length === 0) usage("expected one or more run files (client.mjs --out FILE), found none");
  const runs = files.map(readRun);
  console.log(`${runs.length} runs pooled; each ratio against the bare node -e 0 hook of the same runs`);
  console.log(
    `${"mode".padEnd(36)}${"runs".padStart(5)}${"rounds".padStart(7)}${"overhead ms".padStart(13)}${"× bare hook".padStart(13)}${"(95% of draws)".padStart(16)}`,
  );
  for (const r of pool(runs)) {
    const spread = `${r.ci95[0].toFixed(2)}–${r.ci95[1].toFixed(2)}`;
    console.log(
      `${r.mode.padEnd(36)}${String(r.runs).padStart(5)}${String(r.rounds).padStart(7)}${r.overheadMs.toFixed(1).padStart(13)}${r.ratio.toFixed(2).padStart(13)}${spread.padStart(16)}`,
    );
    if (r.against)
      console.log(
        `  against ${r.against}: ${r.overAgainstMs.toFixed(1)} ms a call (95% of draws ${r.overAgainstMsCi95[0].toFixed(1)} to ${r.overAgainstMsCi95[1].toFixed(1)})`,
      );
    if (r.ungatedMetInDraws !== undefined)
      console.log(`  ${r.mode} ≤ ${UNGATED_BUDGET}× the bare hook: met in ${Math.round(r.ungatedMetInDraws * 100)}% of draws`);
  }
}
