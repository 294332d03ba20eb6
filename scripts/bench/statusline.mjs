#!/usr/bin/env node
// The status line's cost per refresh (SPEC §11: at most 20 ms wall, no Node):
// plugin/statusline.sh printing a fresh line the server wrote, against one
// bare shell (`sh -c :`), one bare `node -e 0` and the Node statusLine
// (dist/statusline.js) in the same run, interleaved so that load hits all alike. Each run is one process
// spawned with Claude Code's real statusLine input on stdin (as Claude Code
// runs the command), timed from spawn to exit.
//
//   node scripts/bench/statusline.mjs [--runs 50] [--shell sh]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg("--runs", "50"));
const SHELL = arg("--shell", "sh");

const home = mkdtempSync(join(tmpdir(), "utility-sl-bench-"));
const data = join(home, ".claude", "plugins", "data", "utility-utility-marketplace");
mkdirSync(join(data, "statusline"), { recursive: true });
mkdirSync(join(data, "state"), { recursive: true });
const session = "bench-session";
const line = "utility · task 3 step 7/10 · 182k/500k tok · $0.41/$2.00 · gated (review) · last verify";
// As the server writes it (src/statusline/line-file.ts); this process stands for the live server.
writeFileSync(
  join(data, "statusline", `${session}.txt`),
  `utility-statusline 1 ${process.pid} ${process.ppid} ${Math.floor(Date.now() / 1000)} 07:00:00\n${line}\n`,
);
writeFileSync(join(data, "state", `${session}.json`), "{}");
const old = new Date(Date.now() - 60_000);
utimesSync(join(data, "state", `${session}.json`), old, old);

const input = JSON.stringify({
  session_id: session,
  transcript_path: `/home/u/.claude/projects/-p/${session}.jsonl`,
  cwd: "/p",
  effort: { level: "medium" },
  model: { id: "claude-opus-5-5", display_name: "Opus 5.5" },
  workspace: { current_dir: "/p", project_dir: "/p", added_dirs: [] },
  version: "2.1.328",
  output_style: { name: "default" },
  cost: { total_cost_usd: 0, total_duration_ms: 787, total_api_duration_ms: 0, total_lines_added: 0, total_lines_removed: 0 },
  context_window: {
    total_input_tokens: 0,
    total_output_tokens: 0,
    context_window_size: 1000000,
    current_usage: null,
    used_percentage: null,
    remaining_percentage: null,
  },
  exceeds_200k_tokens: false,
  fast_mode: false,
  thinking: { enabled: true },
});
const env = { PATH: process.env.PATH, HOME: home };

const subjects = [
  {
    name: `${SHELL} plugin/statusline.sh (fresh line)`,
    command: SHELL,
    args: [join(root, "plugin", "statusline.sh")],
    expect: `${line}\n`,
  },
  { name: `${SHELL} -c : (a bare shell, the floor)`, command: SHELL, args: ["-c", ":"] },
  { name: "node -e 0", command: process.execPath, args: ["-e", "0"] },
  { name: "node dist/statusline.js (no state)", command: process.execPath, args: [join(root, "plugin", "dist", "statusline.js")] },
];

const times = subjects.map(() => []);
const loadBefore = loadavg()[0];
for (let run = 0; run < RUNS; run++) {
  subjects.forEach((subject, i) => {
    const started = process.hrtime.bigint();
    const done = spawnSync(subject.command, subject.args, { input, env, encoding: "utf8" });
    times[i].push(Number(process.hrtime.bigint() - started) / 1e6);
    if (done.status !== 0 || (subject.expect !== undefined && done.stdout !== subject.expect))
      throw new Error(`${subject.name}: exit ${done.status}, printed ${JSON.stringify(done.stdout)} ${done.stderr}`);
  });
}
const loadAfter = loadavg()[0];
rmSync(home, { recursive: true, force: true });

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (sorted) =>
  sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
console.log(`${RUNS} runs each, interleaved; load (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`);
const baseline = median([...times[2]].sort((a, b) => a - b));
subjects.forEach((subject, i) => {
  const sorted = [...times[i]].sort((a, b) => a - b);
  const m = median(sorted);
  console.log(
    `${subject.name.padEnd(40)} median ${m.toFixed(1)} ms  p90 ${quantile(sorted, 0.9).toFixed(1)}  min ${sorted[0].toFixed(1)}  max ${sorted.at(-1).toFixed(1)}  (${(m / baseline).toFixed(2)}× node -e 0)`,
  );
});
