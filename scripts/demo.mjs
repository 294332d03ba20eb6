#!/usr/bin/env node
// `npm run demo`: see the gate work. Runs a short scripted session in the
// real, pinned Claude Code binary with this plugin loaded (--plugin-dir) and
// the gated example skill (examples/skills/gated-example, installed as a
// project skill of the demo's folder) active, offline: the "model" is a scripted stand-in
// on 127.0.0.1 (test/e2e/support), so no API key and no network are needed.
// Prints what the model did, what the gate refused and why, the final
// answer, and the step log the hooks wrote. The step log stays on disk, and
// the demo ends with the one command that opens its HTML report.
//
// The harness is TypeScript; tsx (a development tool, installed by
// `npm run setup`) loads it. The hooks themselves run as bundled dist/ code.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openHint } from "./lib/first-run.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
let register;
try {
  ({ register } = await import("tsx/esm/api"));
} catch {
  console.error("utility demo: the development tools are missing; run `npm run setup` first (or `npm run demo`, which does).");
  process.exit(1);
}
register();
const { runClaude, readJsonl } = await import(join(root, "test", "e2e", "support", "claude.ts"));
const { text, toolUse } = await import(join(root, "test", "e2e", "support", "scripted-model.ts"));

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const bold = paint("1");
const dim = paint("2");
const red = paint("31");
const green = paint("32");

// ---- A tiny project with a failing test ----
const project = realpathSync(mkdtempSync(join(tmpdir(), "utility-demo-")));
writeFileSync(join(project, "parse.mjs"), 'export const parse = (s) => s.split(",").map(Number).slice(1);\n');
writeFileSync(
  join(project, "test_parse.mjs"),
  'import { deepStrictEqual } from "node:assert";\nimport { parse } from "./parse.mjs";\n\ndeepStrictEqual(parse("1,2,3"), [1, 2, 3]);\nconsole.log("test_parse passed");\n',
);

// The gated example, as a skill author would install it: a project skill.
cpSync(join(root, "examples", "skills", "gated-example"), join(project, ".claude", "skills", "gated-example"), { recursive: true });

const report = (action, utility, breakdown, rationale) =>
  `Action: ${action}\nUtility: ${utility}\nBreakdown: ${breakdown}\nRationale: "${rationale}"`;
const runTest = () => toolUse("Bash", { command: "node test_parse.mjs", description: "Run the failing test" });
const readFile = (name) => toolUse("Read", { file_path: join(project, name) });
const FIRST_READ = "Gain=0.8 StepCost=0.116 Uncertainty=0.5 Redundancy=0.0";
const RUN = "Gain=0.8 StepCost=0.187 Uncertainty=0.3 Redundancy=0.0";

const script = [
  [text("This asks why a test fails: the gated skill fits."), toolUse("Skill", { skill: "gated-example" })],
  [text("Let me just run it."), runTest()],
  [text(report("retrieve", "0.43", FIRST_READ, "The test's source is the first missing piece.")), readFile("test_parse.mjs")],
  [text(report("retrieve", "0.43", FIRST_READ, "Read it once more to be sure.")), readFile("test_parse.mjs")],
  [text(report("verify", "0.40", RUN, "Run the test to see the failing assertion.")), runTest()],
  [text(report("verify", "0.46", RUN, "Run the test to see the failing assertion.")), runTest()],
  [
    text(
      report("retrieve", "0.49", "Gain=0.9 StepCost=0.258 Uncertainty=0.3 Redundancy=0.0", "parse.mjs is what the assertion exercises."),
    ),
    readFile("parse.mjs"),
  ],
  [
    text(
      `${report("respond", "0.73", "Gain=0.9 StepCost=0.116 Uncertainty=0.1 Redundancy=0.0", "The cause is established: answer now.")}\n\n` +
        'test_parse fails because parse() drops the first field: `.slice(1)` in parse.mjs line 1 turns "1,2,3" into [2, 3], and the ' +
        "assertion in test_parse.mjs line 4 expects [1, 2, 3] (the run shows the AssertionError). Fix: remove `.slice(1)`.",
    ),
  ],
];

console.log(bold("utility demo") + dim(" — a scripted session in the real Claude Code (offline, no API key)"));
console.log(dim(`project: ${project}   prompt: "Why does test_parse fail?"\n`));

const run = await runClaude({
  prompt: "Why does test_parse fail?",
  pluginDir: join(root, "plugin"),
  cwd: project,
  allowedTools: ["Bash", "Read"],
  script,
  whenExhausted: "error",
});
const failed = run.exitCode !== 0 || !run.result || run.result.is_error || run.model.errors.length > 0;
if (failed) {
  console.error(red(`The session did not finish cleanly (exit ${run.exitCode}${run.timedOut ? ", timed out" : ""}).`));
  console.error(run.stderr.slice(-2000) || run.stdout.slice(-2000));
  for (const e of run.model.errors) console.error(e.message);
  run.cleanup();
  rmSync(project, { recursive: true, force: true });
  process.exit(1);
}

const log = readJsonl(join(run.home, ".claude", "plugins", "data", "utility-inline", "sessions", `${run.sessionId}.jsonl`));
const byId = new Map(log.filter((r) => r.event === "PreToolUse").map((r) => [r.toolUseId, r]));
/** What the model was sent back for a call. */
const resultOf = (id) => {
  for (const req of run.model.mainRequests()) {
    const messages = req.body?.messages ?? [];
    for (const m of messages) {
      if (m.role !== "user" || !Array.isArray(m.content)) continue;
      const block = m.content.find((b) => b.type === "tool_result" && b.tool_use_id === id);
      if (block) return typeof block.content === "string" ? block.content : (block.content ?? []).map((b) => b.text ?? "").join("\n");
    }
  }
  return "";
};
const one = (s, n) => {
  const flat = String(s).replace(/\s+/g, " ").trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};
/** The telling line of a tool's output: an error's message, else the first line. */
const gist = (output) => {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => /AssertionError|Error:/.test(l)) ?? lines[0] ?? "";
};
const describeCall = (b) => {
  const input = b.input ?? {};
  if (b.name === "Bash") return `Bash ${input.command}`;
  if (b.name === "Read") return `Read ${String(input.file_path).replace(`${project}/`, "")}`;
  if (b.name === "Skill") return `Skill ${input.skill}`;
  return b.name;
};

// ---- What the model did ----
console.log(bold("What the model did"));
const refusals = [];
let final = "";
run.model.mainRequests().forEach((req, i) => {
  const blocks = req.reply ?? [];
  const words = blocks
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("\n");
  const match = /Action:\s*(\w+)[\s\S]*?Utility:\s*(-?[\d.]+)/.exec(words);
  const decided = match ? `${match[1]} U=${match[2]}` : "no report";
  const calls = blocks.filter((b) => b.type === "tool_use");
  if (calls.length === 0) {
    final = words.replace(/^[\s\S]*?Rationale:[^\n]*\n+/, "");
    console.log(`  ${i + 1}. ${decided.padEnd(17)} ${"(no call)".padEnd(30)} ${green("final answer")}`);
    return;
  }
  for (const b of calls) {
    const rec = byId.get(b.id);
    let outcome;
    if (b.name === "Skill") outcome = dim("neutral: activates the gated skill");
    else if (rec?.decision === "refused") {
      outcome = red(`REFUSED (${rec.rule})`);
      refusals.push({ turn: i + 1, call: describeCall(b), rule: rec.rule, said: resultOf(b.id) });
    } else outcome = green(`ran, step ${rec?.step}`) + dim(` → ${one(gist(resultOf(b.id)), 44)}`);
    console.log(`  ${i + 1}. ${decided.padEnd(17)} ${one(describeCall(b), 30).padEnd(30)} ${outcome}`);
  }
});

// ---- What the gate refused ----
console.log(`\n${bold("What the gate refused, and what the model was told")}`);
for (const r of refusals) {
  console.log(`  turn ${r.turn}, ${r.call} — ${r.rule}`);
  for (const line of r.said.split("\n")) console.log(dim(`    ${line}`));
}

console.log(`\n${bold("Final answer")}`);
console.log(`  ${final.trim()}`);

// ---- The step log ----
console.log(`\n${bold("Step log")} ${dim(`(${log.length} records; the file is kept, see below)`)}`);
const rows = log.map((r) => [
  r.event,
  r.tool ?? "",
  r.decision,
  r.rule ?? "",
  `${r.step}/${r.maxSteps}`,
  r.report ? r.report.action : "",
  r.report ? r.report.utility.toFixed(2) : "",
  r.gated ? "yes" : "no",
  r.repeat ? `of step ${r.repeat.ofStep}` : "",
  `${Math.round(r.latencyMs)}`,
]);
const head = ["event", "tool", "decision", "rule", "step", "action", "U", "gated", "repeat", "ms"];
const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
const line = (cells) => `  ${cells.map((cell, c) => (c === 6 || c === 9 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join("  ")}`;
console.log(dim(line(head)));
for (const row of rows) console.log(row[2] === "refused" || row[2] === "blocked" ? red(line(row)) : line(row));

const steps = log.filter((r) => r.event === "PreToolUse" && r.decision !== "refused").length;
console.log(
  dim(
    `\n${steps} steps, ${refusals.length} refusals; claude ran ${run.durationMs} ms. Gated by examples/skills/gated-example/SKILL.md (utility_gated: true).`,
  ),
);

// ---- Keep the step log, write its HTML report, say how to open it ----
const kept = join(root, ".tmp", "demo");
mkdirSync(kept, { recursive: true });
const keptLog = join(kept, `${run.sessionId}.jsonl`);
copyFileSync(join(run.home, ".claude", "plugins", "data", "utility-inline", "sessions", `${run.sessionId}.jsonl`), keptLog);
const html = join(kept, "report.html");
const { execFileSync } = await import("node:child_process");
execFileSync(process.execPath, [join(root, "plugin", "dist", "cli.js"), "report", keptLog, "--html", html], { stdio: "ignore" });
run.cleanup();
rmSync(project, { recursive: true, force: true });

console.log(`\n${bold("Step log")} kept in ${keptLog}`);
console.log(`${bold("HTML report")}: ${openHint(html, process.platform, process.env)}`);
