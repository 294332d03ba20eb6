/**
 * A session whose transcript Claude Code never writes (issue 31, hole 11):
 * known from its command line (`--no-session-persistence`) or from a prompt
 * long past with still no file. An ungated call then waits for nothing; a
 * scope gated by /utility on, or by a skill a Skill call let through, refuses
 * with the reason. A transcript that exists, or a prompt just submitted,
 * changes nothing.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { newSession } from "../../src/engine/session/state.js";
import { keepsNoTranscript, noTranscriptAfterWait, pendingSkillGate, startedWithoutPersistence } from "../../src/hooks/no-transcript.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import { MemoryStateStore } from "../support/memory-store.js";
import { tempDir, type TempDir } from "../transcript/helpers.js";
import { denyReason, draftSession, fakeContext, preInput, seedMainGate, SESSION, source } from "./fake-context.js";

let dir: TempDir | undefined;
afterEach(() => dir?.remove());

/** A process whose command line carries `--no-session-persistence`, standing in for Claude Code started so. */
const children: ChildProcess[] = [];
function claudeWithout(): string {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", "--", "--no-session-persistence"], { stdio: "ignore" });
  children.push(child);
  return String(child.pid);
}
afterAll(() => children.forEach((child) => child.kill()));

const NOW = Date.parse("2026-01-02T03:04:05.000Z"); // the fake context's clock
const session = (promptAt?: number) => ({ ...newSession(SESSION), ...(promptAt !== undefined ? { promptAt } : {}) });

describe("keepsNoTranscript", () => {
  it("no file and a prompt 500 ms or more ago: none will come; a prompt just submitted: it may still", () => {
    dir = tempDir();
    const missing = join(dir.path, "t.jsonl");
    expect(keepsNoTranscript(missing, session(NOW - 500), {}, NOW)).toBe(true);
    expect(keepsNoTranscript(missing, session(NOW - 100), {}, NOW)).toBe(false);
    expect(keepsNoTranscript(missing, session(), {}, NOW)).toBe(false);
  });

  it("a file there, even empty: Claude Code writes it", () => {
    dir = tempDir();
    expect(keepsNoTranscript(dir.file("t.jsonl", ""), session(NOW - 60_000), {}, NOW)).toBe(false);
  });

  it("Claude Code started with --no-session-persistence: none will come, at once", async () => {
    dir = tempDir();
    const pid = claudeWithout();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(startedWithoutPersistence({ CLAUDE_PID: pid })).toBe(true);
    expect(startedWithoutPersistence({ CLAUDE_PID: String(process.pid) })).toBe(false);
    expect(keepsNoTranscript(join(dir.path, "t.jsonl"), session(NOW), { CLAUDE_PID: pid }, NOW)).toBe(true);
  });
});

describe("noTranscriptAfterWait", () => {
  it("waits at most half a second for a file that never comes", () => {
    dir = tempDir();
    const started = Date.now();
    expect(noTranscriptAfterWait(join(dir.path, "t.jsonl"), session(NOW), { env: {}, clock: () => new Date(NOW) })).toBe(true);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("no prompt seen: nothing known, no wait", () => {
    expect(noTranscriptAfterWait("/nonexistent/t.jsonl", session(), { env: {}, clock: () => new Date(NOW) })).toBe(false);
  });
});

describe("PreToolUse with no transcript", () => {
  const old = NOW - 10_000;

  it("an ungated call never waits for the call's line", async () => {
    const ctx = fakeContext();
    await userPromptSubmit(
      { session_id: SESSION, transcript_path: "/nonexistent/t.jsonl", hook_event_name: "UserPromptSubmit", prompt: "go", prompt_id: "p1" },
      ctx,
    );
    (ctx.store as MemoryStateStore).states.set(SESSION, { ...ctx.state()!, promptAt: old });
    const answer = await preToolUse(preInput("Bash", { command: "ls" }), ctx);
    expect(denyReason(answer)).toBeUndefined();
    expect(ctx.waits).toEqual([]);
  });

  it("/utility on: refused, the reason says why", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, true, (s) => (s.promptAt = old));
    expect(denyReason(await preToolUse(preInput("Bash", { command: "ls" }), ctx))).toContain(
      "Claude Code keeps no transcript for this session (--no-session-persistence",
    );
  });

  it("a gated skill a Skill call let through gates the scope, whose next call is refused", async () => {
    const ctx = fakeContext();
    const gate = source("/skills/g/SKILL.md");
    const state = draftSession();
    state.promptAt = old;
    state.main.skillCalls = { toolu_skill: { source: gate } };
    (ctx.store as MemoryStateStore).states.set(SESSION, state);
    expect(pendingSkillGate(state, "main")).toEqual(gate);
    expect(denyReason(await preToolUse(preInput("Read", { file_path: "/a" }), ctx))).toContain(
      "this scope is gated, and no call of it can be checked",
    );
    expect(ctx.records.at(-1)).toMatchObject({ decision: "refused", rule: "transcript_unreadable", gated: true });
  });
});
