#!/usr/bin/env node
// What a user feels (SPEC §11): the time each tool call costs in the real,
// pinned Claude Code binary with the plugin against without it, as a ratio to
// a plugin whose only hook is a bare `node -e 0` PreToolUse.
//
//   node --import tsx scripts/bench/client.mjs [--rounds N] [--calls N] [--variant LABEL=DIR[:gated]]… [--out FILE]
//
// One scripted session per mode: `calls` Read calls, one per turn, each turn
// carrying the same action report (so the model's text is alike in every
// mode). Modes run interleaved, round by round, in a shuffled order. The
// scripted model notes when each request arrives; a call's time is the gap
// between the request that answered with the Read and the next request
// (hooks, the tool itself, and Claude Code's own work between). Per-call
// overhead = median gap of the mode − median gap without any plugin.
// --variant adds a mode: another copy of the plugin (e.g. a different
// hooks/hooks.json), gated or not.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, realpathSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const argv = process.argv.slice(2);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const options = (name) => argv.flatMap((a, i) => (a === name && argv[i + 1] ? [argv[i + 1]] : []));
const rounds = Number(option("--rounds") ?? (argv.includes("--quick") ? 2 : 4));
const calls = Number(option("--calls") ?? 16);

const { runClaude, assertRunOk } = await import(join(root, "test", "e2e", "support", "claude.ts"));
const { toolUse, text } = await import(join(root, "test", "e2e", "support", "scripted-model.ts"));

const log = (line) => process.stderr.write(`${line}\n`);
const work = realpathSync(mkdtempSync(join(tmpdir(), "utility-client-bench-")));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

/** A plugin whose only hook is `node -e 0` on every PreToolUse: the floor any hook costs. */
function barePlugin() {
  const dir = join(work, "bare-plugin");
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  mkdirSync(join(dir, "hooks"), { recursive: true });
  writeFileSync(
    join(dir, ".claude-plugin", "plugin.json"),
    JSON.stringify({ name: "bare", version: "0.0.0", description: "bench: one bare hook" }),
  );
  const hook = { type: "command", command: "node", args: ["-e", "0"], timeout: 10 };
  writeFileSync(join(dir, "hooks", "hooks.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [hook] }] } }));
  return dir;
}

/** A gated skill with a step budget larger than the session (the example skill's default budget is 10). */
function gatedSkillPlugin() {
  const dir = join(work, "bench-skills");
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  mkdirSync(join(dir, "skills", "bench-gated"), { recursive: true });
  writeFileSync(
    join(dir, ".claude-plugin", "plugin.json"),
    JSON.stringify({ name: "benchskills", version: "0.0.0", description: "bench: a gated skill" }),
  );
  writeFileSync(
    join(dir, "skills", "bench-gated", "SKILL.md"),
    `---\nname: bench-gated\ndescription: Benchmark fixture, gated.\nutility_gated: true\nutility_max_steps: ${calls + 8}\n---\n\nRead the files one by one, with a report before each call.\n`,
  );
  return dir;
}

const REPORT =
  'Action: retrieve\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Read the next file."';

const skills = gatedSkillPlugin();
const modes = [
  { name: "no plugin", plugins: [], gated: false },
  { name: "bare node -e 0 PreToolUse", plugins: [barePlugin()], gated: false },
  { name: "utility ungated", plugins: [root], gated: false },
  { name: "utility gated", plugins: [root, skills], gated: true },
  ...options("--variant").map((spec) => {
    const [label, rest] = spec.split("=");
    const [dir, gated] = rest.split(":");
    return { name: label, plugins: gated === "gated" ? [dir, skills] : [dir], gated: gated === "gated", checkLog: true };
  }),
];

/** One session: a first turn (Skill when gated, else an unmeasured Read), then `calls` Read turns, then a final answer. */
async function session(mode, round) {
  const cwd = join(work, `cwd-${round}-${modes.indexOf(mode)}`);
  mkdirSync(cwd, { recursive: true });
  for (let i = 0; i <= calls; i++) writeFileSync(join(cwd, `f${i}.txt`), `file ${i}\n`.repeat(20));
  const arrivals = [];
  const script = (req, turn) => {
    arrivals.push(process.hrtime.bigint());
    if (turn === 0)
      return mode.gated
        ? [toolUse("Skill", { skill: "benchskills:bench-gated" }, `toolu_bench_skill_${round}`)]
        : [text(REPORT), toolUse("Read", { file_path: join(cwd, "f0.txt") }, `toolu_bench_r${round}_0`)];
    if (turn <= calls) return [text(REPORT), toolUse("Read", { file_path: join(cwd, `f${turn}.txt`) }, `toolu_bench_r${round}_${turn}`)];
    return [text("Done.")];
  };
  const run = await runClaude({
    prompt: "Read the files.",
    pluginDir: mode.plugins,
    script,
    cwd,
    allowedTools: ["Read", "Skill"],
    whenExhausted: "error",
    timeoutMs: 180_000,
  });
  try {
    const result = assertRunOk(run);
    if (result.permission_denials.length > 0)
      throw new Error(`${mode.name}: ${result.permission_denials.length} call(s) refused: ${JSON.stringify(result.permission_denials[0])}`);
    if (arrivals.length !== calls + 2) throw new Error(`${mode.name}: ${arrivals.length} model requests, expected ${calls + 2}`);
    if (mode.plugins.includes(root) || mode.checkLog) checkLog(run, mode);
    // Gap k: from the request answered with Read k (turn k) to the next one.
    const gaps = [];
    for (let k = 1; k <= calls; k++) gaps.push(Number(arrivals[k + 1] - arrivals[k]) / 1e6);
    return { gaps, sessionMs: run.durationMs };
  } finally {
    run.cleanup();
  }
}

/** The plugin's own log says it saw every measured call, and decided it as the mode claims (passed when gated). */
function checkLog(run, mode) {
  const file = join(run.home, ".claude", "plugins", "data", "utility-inline", "sessions", `${run.sessionId}.jsonl`);
  const records = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const reads = records.filter((r) => r.event === "PreToolUse" && r.tool === "Read");
  const expected = mode.gated ? "passed" : "observed";
  const wrong = reads.filter((r) => r.decision !== expected);
  if (reads.length < calls || wrong.length > 0)
    throw new Error(
      `${mode.name}: expected ${calls} Read calls ${expected} in the plugin's log, found ${reads.length} (${wrong.map((r) => r.decision).join(", ")})`,
    );
}

function shuffle(items) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round1 = (x) => Math.round(x * 10) / 10;

export async function clientBench() {
  const loadBefore = loadavg()[0];
  log(
    `client bench: ${modes.length} modes × ${rounds} rounds, ${calls} Read calls per session, pinned claude; load ${loadBefore.toFixed(2)} on ${cpus().length} cores`,
  );
  const samples = new Map(modes.map((m) => [m.name, { gaps: [], sessions: [] }]));
  for (let r = 0; r < rounds; r++) {
    for (const mode of shuffle(modes)) {
      const { gaps, sessionMs } = await session(mode, r);
      samples.get(mode.name).gaps.push(...gaps);
      samples.get(mode.name).sessions.push(sessionMs);
      log(`  round ${r + 1}/${rounds} ${mode.name}: median call ${round1(median(gaps))} ms`);
    }
  }
  const none = median(samples.get("no plugin").gaps);
  const bare = median(samples.get("bare node -e 0 PreToolUse").gaps) - none;
  const rows = modes.map((m) => {
    const s = samples.get(m.name);
    const perCall = median(s.gaps);
    const overhead = perCall - none;
    return {
      mode: m.name,
      calls: s.gaps.length,
      medianCallMs: round1(perCall),
      overheadMs: round1(overhead),
      ratioToBare: m.name === "no plugin" ? null : Math.round((overhead / bare) * 100) / 100,
      medianSessionMs: Math.round(median(s.sessions)),
    };
  });
  const budgets = [
    { budget: "utility ungated ≤ 1.2× the bare hook", value: rows.find((r) => r.mode === "utility ungated").ratioToBare, limit: 1.2 },
    { budget: "utility gated ≤ 1.5× the bare hook", value: rows.find((r) => r.mode === "utility gated").ratioToBare, limit: 1.5 },
  ].map((b) => ({ ...b, pass: b.value <= b.limit }));
  return {
    date: new Date().toISOString(),
    rounds,
    callsPerSession: calls,
    loadAverage1m: { before: Math.round(loadBefore * 100) / 100, after: Math.round(loadavg()[0] * 100) / 100 },
    rows,
    budgets,
  };
}

export function printClient(result) {
  console.log("\nclient (pinned Claude Code, scripted session of Read calls; overhead per call against no plugin):");
  console.log(
    `${"mode".padEnd(28)}${"calls".padStart(6)}${"median call ms".padStart(16)}${"overhead ms".padStart(13)}${"× bare hook".padStart(13)}`,
  );
  for (const r of result.rows)
    console.log(
      `${r.mode.padEnd(28)}${String(r.calls).padStart(6)}${r.medianCallMs.toFixed(1).padStart(16)}${r.overheadMs.toFixed(1).padStart(13)}${(r.ratioToBare === null ? "" : r.ratioToBare.toFixed(2)).padStart(13)}`,
    );
  for (const b of result.budgets) console.log(`${b.pass ? "ok  " : "MISS"} ${b.budget}: ${b.value.toFixed(2)}×`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const result = await clientBench();
  printClient(result);
  const out = option("--out");
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  }
}
