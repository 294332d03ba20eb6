// SPEC §11: a hook's time must not grow with the transcript. Not timed: this
// counts the bytes the hook server reads (the kernel's count, /proc/<pid>/io:
// no counter in the product) while it answers one PreToolUse call and writes
// what it left for after its answer, on a ~50 MB transcript and on a ~50 KB
// one, in the steady state of a long task (the server saw every earlier
// call), and checks the difference is a small part of the transcript.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTranscript } from "../../scripts/bench/transcript.mjs";
import { EXAMPLE_SKILL } from "../support/paths.js";
import { startServer, type ServerClient } from "../server/client.js";

const SIZE = 50 * 1000 * 1000;
const SMALL = 50 * 1000;
/** Bytes the process has read from files so far (rchar). */
function bytesRead(pid: number): number {
  return Number(/rchar: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"))![1]);
}

/**
 * The server warms its handlers up when it starts, with made-up calls in a
 * folder of its own (src/server/warm-up.ts) that it removes when done: wait
 * for that, so that only the measured call's reads are counted.
 */
async function warmedUp(pid: number): Promise<void> {
  const mine = () => readdirSync(tmpdir()).some((name) => name.startsWith(`utility-warm-up-${pid}-`));
  let seen = false;
  for (const started = Date.now(); Date.now() - started < 15_000; await new Promise((r) => setTimeout(r, 20))) {
    if (mine()) seen = true;
    else if (seen || Date.now() - started > 3_000) return;
  }
}

/** One PreToolUse call through the session's server: its answer, and the bytes the server read for it, its writes after the answer included. */
async function serverCall(server: ServerClient, input: Record<string, unknown>): Promise<{ stdout: string; read: number }> {
  const before = bytesRead(server.child.pid!);
  const args = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  const answer = await server.call("pre_tool_use", args);
  // The next message is read once the answer's writes are done (src/server/main.ts settles after each answer).
  await server.request("tools/list");
  const text = answer.content[0]!.text;
  return { stdout: text === "{}" ? "" : text, read: bytesRead(server.child.pid!) - before };
}
const SESSION = "perf-session";
const work = mkdtempSync(join(tmpdir(), "utility-perf-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Measured {
  transcriptBytes: number;
  appendedBytes: number;
  /** Bytes the server read from files for the measured call: the transcript's tail and the state. */
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
  const server = await startServer({ UTILITY_DATA_DIR: join(dir, "data"), HOME: dir, PATH: process.env.PATH ?? "" });
  await warmedUp(server.child.pid!);
  const base = { session_id: SESSION, transcript_path: transcript, cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash" };
  // The earlier call, decided by the hook (the first look at a session may read back to its task's start);
  // its result line is among what is appended next, read by the measured call (no hook runs after a call).
  const prev = { ...base, tool_input: { command: "git status --short", description: "state of the tree" }, tool_use_id: written.prevId };
  await serverCall(server, prev);
  const appendedBytes = written.finish(["toolu_perf_call"]);

  const measured = await serverCall(server, {
    ...base,
    tool_input: { command: "npm test -- --run parser-0", description: "run the failing test" },
    tool_use_id: "toolu_perf_call",
  });
  await server.close();
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
