// How the report parser's time grows with adversarial text (SPEC §6: linear
// in its input), and whether PreToolUse, a real process, decides within its
// deadline on the worst case. A benchmark, not a test (the hostile-model tests
// in test/hardening/hostile/ hold the promises): it prints milliseconds per
// class and size, and the growth from 100 KB to 1 MB, which is about 10× when
// the time is linear (100× if it were quadratic).
//
//   node scripts/bench/parser-scaling.mjs [--runs N]     (alone; bench.mjs runs it too)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "./stats.mjs";

const SIGNALS = "Utility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: x";

/** One generator per pattern class that once backtracked; `n` is the length of the repeated run. */
export const CLASSES = {
  "Action value, trailing spaces": (n) => `Action: a${" ".repeat(n)}x\n${SIGNALS}`,
  "Action value, trailing stars": (n) => `Action: a${"*".repeat(n)}x\n${SIGNALS}`,
  "label line, no colon": (n) => `Action${" ".repeat(n)}x`,
  "Utility value, spaces": (n) => `Action: tool_call\nUtility: 1${" ".repeat(n)}x\nRationale: x`,
  "Breakdown, one long name": (n) => `Action: tool_call\nUtility: 0.28\nBreakdown: ${"a".repeat(n)}\nRationale: x`,
  "Breakdown, spaces between names": (n) => `Action: tool_call\nUtility: 0.28\nBreakdown: a${" ".repeat(n)}x\nRationale: x`,
  "Candidates name, underscores": (n) => `Candidates:\n- a${"_".repeat(n)}:\nAction: tool_call\n${SIGNALS}`,
  "Candidates row, U+2029": (n) => `Candidates:\n- a: x${"=".repeat(n)}\u2029y\nAction: tool_call\n${SIGNALS}`,
  "many report lines": (n) => "Action: x\n".repeat(Math.ceil(n / 10)),
};

export const SIZES = [1_000, 100_000, 1_000_000];

const round = (v, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

/** The parser and the gate's constants, bundled from src/ into `work` (dist/ has them only inside the hooks). */
async function loadParser(root, work) {
  const { build } = await import("esbuild");
  const entry = join(work, "parser-entry.ts");
  writeFileSync(
    entry,
    `export { parseLastReport } from ${JSON.stringify(join(root, "src/engine/report/parse.ts"))};\nexport { MAX_REPORT_TEXT_CHARS, PRE_TOOL_USE_DEADLINE_MS } from ${JSON.stringify(join(root, "src/engine/defaults.ts"))};\n`,
  );
  const out = join(work, "parser.mjs");
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: out,
    logLevel: "warning",
    absWorkingDir: root,
  });
  return import(pathToFileURL(out).href);
}

function timeParse(parse, text, runs) {
  parse(text); // warm-up, twice: the first runs compile the scanners
  parse(text);
  return median(
    Array.from({ length: runs }, () => {
      const started = process.hrtime.bigint();
      parse(text);
      return Number(process.hrtime.bigint() - started) / 1e6;
    }),
  );
}

/** A gated session whose call is preceded by `before`; runs the bundled PreToolUse once and times the process. */
function hookOnce(preHook, work, name, before) {
  const dir = join(work, `hook-${name}`);
  const skill = join(dir, "skills", "gated");
  mkdirSync(skill, { recursive: true });
  writeFileSync(join(skill, "SKILL.md"), "---\nname: gated\ndescription: bench\nutility_gated: true\n---\nx\n");
  const transcript = join(dir, "t.jsonl");
  const lines = [
    { type: "user", uuid: "u1", message: { role: "user", content: "fix it" } },
    {
      type: "user",
      uuid: "u2",
      isMeta: true,
      message: { role: "user", content: [{ type: "text", text: `Base directory for this skill: ${skill}\n\nbody` }] },
    },
    { type: "assistant", uuid: "a1", message: { id: "m1", role: "assistant", content: [{ type: "text", text: before }] } },
    {
      type: "assistant",
      uuid: "a2",
      message: { id: "m1", role: "assistant", content: [{ type: "tool_use", id: "toolu_b1", name: "Bash", input: { command: "true" } }] },
    },
  ];
  writeFileSync(transcript, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  const input = {
    session_id: `bench-${name}`,
    transcript_path: transcript,
    cwd: dir,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "true" },
    tool_use_id: "toolu_b1",
  };
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [preHook], {
    input: JSON.stringify(input),
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: dir, UTILITY_DATA_DIR: join(dir, "data") },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const decision = r.stdout ? (JSON.parse(r.stdout).hookSpecificOutput?.permissionDecision ?? "none") : "none";
  return { ms: round(ms, 1), decision, stderr: r.stderr.trim().split("\n")[0] ?? "" };
}

/** Parser time per class and size, and the hook on the worst class (just under the size limit, and at 1 MB). */
export async function parserScaling({ root, work, preHook, runs = 3 }) {
  const { parseLastReport, MAX_REPORT_TEXT_CHARS, PRE_TOOL_USE_DEADLINE_MS } = await loadParser(root, work);
  const rows = Object.entries(CLASSES).map(([name, make]) => {
    const ms = SIZES.map((size) => timeParse(parseLastReport, make(size), runs));
    return { class: name, ms: ms.map((v) => round(v, 2)), growth100KbTo1Mb: round(ms[2] / ms[1], 1), msPerMb: round(ms[2], 1) };
  });
  const worst = rows.reduce((a, b) => (b.msPerMb > a.msPerMb ? b : a));
  const make = CLASSES[worst.class];
  const underLimit = make(MAX_REPORT_TEXT_CHARS - 200);
  const hook = {
    class: worst.class,
    deadlineMs: PRE_TOOL_USE_DEADLINE_MS,
    underLimit: { chars: underLimit.length, ...hookOnce(preHook, work, "under", underLimit) },
    oneMb: { chars: make(1_000_000).length, ...hookOnce(preHook, work, "1mb", make(1_000_000)) },
  };
  return { sizes: SIZES, rows, hook, limitChars: MAX_REPORT_TEXT_CHARS };
}

export function printParserScaling(result) {
  const head = `  ${"class".padEnd(34)}${result.sizes.map((s) => `${s >= 1e6 ? `${s / 1e6} MB` : `${s / 1e3} KB`}`.padStart(11)).join("")}   100 KB→1 MB`;
  console.log(`\nreport parser on adversarial text (median ms; linear time grows about 10× from 100 KB to 1 MB):\n${head}`);
  for (const r of result.rows)
    console.log(
      `  ${r.class.padEnd(34)}${r.ms.map((v) => `${v.toFixed(2)}`.padStart(11)).join("")}   ${`${r.growth100KbTo1Mb}×`.padStart(8)}`,
    );
  const { hook } = result;
  for (const [label, h] of [
    ["just under the size limit", hook.underLimit],
    ["1 MB (over the limit)", hook.oneMb],
  ]) {
    console.log(
      `  PreToolUse process, gated, worst class (${hook.class}), ${label}, ${h.chars} chars: ${h.ms} ms, decision ${h.decision} (deadline ${hook.deadlineMs} ms)${h.stderr ? `; stderr: ${h.stderr}` : ""}`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const work = mkdtempSync(join(tmpdir(), "utility-parser-bench-"));
  const i = process.argv.indexOf("--runs");
  try {
    const result = await parserScaling({
      root,
      work,
      preHook: join(root, "plugin", "dist", "hooks", "pre-tool-use.js"),
      runs: i > 0 ? Number(process.argv[i + 1]) : 5,
    });
    printParserScaling(result);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
