/**
 * SPEC §8 and §11: 32 PreToolUse hook processes (the bundled dist/ script,
 * as Claude Code runs it) started at once on one session lose no step and no
 * line: 32 whole log lines, 32 steps, each step number once.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NO_DECISION } from "../support/hook-output.js";
import { PLUGIN_ROOT, ROOT } from "../support/paths.js";
import { assistant, call, jsonl, meta, prompt, result, text } from "../transcript/helpers.js";

const HOOK = join(PLUGIN_ROOT, "dist", "hooks", "pre-tool-use.js");
const N = 32;
const WIDE = join(ROOT, "test", "fixtures", "e2e", "ufix", "skills", "wide");
const REPORT =
  'Action: verify\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Run every check."';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-parallel-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runHook(input: unknown, env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOOK], { env, cwd: scratch, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(JSON.stringify(input));
  });
}

/** A session whose last assistant message makes N Bash calls, one transcript line per block as Claude Code writes them. */
function session(name: string, gated: boolean) {
  const sessionId = `par-${name}-${process.pid}`;
  const ids = Array.from({ length: N }, (_, i) => `toolu_par_${name}_${i}`);
  const lines = [prompt("run all the checks")];
  if (gated) {
    lines.push(assistant("msg_skill", [call("toolu_skill", "Skill", { skill: "ufix:wide" })]));
    lines.push(result("toolu_skill", "Launching skill: ufix:wide"));
    // A gated skill with max_steps 40: the example's 10 would refuse the 11th call.
    lines.push(meta(`Base directory for this skill: ${WIDE}\n\n# Wide (fixture)`));
    lines.push(assistant("msg_calls", [text(REPORT)]));
  }
  for (const id of ids) lines.push(assistant("msg_calls", [call(id, "Bash", { command: `echo ${id}` })]));
  const transcript = join(scratch, `${sessionId}.jsonl`);
  writeFileSync(transcript, jsonl(lines));
  const dataDir = join(scratch, `data-${name}`);
  const env = { PATH: process.env.PATH ?? "", HOME: scratch, UTILITY_DATA_DIR: dataDir };
  const inputs = ids.map((id) => ({
    session_id: sessionId,
    transcript_path: transcript,
    cwd: scratch,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: `echo ${id}` },
    tool_use_id: id,
  }));
  return {
    sessionId,
    ids,
    env,
    inputs,
    log: join(dataDir, "sessions", `${sessionId}.jsonl`),
    state: join(dataDir, "state", `${sessionId}.json`),
    dataDir,
  };
}

describe.each([
  ["ungated", false],
  ["gated", true],
] as const)(`%s: ${N} hook processes at once`, (name, gated) => {
  it(`writes ${N} whole log lines and counts ${N} steps`, async () => {
    expect(existsSync(HOOK)).toBe(true);
    const s = session(name, gated);
    const outcomes = await Promise.all(s.inputs.map((input) => runHook(input, s.env)));
    for (const o of outcomes) {
      expect(o.code).toBe(0);
      expect(o.stderr).toBe("");
      // Never a refusal, and never an "allow" (a passed gated call may carry the utility: line).
      expect(o.stdout).toEqual(gated ? NO_DECISION : "");
    }
    const text = readFileSync(s.log, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(N);
    const records = lines.map((line) => JSON.parse(line));
    expect(new Set(records.map((r) => r.toolUseId))).toEqual(new Set(s.ids));
    expect(records.map((r) => r.step).sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    for (const r of records) {
      expect(r).toMatchObject({ event: "PreToolUse", session: s.sessionId, decision: gated ? "passed" : "observed", gated });
      if (gated) expect(r).toMatchObject({ gatedBy: join(WIDE, "SKILL.md"), maxSteps: 40, report: { action: "verify", utility: 0.28 } });
    }
    const state = JSON.parse(readFileSync(s.state, "utf8"));
    expect(state.main).toMatchObject({ step: N, refusals: 0 });
    expect(Object.keys(state.main.pending).sort()).toEqual([...s.ids].sort());
    expect(existsSync(join(s.dataDir, "errors.jsonl"))).toBe(false);
  }, 60_000);
});
