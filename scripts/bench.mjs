#!/usr/bin/env node
// `npm run bench`: how much the hooks cost on the user's critical path
// (SPEC §11), as ratios against `node -e 0` measured in the same run.
//
//   node scripts/bench.mjs [--quick] [--runs N] [--out FILE] [--strict] [--dist DIR] [--keep]
//
// Uses dist/ as built (`npm run build`); builds nothing. Writes its
// transcripts (50 KB and 50 MB) and hook data into a temporary folder, runs
// every case round-robin in a shuffled order (so drift hits all alike),
// prints a table and writes the same as JSON (default bench/results.json).
// --quick: fewer runs. --strict: exit 1 when a budget is missed. --no-client:
// skip the real-client benchmark (scripts/bench/client.mjs) that runs last. --dist:
// measure another build (e.g. a copy of an older dist/). --keep: leave the
// work folder (transcripts, states, logs) for a look.
import { readerScaling } from "./bench/reader-scaling.mjs";
import { parserScaling, printParserScaling } from "./bench/parser-scaling.mjs";
import { spawnSync } from "node:child_process";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  fstatSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { measure, parallelCase, processCase, summarize } from "./bench/measure.mjs";
import { writeTranscript } from "./bench/transcript.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const quick = flag("--quick");
const runs = Number(option("--runs") ?? (quick ? 5 : 30));
const parallelRuns = Math.max(3, Math.round(runs / 5));
const outFile = option("--out") ?? join(root, "bench", "results.json");
const KB50 = 50 * 1000;
const MB50 = 50 * 1000 * 1000;
const PARALLEL = 32;
/** The 50 MB session is a long one: its state remembers as many calls as the hooks keep (HISTORY_LIMIT). */
const HISTORY = 256;

const distDir = option("--dist") ?? join(root, "plugin", "dist");
const dist = {
  pre: join(distDir, "hooks", "pre-tool-use.js"),
  post: join(distDir, "hooks", "post-tool-use.js"),
  cli: join(distDir, "cli.js"),
};
const missing = Object.values(dist).filter((f) => !existsSync(f));
if (missing.length > 0) {
  console.error(`bench: ${relative(root, missing[0])} is missing; build first with \`npm run build\`.`);
  process.exit(1);
}
if (!option("--dist")) warnIfStale();

// Anything going wrong from here (a hook failing, a check not met) is one line, not a stack.
let progressShown = false;
process.on("uncaughtException", (error) => {
  console.error(
    `${progressShown ? "\n" : ""}bench: ${
      String(error?.message ?? error)
        .trim()
        .split("\n")[0]
    }`,
  );
  process.exit(1);
});

/** How busy the machine was before the bench added its own load. */
const loadBefore = loadavg()[0];
const work = mkdtempSync(join(tmpdir(), "utility-bench-"));
if (!flag("--keep")) process.on("exit", () => rmSync(work, { recursive: true, force: true }));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

const log = (text) => process.stderr.write(`${text}\n`);
log(
  `bench: node ${process.versions.node}, ${cpus().length} cores, ${runs} runs per case (${parallelRuns} for the parallel ones); work folder ${work}`,
);

// ---------------------------------------------------------------- scenarios

/** Runs a hook once (untimed, for seeding); fails loudly if it complains. */
function hook(script, env, input) {
  const r = spawnSync(process.execPath, [script], { input: JSON.stringify(input), env, encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0 || r.stderr)
    throw new Error(`seeding with ${relative(root, script)} failed (exit ${r.status}): ${firstLines(r.stderr)}`);
  return r.stdout;
}

function lastLogRecord(file) {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.toString("utf8").trimEnd().split("\n");
    return JSON.parse(lines.at(-1));
  } finally {
    closeSync(fd);
  }
}

const sessionId = "bench-session";
const callInput = (transcript, event, id, i = 0, extra = {}) => ({
  session_id: sessionId,
  transcript_path: transcript,
  cwd: work,
  permission_mode: "default",
  hook_event_name: event,
  tool_name: "Bash",
  tool_input: { command: `npm test -- --run parser-${i}`, description: "run the failing test" },
  tool_use_id: id,
  ...extra,
});

/**
 * One session in its own data folder, in the steady state of a long task:
 * the hooks have seen every call up to the last one (state seeded by running
 * them), and Claude Code has just written a message with a report and the
 * call(s) to decide. Snapshots of the state let every run start alike.
 */
function scenario(name, bytes, { skillFolder, calls = 1, prevReport = true, history = 0, extraEnv = {} } = {}) {
  const dir = join(work, name);
  mkdirSync(dir);
  const transcript = join(dir, `${sessionId}.jsonl`);
  const env = { ...process.env, UTILITY_DATA_DIR: join(dir, "data"), ...extraEnv };
  const written = writeTranscript(transcript, bytes, { skillFolder, sessionId, prevReport });
  const prev = {
    session_id: sessionId,
    transcript_path: transcript,
    cwd: work,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "git status --short", description: "state of the tree" },
    tool_use_id: written.prevId,
  };
  hook(dist.pre, env, prev);
  // A refused call never runs, so PostToolUse only follows one that had its report.
  if (prevReport)
    hook(dist.post, env, {
      ...prev,
      hook_event_name: "PostToolUse",
      tool_response: { stdout: " M src/parser.ts", stderr: "", interrupted: false },
    });
  const state = join(dir, "data", "state", `${sessionId}.json`);
  if (history > 0) fillHistory(state, history);
  const ids = Array.from({ length: calls }, (_, i) =>
    calls === 1 ? "toolu_bench_call" : `toolu_bench_call_${String(i).padStart(2, "0")}`,
  );
  written.finish(ids);
  const sessionLog = join(dir, "data", "sessions", `${sessionId}.jsonl`);
  const snapshot = (label) => {
    const file = join(dir, `${label}.state.json`);
    copyFileSync(state, file);
    return () => copyFileSync(file, state);
  };
  return { name, dir, transcript, env, ids, state, sessionLog, size: statSync(transcript).size, snapshot };
}

/**
 * A long session remembers many calls (for exact repeats, SPEC §7): grow the
 * scope's history to `count` entries shaped like the one the hooks wrote.
 */
function fillHistory(stateFile, count) {
  const state = JSON.parse(readFileSync(stateFile, "utf8"));
  const real = state.main.history.at(-1);
  if (!real) throw new Error("seeding: the hooks recorded no call in the history");
  const made = Array.from({ length: count - 1 }, (_, i) => ({
    ...real,
    digest: i.toString(16).padStart(32, "0"),
    toolUseId: `toolu_history_${i}`,
    at: i + 1,
  }));
  state.main.history = [...made, real];
  writeFileSync(stateFile, JSON.stringify(state));
}

/** Nothing, or only the utility: line a passed gated call gets (additional context, never a decision). */
function silentOrContext(stdout) {
  if (stdout === "") return true;
  const out = JSON.parse(stdout).hookSpecificOutput;
  return (
    out !== undefined &&
    Object.keys(out).sort().join() === "additionalContext,hookEventName" &&
    out.additionalContext.startsWith("utility:")
  );
}

/** A hook that must pass (gated) or observe (ungated) the measured call, silently (a passed gated call: with its utility: line). */
function preCase(label, s, expected) {
  const restore = s.snapshot("before-pre");
  const input = JSON.stringify(callInput(s.transcript, "PreToolUse", s.ids[0]));
  const check = (r) => {
    if (r.status !== 0 || !silentOrContext(r.stdout) || r.stderr !== "")
      throw new Error(`${label}: exit ${r.status}, stdout ${JSON.stringify(r.stdout.slice(0, 300))}, stderr ${firstLines(r.stderr)}`);
    const record = lastLogRecord(s.sessionLog);
    if (record.toolUseId !== s.ids[0] || record.decision !== expected)
      throw new Error(`${label}: expected the call to be ${expected}, the log says ${record.decision} (${record.reason ?? ""})`);
  };
  // One untimed call proves the case does what it claims, and leaves the state PostToolUse needs.
  restore();
  check(spawnSync(process.execPath, [dist.pre], { input, env: s.env, encoding: "utf8" }));
  const restorePost = s.snapshot("before-post");
  return { pre: processCase({ name: label, args: [dist.pre], input, env: s.env, prepare: restore, check }), restorePost };
}

function postCase(label, s, restorePost) {
  const input = JSON.stringify(
    callInput(s.transcript, "PostToolUse", s.ids[0], 0, { tool_response: { stdout: "1 failed", stderr: "", interrupted: false } }),
  );
  return processCase({
    name: label,
    args: [dist.post],
    input,
    env: s.env,
    prepare: restorePost,
    check: (r) => {
      if (r.status !== 0 || r.stdout !== "" || r.stderr !== "")
        throw new Error(`${label}: exit ${r.status}, stderr ${firstLines(r.stderr)}`);
    },
  });
}

/** A skill of the bench's own: gated, with a budget large enough for the parallel calls. */
function benchSkill() {
  const folder = join(work, "skills", "bench-parallel");
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, "SKILL.md"),
    `---\nname: bench-parallel\ndescription: Benchmark fixture.\nutility_gated: true\nutility_max_steps: ${PARALLEL * 4}\n---\n\n# Bench\n`,
  );
  return folder;
}

/**
 * 32 calls of one message at once on one session. Seeded so that the task's
 * step count is 0 before them: the seeding call has no report and is refused
 * (a refusal takes no step), which also makes the hooks learn the skill.
 */
function parallelCases() {
  const s = scenario("parallel", KB50, { skillFolder: benchSkill(), calls: PARALLEL, prevReport: false });
  const restore = s.snapshot("before-parallel");
  const before = JSON.parse(readFileSync(s.state, "utf8"));
  const inputs = s.ids.map((id, i) => JSON.stringify(callInput(s.transcript, "PreToolUse", id, i)));
  let logLines = 0;
  const lineCount = () => readFileSync(s.sessionLog, "utf8").split("\n").filter(Boolean).length;
  const facts = {
    calls: PARALLEL,
    stepsBefore: before.main.step,
    stepsAfter: undefined,
    newLogLines: undefined,
    passed: undefined,
    runsChecked: 0,
  };
  const hookCase = parallelCase({
    name: `PreToolUse gated ×${PARALLEL} in parallel, one session (50 KB)`,
    count: PARALLEL,
    argsFor: () => [dist.pre],
    inputFor: (i) => inputs[i],
    env: s.env,
    prepare: () => {
      restore();
      logLines = lineCount();
    },
    check: (results) => {
      const bad = results.find((r) => r.status !== 0 || !silentOrContext(r.stdout) || r.stderr !== "");
      if (bad) throw new Error(`parallel: a hook failed (exit ${bad.status}): ${bad.stdout}${bad.stderr}`);
      const state = JSON.parse(readFileSync(s.state, "utf8"));
      const lines = readFileSync(s.sessionLog, "utf8").split("\n").filter(Boolean);
      const records = lines.slice(logLines).map((line) => JSON.parse(line));
      const passed = records.filter((r) => r.decision === "passed").length;
      const ids = new Set(records.map((r) => r.toolUseId));
      Object.assign(facts, { stepsAfter: state.main.step, newLogLines: records.length, passed, runsChecked: facts.runsChecked + 1 });
      if (records.length !== PARALLEL || ids.size !== PARALLEL || passed !== PARALLEL || state.main.step !== before.main.step + PARALLEL) {
        throw new Error(
          `parallel: expected ${PARALLEL} log lines, ${PARALLEL} passed and the step count to grow by ${PARALLEL}; got ${records.length} lines (${ids.size} calls), ${passed} passed, step ${before.main.step} → ${state.main.step}`,
        );
      }
    },
  });
  const baseline = parallelCase({
    name: `node -e 0 ×${PARALLEL} in parallel`,
    count: PARALLEL,
    argsFor: () => ["-e", "0"],
    inputFor: (i) => inputs[i],
  });
  return { hookCase, baseline, facts };
}

/** `utility replay` on the largest recorded transcript, when the CLI has that command. */
function replayCase() {
  const folder = join(root, "test", "fixtures", "transcripts");
  const name = "CLI replay, largest fixture";
  let fixture;
  try {
    fixture = readdirSync(folder)
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(folder, f))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  } catch {
    fixture = undefined;
  }
  if (!fixture) return { name, unavailable: `no fixtures in ${relative(root, folder)}` };
  const args = [dist.cli, "replay", fixture];
  const probe = spawnSync(process.execPath, args, { encoding: "utf8", cwd: work, maxBuffer: 64 * 1024 * 1024 });
  if (/unknown command/i.test(probe.stderr)) return { name, unavailable: "dist/cli.js has no `replay` command yet" };
  if (probe.status !== 0 && probe.status !== 1)
    return { name, unavailable: `replay exited ${probe.status}: ${probe.stderr.trim().split("\n")[0]}` };
  const status = probe.status;
  return {
    name: `${name} (${formatBytes(statSync(fixture).size)})`,
    fixture: relative(root, fixture),
    case: processCase({
      name,
      args,
      cwd: work,
      check: (r) => {
        if (r.status !== status) throw new Error(`replay: exit ${r.status} (first run: ${status}): ${r.stderr.trim()}`);
      },
    }),
  };
}

// ---------------------------------------------------------------- run

log("bench: writing transcripts and seeding hook state…");
const gatedSkill = join(root, "examples", "skills", "gated-example");
const scenarios = {
  ungatedSmall: scenario("ungated-50k", KB50),
  ungatedLarge: scenario("ungated-50m", MB50, { history: HISTORY }),
  // The user's budgets (userConfig → CLAUDE_PLUGIN_OPTION_*) apply to every scope: each call checks the task's spend, kept by the reducer.
  ungatedBudgets: scenario("ungated-50m-budgets", MB50, {
    history: HISTORY,
    extraEnv: { CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "1000000000", CLAUDE_PLUGIN_OPTION_MAX_AGENTS: "100" },
  }),
  gatedSmall: scenario("gated-50k", KB50, { skillFolder: gatedSkill }),
  gatedLarge: scenario("gated-50m", MB50, { skillFolder: gatedSkill, history: HISTORY }),
};
const sizes = Object.fromEntries(Object.entries(scenarios).map(([k, s]) => [k, s.size]));
const ungatedSmall = preCase("PreToolUse ungated, 50 KB transcript", scenarios.ungatedSmall, "observed");
const ungatedLarge = preCase("PreToolUse ungated, 50 MB transcript + 256-call history", scenarios.ungatedLarge, "observed");
const ungatedBudgets = preCase(
  "PreToolUse ungated, 50 MB + 256-call history, the user's budgets set",
  scenarios.ungatedBudgets,
  "observed",
);
const gatedSmall = preCase("PreToolUse gated, valid report, 50 KB transcript", scenarios.gatedSmall, "passed");
const gatedLarge = preCase("PreToolUse gated, valid report, 50 MB transcript + 256-call history", scenarios.gatedLarge, "passed");
const postSmall = postCase("PostToolUse, 50 KB transcript", scenarios.gatedSmall, gatedSmall.restorePost);
const postLarge = postCase("PostToolUse, 50 MB transcript + 256-call history", scenarios.gatedLarge, gatedLarge.restorePost);
const parallel = parallelCases();
const replay = replayCase();

const baseline = processCase({ name: "node -e 0", args: ["-e", "0"], input: "{}" });
const single = [
  baseline,
  ungatedSmall.pre,
  ungatedLarge.pre,
  ungatedBudgets.pre,
  gatedSmall.pre,
  gatedLarge.pre,
  postSmall,
  postLarge,
  ...(replay.case ? [replay.case] : []),
];
const started = Date.now();
log(`bench: measuring (${single.length} cases × ${runs} and 2 parallel cases × ${parallelRuns}, interleaved)…`);
const samples = await measure(
  [...single.map((c) => ({ ...c, runs })), { ...parallel.hookCase, runs: parallelRuns }, { ...parallel.baseline, runs: parallelRuns }],
  {
    runs,
    onRound: (done, total) => {
      if (!process.stderr.isTTY) return;
      process.stderr.write(`\rbench: round ${done}/${total}${done === total ? "\n" : ""}`);
      progressShown = done < total;
    },
  },
);

// ---------------------------------------------------------------- report

const base = summarize(samples.get(baseline.name));
const row = (name, label = name) => {
  const s = summarize(samples.get(name));
  const cpu = s.cpuMean !== undefined && base.cpuMean ? { cpuMs: round(s.cpuMean), cpuRatio: round(s.cpuMean / base.cpuMean, 2) } : {};
  return {
    name: label,
    runs: s.runs,
    medianMs: round(s.median),
    minMs: round(s.min),
    maxMs: round(s.max),
    ratio: round(s.median / base.median, 2),
    ...cpu,
  };
};
const rows = [
  row(baseline.name),
  row(ungatedSmall.pre.name),
  row(ungatedLarge.pre.name),
  row(ungatedBudgets.pre.name),
  row(gatedSmall.pre.name),
  row(gatedLarge.pre.name),
  row(postSmall.name),
  row(postLarge.name),
  replay.case
    ? { ...row(replay.case.name, replay.name), fixture: replay.fixture }
    : { name: replay.name, available: false, note: replay.unavailable },
  row(parallel.hookCase.name),
  row(parallel.baseline.name),
];
const byName = new Map(rows.map((r) => [r.name, r]));
const median = (name) => byName.get(name).medianMs;
const growth = (small, large) => round(median(large) / median(small), 2);
const budgets = [
  { budget: "PreToolUse gated, valid report, 50 KB ≤ 1.5× node -e 0", value: byName.get(gatedSmall.pre.name).ratio, limit: 1.5 },
  { budget: "PreToolUse gated, valid report, 50 MB ≤ 1.5× node -e 0", value: byName.get(gatedLarge.pre.name).ratio, limit: 1.5 },
  { budget: "PreToolUse ungated, 50 KB ≤ 1.5× node -e 0", value: byName.get(ungatedSmall.pre.name).ratio, limit: 1.5 },
  { budget: "PreToolUse ungated, 50 MB ≤ 1.5× node -e 0", value: byName.get(ungatedLarge.pre.name).ratio, limit: 1.5 },
  { budget: "PreToolUse gated: 50 MB ≤ 1.2× 50 KB", value: growth(gatedSmall.pre.name, gatedLarge.pre.name), limit: 1.2 },
  { budget: "PreToolUse ungated: 50 MB ≤ 1.2× 50 KB", value: growth(ungatedSmall.pre.name, ungatedLarge.pre.name), limit: 1.2 },
  {
    budget: "PreToolUse ungated, 50 MB: the user's budgets ≤ 1.1× none",
    value: growth(ungatedLarge.pre.name, ungatedBudgets.pre.name),
    limit: 1.1,
  },
  { budget: "PostToolUse: 50 MB ≤ 1.2× 50 KB", value: growth(postSmall.name, postLarge.name), limit: 1.2 },
].map((b) => ({ ...b, pass: b.value <= b.limit }));
const parallelOk =
  parallel.facts.runsChecked > 0 &&
  parallel.facts.newLogLines === PARALLEL &&
  parallel.facts.stepsAfter === parallel.facts.stepsBefore + PARALLEL;
budgets.push({
  budget: `${PARALLEL} parallel PreToolUse calls lose no step and no log line`,
  value: `${parallel.facts.newLogLines} lines, step ${parallel.facts.stepsBefore} → ${parallel.facts.stepsAfter}`,
  pass: parallelOk,
});

printTable(rows);
const scaling = replay.fixture ? readerScaling({ cli: dist.cli, fixture: join(root, replay.fixture), work, runs: quick ? 1 : 3 }) : [];
if (scaling.length > 0) {
  console.log("\nreader scaling (utility replay --json on the largest fixture repeated k times):");
  for (const r of scaling)
    console.log(
      `  ${String(r.factor).padStart(3)}×  ${formatBytes(r.bytes).padStart(8)}  ${r.medianMs.toFixed(1).padStart(8)} ms${r.msPerMbAboveFirst === null ? "" : `   ${r.msPerMbAboveFirst} ms per MB above 1×`}`,
    );
}
const parser = await parserScaling({ root, work, preHook: dist.pre, runs: quick ? 3 : 5 });
printParserScaling(parser);
console.log("");
for (const b of budgets)
  console.log(`${b.pass ? "ok  " : "MISS"} ${b.budget}: ${typeof b.value === "number" ? `${b.value.toFixed(2)}×` : b.value}`);
// The parallel cases raise the load themselves; only a machine busy before the run says the figures are shaky.
if (loadBefore > cpus().length / 2)
  console.log(
    `\nnote: the machine was busy before the run (1-minute load ${loadBefore.toFixed(1)} on ${cpus().length} cores); the ratios are noisier than usual, the CPU columns less so.`,
  );
console.log(
  `\nreproduce: npm run bench${argv.length > 0 ? ` -- ${argv.join(" ")}` : ""}   (measured in ${Math.round((Date.now() - started) / 1000)} s)`,
);

const result = {
  command: `npm run bench${argv.length > 0 ? ` -- ${argv.join(" ")}` : ""}`,
  ...(option("--dist") ? { dist: distDir } : {}),
  date: new Date().toISOString(),
  machine: {
    node: process.versions.node,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0], 2) },
  },
  method: `wall time of whole processes (spawn to exit) measured from Node, cases interleaved round-robin in shuffled order, one warm-up round; ratio = median / median of node -e 0 in the same run; ${runs} runs per case, ${parallelRuns} for the parallel cases; cpuMs = mean user+system time of the child processes (Linux /proc), cpuRatio against node -e 0's`,
  transcripts: Object.fromEntries(Object.entries(sizes).map(([k, v]) => [k, v])),
  rows,
  readerScaling: scaling,
  parserScaling: parser,
  budgets,
  parallel: parallel.facts,
};
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
console.log(`wrote ${relative(process.cwd(), outFile) || outFile}`);
if (flag("--strict") && budgets.some((b) => !b.pass)) process.exitCode = 1;

// What a user feels: the same hooks in the real client (scripts/bench/client.mjs; --no-client skips it).
if (!flag("--no-client")) {
  const clientOut = join(dirname(outFile), "client-results.json");
  const client = spawnSync(
    process.execPath,
    ["--import", "tsx", join(root, "scripts", "bench", "client.mjs"), ...(quick ? ["--quick"] : []), "--out", clientOut],
    { cwd: root, stdio: "inherit" },
  );
  if (client.status !== 0) process.exitCode = 1;
  else if (flag("--strict") && JSON.parse(readFileSync(clientOut, "utf8")).budgets.some((b) => !b.pass)) process.exitCode = 1;
}

// ---------------------------------------------------------------- helpers

/** The lines of a child's stderr that say what went wrong (a stack trace's head), on one line. */
function firstLines(text) {
  return JSON.stringify(
    text
      .split("\n")
      .filter((line) => line.trim() && !/^\s+at |^\s*\^|throw err;|^Node\.js v/.test(line))
      .slice(0, 3)
      .join(" | "),
  );
}

function round(value, digits = 1) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function formatBytes(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.round(n / 1e3)} KB`;
}

function printTable(table) {
  const cpu = table.some((r) => r.cpuMs !== undefined);
  const header = ["case", "median ms", "min ms", "max ms", "× node -e 0", ...(cpu ? ["cpu ms", "cpu ×"] : [])];
  const body = table.map((r) =>
    r.available === false
      ? [r.name, "not available", "", "", r.note]
      : [
          r.name,
          r.medianMs.toFixed(1),
          r.minMs.toFixed(1),
          r.maxMs.toFixed(1),
          r.ratio.toFixed(2),
          ...(cpu ? [r.cpuMs?.toFixed(1) ?? "", r.cpuRatio?.toFixed(2) ?? ""] : []),
        ],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...body.filter((b) => b[2] !== "" || i === 0).map((b) => String(b[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const b of body) console.log(b[2] === "" ? `${b[0].padEnd(widths[0])}  ${b[1]} (${b[4]})` : line(b));
}

/** dist/ older than src/ measures old code; say so (the bench never builds). */
function warnIfStale() {
  const newest = (dir) => {
    let latest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
    }
    return latest;
  };
  try {
    if (newest(join(root, "src")) > statSync(dist.pre).mtimeMs)
      console.error("bench: warning: src/ changed after dist/ was built; run `npm run build` to measure the current code.");
  } catch {
    // no src/ (an installed copy): nothing to compare
  }
}
