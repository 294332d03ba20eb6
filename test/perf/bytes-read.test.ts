// SPEC §11: a hook's time must not grow with the transcript. Not timed: this
// counts the bytes the PreToolUse hook process reads (the kernel's count,
// /proc/self/io, through ./read-meter.cjs: no counter in the product) on a
// ~50 MB transcript and on a ~50 KB one, in the steady state of a long task
// (the hooks saw every earlier call), and checks the difference is a small
// part of the transcript.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTranscript } from "../../scripts/bench/transcript.mjs";
import { EXAMPLE_SKILL, PLUGIN_ROOT } from "../support/paths.js";

const SIZE = 50 * 1000 * 1000;
const SMALL = 50 * 1000;
const METER = join(import.meta.dirname, "read-meter.mjs");
const ENTRY = join(PLUGIN_ROOT, "dist", "hooks", "pre-tool-use.js");

/** Runs the bundled PreToolUse entry on `input` as a process: its answer, and the bytes it read from files. */
function hookProcess(input: object, env: Record<string, string>): { stdout: string; read: number } {
  const run = spawnSync(process.execPath, [METER, ENTRY], {
    input: JSON.stringify(input),
    env: { ...env, PATH: process.env.PATH ?? "" },
    encoding: "utf8",
  });
  const read = /READ-METER rchar=(\d+)/.exec(run.stderr)?.[1];
  if (read === undefined) throw new Error(`no read count: ${run.stderr}`);
  return { stdout: run.stdout, read: Number(read) };
}
const SESSION = "perf-session";
const work = mkdtempSync(join(tmpdir(), "utility-perf-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Measured {
  transcriptBytes: number;
  appendedBytes: number;
  /** Bytes the measured hook process read from files: the transcript's tail, the state, and its own code. */
  read: number;
  decision: string | undefined;
  output: unknown;
}

/**
 * A session whose hooks have seen every call up to the last one; then Claude
 * Code writes a message with a report and a call, and PreToolUse decides it.
 * Returns what that one decision read of the transcript.
 */
async function lastCallOf(name: string, size: number, skillFolder?: string): Promise<Measured> {
  const dir = join(work, name);
  const transcript = join(dir, `${SESSION}.jsonl`);
  mkdirSync(dir, { recursive: true });
  const written = writeTranscript(transcript, size, { sessionId: SESSION, ...(skillFolder ? { skillFolder } : {}) });
  const env = { UTILITY_DATA_DIR: join(dir, "data"), HOME: dir };
  const base = { session_id: SESSION, transcript_path: transcript, cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash" };
  // The earlier call, decided by the hook (the first look at a session may read back to its task's start);
  // its result line is among what is appended next, read by the measured call (no hook runs after a call).
  const prev = { ...base, tool_input: { command: "git status --short", description: "state of the tree" }, tool_use_id: written.prevId };
  hookProcess(prev, env);
  const appendedBytes = written.finish(["toolu_perf_call"]);

  const measured = hookProcess(
    { ...base, tool_input: { command: "npm test -- --run parser-0", description: "run the failing test" }, tool_use_id: "toolu_perf_call" },
    env,
  );
  const result = { output: measured.stdout.trim() === "" ? undefined : JSON.parse(measured.stdout) };
  const read = measured.read;

  const records = readFileSync(join(dir, "data", "sessions", `${SESSION}.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { event?: string; toolUseId?: string; decision?: string });
  const record = records.find((r) => r.toolUseId === "toolu_perf_call" && r.event === "PreToolUse");
  // The measured call learned the earlier one's result from the appended lines.
  expect(records.find((r) => r.event === "Outcome" && r.toolUseId === written.prevId)).toMatchObject({ outcome: { result: "ran" } });
  return { transcriptBytes: statSync(transcript).size, appendedBytes, read, decision: record?.decision, output: result.output };
}

describe.skipIf(!existsSync("/proc/self/io"))("the PreToolUse hot path on a 50 MB transcript", () => {
  let gated: Measured;
  let ungated: Measured;
  let gatedSmall: Measured;
  let ungatedSmall: Measured;

  beforeAll(async () => {
    gated = await lastCallOf("gated", SIZE, EXAMPLE_SKILL);
    ungated = await lastCallOf("ungated", SIZE);
    gatedSmall = await lastCallOf("gated-small", SMALL, EXAMPLE_SKILL);
    ungatedSmall = await lastCallOf("ungated-small", SMALL);
  }, 180_000);

  it("is measured on what it claims: a big transcript, a gated call that passes, an ungated one observed", () => {
    expect(gated.transcriptBytes).toBeGreaterThan(SIZE * 0.99);
    expect(ungated.transcriptBytes).toBeGreaterThan(SIZE * 0.99);
    expect(gated.decision).toBe("passed");
    // A passed gated call never decides; it only tells the model its step, tier and next StepCost.
    expect(gated.output).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        additionalContext: expect.stringMatching(/^utility: \d+ of 10 steps taken · opus · StepCost /),
      },
    });
    expect(ungated.decision).toBe("observed");
  });

  it("gated: reads the report from the end of the transcript; 50 MB costs under 1 MB more than 50 KB", () => {
    expect(gated.read).toBeGreaterThan(0);
    expect(gated.read - gatedSmall.read).toBeLessThan(1024 * 1024);
    expect((gated.read - gatedSmall.read) / gated.transcriptBytes).toBeLessThan(0.02);
  });

  it("ungated: reads only the lines written since the previous call; 50 MB costs no more than 50 KB beyond them", () => {
    // What the state does not know yet (skill activations, prompts, compactions) is only what was appended.
    expect(ungated.read - ungatedSmall.read).toBeLessThanOrEqual(ungated.appendedBytes + 16 * 1024);
    expect(ungated.read - ungatedSmall.read).toBeLessThan(64 * 1024);
  });
});
