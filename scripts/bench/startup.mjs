#!/usr/bin/env node
// What a user pays once per session (SPEC §11, per session): in the real, pinned Claude Code binary, with the
// plugin against without it in the same run,
//   - the first-request delay: when the scripted model receives the session's first main request, counted
//     from the moment `claude -p` was spawned (runClaude's `spawnedAt`);
//   - the wall time of a one-call `claude -p` session (one Read, then the answer), spawn to exit.
// Budgets: the first request at most 60 ms later than with no plugin; the one-call session at most 200 ms longer.
//
//   node --import tsx scripts/bench/startup.mjs [--rounds N] [--variant LABEL=DIR]… [--out FILE]
//
// Modes, interleaved round by round in a shuffled order: no plugin; a plugin with one bare `node -e 0`
// PreToolUse command hook; the bare mcp_tool floor (a PreToolUse mcp_tool hook to a minimal MCP server of the
// plugin's own, scripts/bench/bare-server.mjs, which Claude Code starts with the session); utility as built
// (plugin/); and any --variant (another copy of a plugin folder). Medians, and each mode's excess over no plugin.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, seededRandom } from "./stats.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const argv = process.argv.slice(2);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const options = (name) => argv.flatMap((a, i) => (a === name && argv[i + 1] ? [argv[i + 1]] : []));
const rounds = Number(option("--rounds") ?? 7);

const { runClaude, assertRunOk } = await import(join(root, "test", "e2e", "support", "claude.ts"));
const { toolUse, text } = await import(join(root, "test", "e2e", "support", "scripted-model.ts"));

const log = (line) => process.stderr.write(`${line}\n`);
const work = realpathSync(mkdtempSync(join(tmpdir(), "utility-startup-bench-")));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

/** A plugin folder with a manifest and one PreToolUse hook (as scripts/bench/client.mjs makes its yardsticks). */
function benchPlugin(name, hook, manifest = {}) {
  const dir = join(work, `${name}-plugin`);
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  mkdirSync(join(dir, "hooks"), { recursive: true });
  writeFileSync(
    join(dir, ".claude-plugin", "plugin.json"),
    JSON.stringify({ name, version: "0.0.0", description: `bench: ${name}`, ...manifest }),
  );
  writeFileSync(join(dir, "hooks", "hooks.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [hook] }] } }));
  return dir;
}

const BARE_SERVER = join(root, "scripts", "bench", "bare-server.mjs");
const MODES = [
  { name: "no plugin", plugins: [] },
  { name: "bare node -e 0 hook", plugins: [benchPlugin("bare", { type: "command", command: "node", args: ["-e", "0"], timeout: 10 })] },
  {
    name: "bare mcp_tool floor",
    plugins: [
      benchPlugin(
        "baremcp",
        {
          type: "mcp_tool",
          server: "plugin:baremcp:bare",
          tool: "pre_tool_use",
          input: { tool_use_id: "${tool_use_id}" },
          timeout: 10,
          onFailure: "block",
        },
        { mcpServers: { bare: { command: "node", args: [BARE_SERVER] } } },
      ),
    ],
  },
  { name: "utility", plugins: [root] },
  ...options("--variant").map((spec) => {
    const [label, dir] = spec.split("=");
    return { name: label, plugins: [dir] };
  }),
];

/** One `claude -p` session of one Read call: the first request's delay and the session's wall time. */
async function session(mode, round) {
  const cwd = join(work, `cwd-${round}-${MODES.indexOf(mode)}`);
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, "a.txt"), "a\n");
  let first;
  const script = (_req, turn) => {
    first ??= process.hrtime.bigint();
    return turn === 0 ? [toolUse("Read", { file_path: join(cwd, "a.txt") }, `toolu_startup_${round}`)] : [text("Done.")];
  };
  const run = await runClaude({ prompt: "Read a.txt.", pluginDir: mode.plugins, script, cwd, allowedTools: ["Read"], timeoutMs: 60_000 });
  try {
    assertRunOk(run);
    if (first === undefined) throw new Error(`${mode.name}: no request reached the model`);
    return { first: Number(first - run.spawnedAt) / 1e6, wall: run.durationMs };
  } finally {
    run.cleanup?.();
  }
}

const random = seededRandom(0x51a87);
const results = Object.fromEntries(MODES.map((m) => [m.name, { first: [], wall: [] }]));
const loads = [loadavg()[0]];
log(`startup bench: ${rounds} rounds of ${MODES.length} modes, load ${loads[0].toFixed(2)}`);
for (let round = 0; round < rounds; round++) {
  const order = MODES.map((m) => ({ m, k: random() }))
    .sort((a, b) => a.k - b.k)
    .map(({ m }) => m);
  for (const mode of order) {
    const r = await session(mode, round);
    results[mode.name].first.push(r.first);
    results[mode.name].wall.push(r.wall);
  }
  loads.push(loadavg()[0]);
  log(`round ${round + 1}/${rounds} done, load ${loads.at(-1).toFixed(2)}`);
}

const none = { first: median(results["no plugin"].first), wall: median(results["no plugin"].wall) };
const FIRST_BUDGET = 60;
const WALL_BUDGET = 200;
const rows = MODES.map((m) => {
  const first = median(results[m.name].first);
  const wall = median(results[m.name].wall);
  return { mode: m.name, first, wall, firstOver: first - none.first, wallOver: wall - none.wall };
});
const ms = (x) => `${x >= 0 && x !== 0 ? "+" : ""}${x.toFixed(0)} ms`;
console.log(`\nStart-up, ${rounds} rounds interleaved, load ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} (medians)\n`);
console.log("| mode | first request | over no plugin | one-call -p | over no plugin |");
console.log("|---|---|---|---|---|");
for (const r of rows)
  console.log(
    `| ${r.mode} | ${r.first.toFixed(0)} ms | ${r.mode === "no plugin" ? "–" : ms(r.firstOver)} | ${r.wall.toFixed(0)} ms | ${r.mode === "no plugin" ? "–" : ms(r.wallOver)} |`,
  );
const utility = rows.find((r) => r.mode === "utility");
console.log(
  `\nutility: first request ${ms(utility.firstOver)} (budget +${FIRST_BUDGET} ms: ${utility.firstOver <= FIRST_BUDGET ? "met" : "missed"}); ` +
    `one-call -p ${ms(utility.wallOver)} (budget +${WALL_BUDGET} ms: ${utility.wallOver <= WALL_BUDGET ? "met" : "missed"})`,
);
const out = option("--out");
if (out) writeFileSync(out, `${JSON.stringify({ rounds, loads, results, rows }, null, 2)}\n`);
