#!/usr/bin/env node
// What a user feels (SPEC §11): the time each tool call costs in the real,
// pinned Claude Code binary with the plugin against without it, as a ratio to
// a plugin whose only hook is a bare `node -e 0` PreToolUse.
//
//   node --import tsx scripts/bench/client.mjs [--rounds N] [--calls N] [--modes a,b,…] [--prefixes BYTES,…]
//                                              [--variant LABEL=DIR[:gated][:nolog]]… [--otlp silent,closed,slow] [--out FILE]
//
// One scripted session per mode: `calls` Read calls, one per turn, each turn
// carrying the same action report (so the model's text is alike in every
// mode). Modes run interleaved, round by round, in a shuffled order. The
// scripted model notes when each request arrives; a call's time is the gap
// between the request that answered with the Read and the next request
// (hooks, the tool itself, and Claude Code's own work between). Per-call
// overhead = median gap of the mode − median gap without any plugin.
//
// The table gives each ratio twice: over all calls (the budgets use it), and per round (its median, lowest and
// highest: how far one round can be from another). From 8 rounds up, each ratio and budget also says how far it
// could move: its value over the rounds drawn again with replacement, 1000 times (the middle 95% of those draws,
// and in how many it was met). That is a rough gauge of the spread within one run, not a probability; runs an
// hour apart on the same machine have moved further (docs/speed.md). --out keeps every call's time too
// (gapsByRound), so a run's figures can be checked or computed otherwise afterwards.
//
// Modes (--modes picks some, by the names below): no plugin; the yardstick,
// a bare `node -e 0` command hook; the floors of a warm hook: a bare mcp_tool
// hook to a minimal MCP server answering {} at once, the same answering once
// the call's own transcript line is written (what a gated call must wait
// for), and a bare http hook to that server; utility ungated and gated as
// shipped (hooks answered by its MCP server; the command entries it had
// before are gone, issue 32).
// --prefixes A,B: each mode at each size, interleaved: each session resumes one
// whose transcript already holds that many bytes (file-history snapshot lines,
// which nothing reads), so a 50 MB transcript is set against a 50 KB one. --variant adds a mode: another
// copy of the plugin (e.g. a different hooks/hooks.json), gated or not; `:nolog` for a plugin that is
// not utility (no log of its own to check).
// --otlp KINDS (issue 36): utility ungated and gated again with the live OTLP export on (the plugin's setting
// otlp_endpoint, written to the session's settings as a user does), pointing at a collector that is not there:
// `silent`, a loopback TCP listener that accepts connections and never answers; `closed`, a loopback port nothing
// listens on (connections refused); `slow`, an OTLP/HTTP listener that answers 200 after 5 s. The plain modes are the
// export off. Each such mode is also set against its export-off twin in the same rounds: the difference of their
// median calls, with the middle 95% of the same draws. Every session checks that the export ran (its progress file
// names the endpoint), that no call was refused, and that none of the plugin's answers reached PreToolUse's deadline.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, realpathSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BOOTSTRAP_SEED, median, overheadOf, quantile, redrawn, seededRandom, UNGATED_BUDGET } from "./stats.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const argv = process.argv.slice(2);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const options = (name) => argv.flatMap((a, i) => (a === name && argv[i + 1] ? [argv[i + 1]] : []));
const rounds = Number(option("--rounds") ?? (argv.includes("--quick") ? 2 : 4));
const calls = Number(option("--calls") ?? 16);
/** Transcript sizes to pad to before the measured session (--prefixes 50000,50000000: each mode at each, interleaved). */
const prefixes = (option("--prefixes") ?? option("--prefix") ?? "0").split(",").map(Number);
const sized = (bytes) => (bytes >= 1e6 ? `${bytes / 1e6} MB` : bytes >= 1e3 ? `${bytes / 1e3} KB` : `${bytes} B`);

const { runClaude, assertRunOk, makeScratchHome } = await import(join(root, "test", "e2e", "support", "claude.ts"));
const { PRE_TOOL_USE_DEADLINE_MS } = await import(join(root, "src", "engine", "defaults.ts"));
const { toolUse, text } = await import(join(root, "test", "e2e", "support", "scripted-model.ts"));

const log = (line) => process.stderr.write(`${line}\n`);
const work = realpathSync(mkdtempSync(join(tmpdir(), "utility-client-bench-")));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

/** A plugin folder with a manifest and a hooks.json: the bench's yardsticks and floors. */
function benchPlugin(name, hooks, manifest = {}) {
  const dir = join(work, `${name}-plugin`);
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  mkdirSync(join(dir, "hooks"), { recursive: true });
  writeFileSync(
    join(dir, ".claude-plugin", "plugin.json"),
    JSON.stringify({ name, version: "0.0.0", description: `bench: ${name}`, ...manifest }),
  );
  writeFileSync(join(dir, "hooks", "hooks.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [hooks] }] } }));
  return dir;
}

const BARE_SERVER = join(root, "scripts", "bench", "bare-server.mjs");
const MCP_INPUT = { transcript_path: "${transcript_path}", tool_use_id: "${tool_use_id}" };

/** A plugin whose only hook is `node -e 0` on every PreToolUse: the floor any command hook costs. */
const barePlugin = () => benchPlugin("bare", { type: "command", command: "node", args: ["-e", "0"], timeout: 10 });

/** A plugin whose only hook is an mcp_tool hook to a minimal server of its own (answering at once, or after the call's line). */
function bareMcpPlugin(name, serverArgs) {
  const server = { command: "node", args: [BARE_SERVER, ...serverArgs] };
  const hook = { type: "mcp_tool", server: `plugin:${name}:bare`, tool: "pre_tool_use", input: MCP_INPUT, timeout: 10, onFailure: "block" };
  return benchPlugin(name, hook, { mcpServers: { bare: server } });
}

/** A plugin whose only hook is an http hook to the same minimal server, which Claude Code starts as the plugin's MCP server. */
function bareHttpPlugin(port) {
  const hook = { type: "http", url: `http://127.0.0.1:${port}/hook`, timeout: 10, onFailure: "block" };
  return benchPlugin("barehttp", hook, { mcpServers: { bare: { command: "node", args: [BARE_SERVER, "--http", String(port)] } } });
}

/** A free port on 127.0.0.1 for the http floor. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** OTLP listeners (--otlp): what each kind of collector that is not there does, and what it saw. */
const OTLP_KINDS = ["silent", "closed", "slow"];
/** How long the `slow` listener takes to answer. */
const SLOW_ANSWER_MS = 5000;

/** A loopback TCP listener that accepts every connection, reads what comes, and never answers. */
async function silentListener() {
  const sockets = new Set();
  const seen = { connections: 0 };
  const server = createServer((socket) => {
    seen.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    socket.resume();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const stop = () => {
    for (const socket of sockets) socket.destroy();
    server.close();
  };
  return { url: `http://127.0.0.1:${server.address().port}`, seen, stop };
}

/** An OTLP/HTTP listener that reads each request and answers 200 (an empty body) SLOW_ANSWER_MS later. */
async function slowListener() {
  const seen = { requests: 0, answered: 0 };
  const timers = new Set();
  const server = createHttpServer((req, res) => {
    seen.requests++;
    req.resume();
    req.on("end", () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        seen.answered++;
        res.writeHead(200, { "content-type": "application/x-protobuf" });
        res.end();
      }, SLOW_ANSWER_MS);
      timers.add(timer);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const stop = () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  };
  return { url: `http://127.0.0.1:${server.address().port}`, seen, stop };
}

/** A loopback port nothing listens on: every connection is refused. */
async function closedPort() {
  return { url: `http://127.0.0.1:${await freePort()}`, seen: {}, stop: () => undefined };
}

const otlpKinds = (option("--otlp") ?? "")
  .split(",")
  .map((k) => k.trim())
  .filter(Boolean);
const wrongKinds = otlpKinds.filter((k) => !OTLP_KINDS.includes(k));
if (wrongKinds.length > 0) throw new Error(`--otlp: no kind named ${wrongKinds.join(", ")}; kinds: ${OTLP_KINDS.join(", ")}`);
const listeners = new Map();
for (const kind of otlpKinds)
  listeners.set(kind, await (kind === "silent" ? silentListener() : kind === "slow" ? slowListener() : closedPort()));

/** A scratch HOME whose settings set the plugin's options (plugin id `utility@inline` under --plugin-dir), as a user does. */
function withPluginOptions(home, pluginOptions) {
  const path = join(home, ".claude", "settings.json");
  const settings = JSON.parse(readFileSync(path, "utf8"));
  writeFileSync(path, JSON.stringify({ ...settings, pluginConfigs: { "utility@inline": { options: pluginOptions } } }));
  return home;
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

/** Where the waiting floor notes how long each call waited for its own line. */
const WAITS = join(work, "line-waits.jsonl");
const skills = gatedSkillPlugin();
const ALL_MODES = [
  { name: "no plugin", plugins: [], gated: false },
  { name: "bare node -e 0 PreToolUse", plugins: [barePlugin()], gated: false },
  { name: "bare mcp_tool PreToolUse", plugins: [bareMcpPlugin("baremcp", [])], gated: false },
  {
    name: "bare mcp_tool waiting for its line",
    plugins: [bareMcpPlugin("barewait", ["--wait-line", "--record", WAITS])],
    gated: false,
    waits: true,
  },
  { name: "bare http PreToolUse", plugins: [bareHttpPlugin(await freePort())], gated: false },
  { name: "utility ungated", plugins: [root], gated: false, checkLog: true },
  { name: "utility gated", plugins: [root, skills], gated: true, checkLog: true },
];
const picked = option("--modes")
  ?.split(",")
  .map((m) => m.trim());
const REQUIRED = ["no plugin", "bare node -e 0 PreToolUse"];
const chosen = ALL_MODES.filter((m) => !picked || REQUIRED.includes(m.name) || picked.includes(m.name));
const baseModes = [
  ...chosen,
  // The export on, to each listener, for the utility modes picked; each set against its export-off twin.
  ...otlpKinds.flatMap((kind) =>
    chosen
      .filter((m) => m.name === "utility ungated" || m.name === "utility gated")
      .map((m) => ({ ...m, name: `${m.name}, OTLP ${kind}`, against: m.name, otlp: kind })),
  ),
  ...options("--variant").map((spec) => {
    const [label, rest] = spec.split("=");
    const [dir, ...flags] = rest.split(":");
    const gated = flags.includes("gated");
    return { name: label, plugins: gated ? [dir, skills] : [dir], gated, checkLog: !flags.includes("nolog") };
  }),
];
/** Each mode at each transcript size; named "<mode> @<size>" when there is more than one size. */
const modes = prefixes.flatMap((prefix) =>
  baseModes.map((m) => ({ ...m, base: m.name, prefix, name: prefixes.length > 1 ? `${m.name} @${sized(prefix)}` : m.name })),
);
if (otlpKinds.length > 0 && !modes.some((m) => m.otlp))
  throw new Error("--otlp: no utility mode to run with the export on (pick utility ungated or utility gated in --modes)");
const unknown = picked?.filter((name) => !ALL_MODES.some((m) => m.name === name)) ?? [];
if (unknown.length > 0) throw new Error(`no mode named ${unknown.join(", ")}; modes: ${ALL_MODES.map((m) => m.name).join(", ")}`);

/** A line nothing reads (Claude Code's own file-history snapshots), about 2 KB, to make a transcript long. */
function snapshotLine(i) {
  const files = Object.fromEntries(
    Array.from({ length: 12 }, (_, k) => [
      `/work/project/src/module-${i % 97}/file-${k}.ts`,
      { backupFileName: `${i}-${k}@v1`, version: 1, backupTime: "2026-11-30T10:00:00.000Z" },
    ]),
  );
  return `${JSON.stringify({ type: "file-history-snapshot", messageId: `snap-${i}`, snapshot: { messageId: `snap-${i}`, trackedFileBackups: files, timestamp: "2026-11-30T10:00:00.000Z" }, isSnapshotUpdate: false })}\n`;
}

/** A finished session whose transcript is padded to `bytes`, for the measured session to resume. */
async function paddedSession(cwd, bytes) {
  const setup = await runClaude({ prompt: "Hello.", cwd, script: [[text("Hi.")]], whenExhausted: "error" });
  assertRunOk(setup);
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = snapshotLine(i);
    lines.push(line);
    size += line.length;
  }
  appendFileSync(setup.transcriptPath, lines.join(""));
  return { home: setup.home, sessionId: setup.sessionId };
}

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
  const padded = mode.prefix > 0 ? await paddedSession(cwd, mode.prefix) : undefined;
  const listener = mode.otlp ? listeners.get(mode.otlp) : undefined;
  // The export on: otlp_endpoint in the user's settings of this session's HOME (the padded session's, when resumed).
  const home = listener ? withPluginOptions(padded?.home ?? makeScratchHome([cwd]), { otlp_endpoint: listener.url }) : padded?.home;
  const run = await runClaude({
    prompt: "Read the files.",
    pluginDir: mode.plugins,
    script,
    cwd,
    allowedTools: ["Read", "Skill"],
    whenExhausted: "error",
    timeoutMs: 180_000,
    ...(home ? { home } : {}),
    ...(padded ? { extraArgs: ["--resume", padded.sessionId] } : {}),
  });
  try {
    const result = assertRunOk(run);
    if (result.permission_denials.length > 0)
      throw new Error(`${mode.name}: ${result.permission_denials.length} call(s) refused: ${JSON.stringify(result.permission_denials[0])}`);
    if (arrivals.length !== calls + 2) throw new Error(`${mode.name}: ${arrivals.length} model requests, expected ${calls + 2}`);
    const latencies = mode.checkLog ? checkLog(run, mode) : mode.waits ? lineWaits() : [];
    if (listener) checkExport(run, mode, listener);
    if (padded && !(run.transcriptPath && statSync(run.transcriptPath).size >= mode.prefix))
      throw new Error(`${mode.name}: the resumed session did not write to the padded transcript`);
    // Gap k: from the request answered with Read k (turn k) to the next one.
    const gaps = [];
    for (let k = 1; k <= calls; k++) gaps.push(Number(arrivals[k + 1] - arrivals[k]) / 1e6);
    return { gaps, sessionMs: run.durationMs, latencies };
  } finally {
    run.cleanup();
    if (home) rmSync(home, { recursive: true, force: true });
  }
}

/** The waits the waiting floor noted in this session's measured calls; the file is then cleared. */
function lineWaits() {
  const waits = readFileSync(WAITS, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  writeFileSync(WAITS, "");
  if (waits.some((w) => !w.found)) throw new Error("the waiting floor did not see a call's line within 3 s");
  return waits.slice(1).map((w) => w.waitedMs); // the first call is not measured
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
  // No answer held to PreToolUse's deadline (past it Claude Code would go on without the hook).
  const late = records.filter((r) => r.event === "PreToolUse" && !(r.latencyMs < PRE_TOOL_USE_DEADLINE_MS));
  if (late.length > 0) throw new Error(`${mode.name}: ${late.length} PreToolUse answer(s) took ${PRE_TOOL_USE_DEADLINE_MS} ms or more`);
  // The handler's own time per call, as it logs it (latencyMs): what of the overhead is the plugin's work.
  return reads.map((r) => r.latencyMs);
}

/** The export ran in this session, to the listener set: its progress file names the endpoint (src/otlp/progress.ts). */
function checkExport(run, mode, listener) {
  const file = join(run.home, ".claude", "plugins", "data", "utility-inline", "otlp", `${run.sessionId}.json`);
  let progress;
  try {
    progress = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new Error(`${mode.name}: the OTLP export did not run (no ${file})`);
  }
  const host = new URL(listener.url).host;
  if (progress.endpoint !== host) throw new Error(`${mode.name}: the OTLP export went to ${progress.endpoint}, not ${host}`);
  if (progress.sent > 0 && mode.otlp !== "slow")
    throw new Error(`${mode.name}: ${progress.sent} records sent to a listener that takes none`);
}

function shuffle(items) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const round1 = (x) => Math.round(x * 10) / 10;
const hundredths = (x) => Math.round(x * 100) / 100;

/** Each mode's figures over the calls of the rounds picked (a round may be picked more than once). */
function estimate(samples, picked) {
  const pooled = (name, key) => picked.flatMap((r) => samples.get(name)[key][r]);
  const find = (base, prefix) => modes.find((m) => m.base === base && m.prefix === prefix).name;
  const out = new Map();
  for (const m of modes) {
    const latencies = pooled(m.name, "roundLatencies");
    out.set(m.name, {
      base: m.base,
      prefix: m.prefix,
      ...overheadOf({
        none: pooled(find("no plugin", m.prefix), "roundGaps"),
        bare: pooled(find("bare node -e 0 PreToolUse", m.prefix), "roundGaps"),
        mode: pooled(m.name, "roundGaps"),
      }),
      handler: latencies.length > 0 ? median(latencies) : undefined,
    });
  }
  // A mode with the export on against its export-off twin of the same size, in the same rounds: the difference of
  // their median calls (ms), and of their ratios to the bare hook.
  for (const m of modes) {
    if (!m.against) continue;
    const e = out.get(m.name);
    const twin = out.get(find(m.against, m.prefix));
    e.vsMs = e.perCall - twin.perCall;
    e.vsRatio = e.ratio - twin.ratio;
  }
  return out;
}

/** SPEC §11's budgets from one estimate: what each is, its value and its limit. */
function budgetsOf(est) {
  const row = (base, prefix = prefixes[0]) => [...est.values()].find((e) => e.base === base && e.prefix === prefix);
  const budgets = [];
  const ungated = row("utility ungated");
  const gated = row("utility gated");
  const waiting = row("bare mcp_tool waiting for its line");
  if (ungated) budgets.push({ budget: `utility ungated ≤ ${UNGATED_BUDGET}× the bare hook`, value: ungated.ratio, limit: UNGATED_BUDGET });
  if (gated && ungated && waiting) {
    // SPEC §11: gated ≤ (ungated + the wait for the call's own line, measured in the same run) + 10%. The wait is
    // what the waiting floor measured itself, call by call (its median), not a difference of two noisy medians.
    const limit = ((ungated.overhead + waiting.handler) * 1.1) / ungated.bare;
    budgets.push({ budget: `utility gated ≤ (ungated + line wait ${round1(waiting.handler)} ms) × 1.1`, value: gated.ratio, limit });
  }
  // SPEC §11: a hook's cost does not grow with the transcript (the largest size against the smallest, per call).
  if (prefixes.length > 1)
    for (const base of ["utility ungated", "utility gated"]) {
      const small = row(base, Math.min(...prefixes));
      const large = row(base, Math.max(...prefixes));
      if (!small || !large) continue;
      budgets.push({
        budget: `${base}: ${sized(large.prefix)} transcript ≤ 1.2× ${sized(small.prefix)}`,
        value: large.overhead / small.overhead,
        limit: 1.2,
      });
    }
  return budgets;
}

/** Fewer rounds than this give no spread: too few distinct draws. */
const SPREAD_MIN_ROUNDS = 8;

/** Estimates over `times` draws of `rounds` rounds with replacement (seeded: the same run gives the same spread). */
function bootstrap(samples, rounds, times) {
  const random = seededRandom(BOOTSTRAP_SEED);
  return Array.from({ length: times }, () => estimate(samples, redrawn(rounds, random)));
}

export async function clientBench() {
  const loadBefore = loadavg()[0];
  log(
    `client bench: ${modes.length} modes × ${rounds} rounds, ${calls} Read calls per session, pinned claude; load ${loadBefore.toFixed(2)} on ${cpus().length} cores`,
  );
  const samples = new Map(modes.map((m) => [m.name, { roundGaps: [], roundLatencies: [], sessions: [] }]));
  for (let r = 0; r < rounds; r++) {
    for (const mode of shuffle(modes)) {
      const { gaps, sessionMs, latencies } = await session(mode, r);
      const s = samples.get(mode.name);
      s.roundGaps[r] = gaps;
      s.roundLatencies[r] = latencies;
      s.sessions.push(sessionMs);
      log(`  round ${r + 1}/${rounds} ${mode.name}: median call ${round1(median(gaps))} ms`);
    }
  }
  const all = Array.from({ length: rounds }, (_, r) => r);
  const point = estimate(samples, all);
  // How far each figure could move: the same figures over rounds drawn again with replacement (a bootstrap over
  // rounds, the modes of a round kept together), 1000 times. A rough gauge within this run, not a probability that a
  // budget holds (with few rounds the draws cannot spread as runs do): given from SPREAD_MIN_ROUNDS rounds up.
  const draws = rounds >= SPREAD_MIN_ROUNDS ? bootstrap(samples, rounds, 1000) : [];
  const ci95 = (values) => [hundredths(quantile(values, 0.025)), hundredths(quantile(values, 0.975))];
  const eachRound = all.map((r) => estimate(samples, [r]));
  const rows = modes.map((m) => {
    const s = samples.get(m.name);
    const e = point.get(m.name);
    // The same ratio within each round (its modes ran minutes apart at most): how much the figure moves from round to round.
    const perRound = eachRound.map((round) => round.get(m.name).ratio);
    return {
      mode: m.name,
      base: m.base,
      prefixBytes: m.prefix,
      calls: all.flatMap((r) => s.roundGaps[r]).length,
      medianCallMs: round1(e.perCall),
      overheadMs: round1(e.overhead),
      bareOverheadMs: round1(e.bare),
      ratioToBare: m.base === "no plugin" ? null : hundredths(e.ratio),
      ...(m.base === "no plugin" || draws.length === 0 ? {} : { ratioCi95: ci95(draws.map((d) => d.get(m.name).ratio)) }),
      ...(m.base === "no plugin"
        ? {}
        : {
            ratioPerRound: {
              median: hundredths(median(perRound)),
              min: hundredths(Math.min(...perRound)),
              max: hundredths(Math.max(...perRound)),
            },
          }),
      ...(m.against
        ? {
            against: m.against,
            overAgainstMs: round1(e.vsMs),
            overAgainstRatio: hundredths(e.vsRatio),
            ...(draws.length === 0
              ? {}
              : {
                  overAgainstMsCi95: ci95(draws.map((d) => d.get(m.name).vsMs)),
                  overAgainstRatioCi95: ci95(draws.map((d) => d.get(m.name).vsRatio)),
                }),
          }
        : {}),
      // The longest call of the mode: one held to a hook's deadline (8 s) would show here.
      maxCallMs: round1(Math.max(...all.flatMap((r) => s.roundGaps[r]))),
      medianSessionMs: Math.round(median(s.sessions)),
      ...(e.handler !== undefined ? { medianHandlerMs: round1(e.handler) } : {}),
      // Every call's time, round by round (ms, to 0.1): the figures above can be checked, or computed otherwise.
      gapsByRound: all.map((r) => s.roundGaps[r].map(round1)),
    };
  });
  // Met or not on the figures themselves; rounded only for the record.
  const budgets = budgetsOf(point).map((b) => ({ ...b, pass: b.value <= b.limit, value: hundredths(b.value), limit: hundredths(b.limit) }));
  const drawnBudgets = draws.map(budgetsOf);
  if (draws.length > 0)
    budgets.forEach((b, i) => {
      b.ci95 = ci95(drawnBudgets.map((d) => d[i].value));
      b.metInDraws = hundredths(drawnBudgets.filter((d) => d[i].value <= d[i].limit).length / drawnBudgets.length);
    });
  for (const listener of listeners.values()) listener.stop();
  return {
    date: new Date().toISOString(),
    rounds,
    ...(listeners.size > 0 ? { otlp: Object.fromEntries([...listeners].map(([kind, l]) => [kind, { endpoint: l.url, ...l.seen }])) } : {}),
    callsPerSession: calls,
    transcriptPrefixBytes: prefixes,
    loadAverage1m: { before: Math.round(loadBefore * 100) / 100, after: Math.round(loadavg()[0] * 100) / 100 },
    rows,
    budgets,
  };
}

export function printClient(result) {
  console.log(
    "\nclient (pinned Claude Code, scripted session of Read calls; overhead per call against no plugin; own ms: the plugin's handler time from its log, or the waiting floor's wait for the call's line):",
  );
  console.log(
    `${"mode".padEnd(36)}${"calls".padStart(6)}${"median call ms".padStart(16)}${"overhead ms".padStart(13)}${"× bare hook".padStart(13)}${"(95% of draws)".padStart(16)}${"own ms".padStart(9)}${"× per round (min–max)".padStart(24)}`,
  );
  for (const r of result.rows) {
    const spread = r.ratioPerRound
      ? `${r.ratioPerRound.median.toFixed(2)} (${r.ratioPerRound.min.toFixed(2)}–${r.ratioPerRound.max.toFixed(2)})`
      : "";
    console.log(
      `${r.mode.padEnd(36)}${String(r.calls).padStart(6)}${r.medianCallMs.toFixed(1).padStart(16)}${r.overheadMs.toFixed(1).padStart(13)}${(r.ratioToBare === null ? "" : r.ratioToBare.toFixed(2)).padStart(13)}${(r.ratioCi95 ? `${r.ratioCi95[0].toFixed(2)}–${r.ratioCi95[1].toFixed(2)}` : "").padStart(16)}${(r.medianHandlerMs === undefined ? "" : r.medianHandlerMs.toFixed(1)).padStart(9)}${spread.padStart(24)}`,
    );
  }
  for (const r of result.rows.filter((row) => row.against)) {
    const ms = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}`;
    const x = (v) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(2)}`;
    const ci = r.overAgainstMsCi95
      ? ` (95% of draws ${ms(r.overAgainstMsCi95[0])} to ${ms(r.overAgainstMsCi95[1])} ms, ${x(r.overAgainstRatioCi95[0])} to ${x(r.overAgainstRatioCi95[1])}×)`
      : "";
    console.log(
      `${r.mode} against ${r.against}: ${ms(r.overAgainstMs)} ms a call, ${x(r.overAgainstRatio)}× the bare hook${ci}; longest call ${r.maxCallMs.toFixed(1)} ms, session ${r.medianSessionMs} ms`,
    );
  }
  for (const b of result.budgets)
    console.log(
      `${b.pass ? "ok  " : "MISS"} ${b.budget}: ${b.value.toFixed(2)}× (limit ${b.limit.toFixed(2)}×${b.ci95 ? `; 95% of draws ${b.ci95[0].toFixed(2)}–${b.ci95[1].toFixed(2)}×, met in ${Math.round(b.metInDraws * 100)}%` : ""})`,
    );
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
