/**
 * Issue 31, hole 16, in the real client: `claude --resume <id>
 * --fork-session` gives the conversation a new session id, whose state the
 * plugin has never seen, and copies the earlier lines into its transcript.
 * `/utility on` gates the conversation, so the fork of a switched-on session
 * is gated: its report-less call is refused. The ungated twin: the fork of a
 * session never switched on refuses nothing.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { expectPassed, expectRefused, gateRun, id, logOf, markerDir, ran, stateOf, touch } from "./support.js";

/** Session A (`first` typed, with `script`), then `-p` in a fork of it with one report-less call. */
async function forkOf(first: string, script: ReturnType<typeof text>[][], call: string, marker: string) {
  const a = await gateRun({ prompt: first, script });
  assertRunOk(a);
  const b = await gateRun({
    prompt: "go on",
    home: a.home,
    cwd: a.cwd,
    extraArgs: ["--resume", a.sessionId!, "--fork-session"],
    script: [[touch(marker, call)], [text("Done.")]],
  });
  return { a, b };
}

describe("a fork of a session switched on with /utility on (issue 31, hole 16)", () => {
  const marks = markerDir();
  const call = id("forked_bare");
  let a: RunClaudeResult;
  let b: RunClaudeResult;

  beforeAll(async () => {
    ({ a, b } = await forkOf("/utility on", [], call, join(marks, "bare")));
  }, 120_000);
  afterAll(() => {
    b?.cleanup();
    a?.cleanup();
  });

  it("is a new session, gated by /utility on: its report-less call is refused", () => {
    expect(b.sessionId).not.toBe(a.sessionId);
    expectRefused(b, call, "Bash", "no_report");
    expect(ran(join(marks, "bare"))).toBe(false);
  });

  it("knows where it came from, and its log keeps the switch (SPEC §10)", () => {
    expect(stateOf(b)).toMatchObject({ forkedFrom: a.sessionId, manualGate: true });
    expect(
      logOf(b)
        .filter((r) => r.switched)
        .map((r) => [r.event, r.switched]),
    ).toEqual([["PreToolUse", "on"]]);
  });
});

describe("a fork of a session never switched on (ungated twin)", () => {
  const marks = markerDir();
  const call = id("forked_free");
  let a: RunClaudeResult;
  let b: RunClaudeResult;

  beforeAll(async () => {
    ({ a, b } = await forkOf("hello", [[text("Hi.")]], call, join(marks, "free")));
  }, 120_000);
  afterAll(() => {
    b?.cleanup();
    a?.cleanup();
  });

  it("refuses nothing: its report-less call runs", () => {
    expect(b.sessionId).not.toBe(a.sessionId);
    expectPassed(b, call, "observed");
    expect(ran(join(marks, "free"))).toBe(true);
    expect(stateOf(b)).toMatchObject({ forkedFrom: a.sessionId, manualGate: false });
  });
});
