// SPEC §11: a hook's time must not grow with the transcript. Not timed: this
// counts the transcript bytes the PreToolUse handler reads on a ~50 MB
// transcript, in the steady state of a long task (the hooks saw every earlier
// call), and checks they are a small part of it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTranscript } from "../../scripts/bench/transcript.mjs";
import { processContext } from "../../src/hooks/context.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { resetTranscriptReadStats, transcriptReadStats } from "../../src/transcript/source.js";
import { EXAMPLE_SKILL } from "../support/paths.js";

const SIZE = 50 * 1000 * 1000;
const SESSION = "perf-session";
const work = mkdtempSync(join(tmpdir(), "utility-perf-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Measured {
  transcriptBytes: number;
  appendedBytes: number;
  read: { bytes: number; opens: number };
  decision: string | undefined;
  output: unknown;
}

/**
 * A session whose hooks have seen every call up to the last one; then Claude
 * Code writes a message with a report and a call, and PreToolUse decides it.
 * Returns what that one decision read of the transcript.
 */
async function lastCallOf(name: string, skillFolder?: string): Promise<Measured> {
  const dir = join(work, name);
  const transcript = join(dir, `${SESSION}.jsonl`);
  mkdirSync(dir, { recursive: true });
  const written = writeTranscript(transcript, SIZE, { sessionId: SESSION, ...(skillFolder ? { skillFolder } : {}) });
  const ctx = processContext({ UTILITY_DATA_DIR: join(dir, "data") });
  const base = { session_id: SESSION, transcript_path: transcript, cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash" };
  // The earlier call, decided by the hook (the first look at a session may read back to its task's start);
  // its result line is among what is appended next, read by the measured call (no hook runs after a call).
  const prev = { ...base, tool_input: { command: "git status --short", description: "state of the tree" }, tool_use_id: written.prevId };
  await preToolUse(prev, ctx);
  const appendedBytes = written.finish(["toolu_perf_call"]);

  resetTranscriptReadStats();
  const result = await preToolUse(
    { ...base, tool_input: { command: "npm test -- --run parser-0", description: "run the failing test" }, tool_use_id: "toolu_perf_call" },
    ctx,
  );
  const read = transcriptReadStats();

  const records = readFileSync(join(dir, "data", "sessions", `${SESSION}.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { event?: string; toolUseId?: string; decision?: string });
  const record = records.find((r) => r.toolUseId === "toolu_perf_call" && r.event === "PreToolUse");
  // The measured call learned the earlier one's result from the appended lines.
  expect(records.find((r) => r.event === "Outcome" && r.toolUseId === written.prevId)).toMatchObject({ outcome: { result: "ran" } });
  return { transcriptBytes: statSync(transcript).size, appendedBytes, read, decision: record?.decision, output: result.output };
}

describe("the PreToolUse hot path on a 50 MB transcript", () => {
  let gated: Measured;
  let ungated: Measured;

  beforeAll(async () => {
    gated = await lastCallOf("gated", EXAMPLE_SKILL);
    ungated = await lastCallOf("ungated");
  }, 120_000);

  it("is measured on what it claims: a big transcript, a gated call that passes, an ungated one observed", () => {
    expect(gated.transcriptBytes).toBeGreaterThan(SIZE * 0.99);
    expect(ungated.transcriptBytes).toBeGreaterThan(SIZE * 0.99);
    expect(gated.decision).toBe("passed");
    // A passed gated call never decides; it only tells the model its step, tier and next StepCost.
    expect(gated.output).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        additionalContext: expect.stringMatching(/^utility: step \d+\/10 · opus · StepCost /),
      },
    });
    expect(ungated.decision).toBe("observed");
  });

  it("gated: reads the report from the end of the transcript, under 1 MB of 50 MB", () => {
    expect(gated.read.bytes).toBeGreaterThan(0);
    expect(gated.read.bytes).toBeLessThan(1024 * 1024);
    expect(gated.read.bytes / gated.transcriptBytes).toBeLessThan(0.02);
  });

  it("ungated: never waits for the report; reads only the lines written since the previous call", () => {
    // What the state does not know yet (skill activations, prompts, compactions) is only what was appended.
    expect(ungated.read.bytes).toBeLessThanOrEqual(ungated.appendedBytes);
    expect(ungated.read.bytes).toBeLessThan(64 * 1024);
    expect(ungated.read.opens).toBeLessThanOrEqual(1);
  });
});
