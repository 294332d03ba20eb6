import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processContext } from "../../src/hooks/context.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { stopHook } from "../../src/hooks/stop.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import { cli } from "../support/cli-io.js";

let dir: string;
let env: Record<string, string>;
const session = "sess-1";

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "utility-command-"));
  env = { UTILITY_DATA_DIR: join(dir, "data"), HOME: dir };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The user types `text`: UserPromptSubmit, then the line Claude Code writes for it; `seen`: a later hook (Stop) has read that line. */
async function prompt(text: string, seen = true) {
  const transcript = join(dir, "t.jsonl");
  await userPromptSubmit(
    { session_id: session, transcript_path: transcript, hook_event_name: "UserPromptSubmit", prompt_id: `p-${text}`, prompt: text },
    processContext(env),
  );
  appendFileSync(
    transcript,
    `${JSON.stringify({ type: "user", promptId: `p-${text}`, promptSource: "sdk", message: { role: "user", content: text } })}\n`,
  );
  if (seen) await stopHook({ session_id: session, transcript_path: transcript, hook_event_name: "Stop" }, processContext(env), "Stop");
}

describe("utility command (what /utility shows)", () => {
  it("says when the session is unknown, and exits 0", async () => {
    const r = await cli(["command", "status", "--session", "nope"], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("no record of session nope");
  });

  it("shows status after a prompt and a step", async () => {
    await prompt("fix the test");
    const transcript = join(dir, "t.jsonl");
    await preToolUse(
      {
        session_id: session,
        transcript_path: transcript,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: "/x" },
      },
      processContext(env),
    );
    const r = await cli(["command", "", "--session", session], { env });
    expect(r.stdout).toContain("main scope: task 1, step 1, 0 refused; not gated");
  });

  it("reports /utility on and off from the user's prompt, without starting a new task", async () => {
    await prompt("fix the test");
    // The command's shell line runs before any hook has seen the prompt's line.
    await prompt("/utility:utility on", false);
    const on = await cli(["command", "on", "--session", session], { env });
    expect(on.stdout).toContain("The utility gate is on");
    expect(on.stdout).toContain("/utility on: on");
    expect(on.stdout).toContain("task 1,");
    expect(on.stdout).toContain("gated by /utility on");
    await prompt("/utility off", false);
    // `off` loosens: it takes effect once the prompt's line shows it was typed. Until then nothing shows it as made (issue 18).
    const off = await cli(["command", "off", "--session", session], { env });
    expect(off.stdout).toContain("/utility on: on (/utility off asked: it takes effect at the next tool call");
    expect(off.stdout).toContain("gated by /utility on");
    expect(off.stdout).not.toContain("The /utility on gate is off.");
  });

  it("answers an unknown argument or a missing session in text, exit 0", async () => {
    const r = await cli(["command", "frobnicate", "--session", session], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/takes no argument or one of status, .*on, off/);
    const none = await cli(["command", "status"], { env });
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("no session id");
  });

  it("finds the session under Claude Code's data folders when no variable names one", async () => {
    const installed = { HOME: dir, UTILITY_DATA_DIR: join(dir, ".claude", "plugins", "data", "utility-inline") };
    await userPromptSubmit(
      { session_id: session, transcript_path: join(dir, "t.jsonl"), hook_event_name: "UserPromptSubmit", prompt: "hi" },
      processContext(installed),
    );
    const r = await cli(["status", "--session", session], { env: { HOME: dir } });
    expect(r.stdout).toContain(`utility status, session ${session}`);
  });

  it("status refuses a session id that is not safe as a file name", async () => {
    const r = await cli(["status", "--session", "../../etc/passwd"], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is not a safe id");
  });
});

describe("utility command report", () => {
  it("summarises the session's steps, or says there are none", async () => {
    const empty = await cli(["command", "report", "--session", session], { env });
    expect(empty.stdout).toContain("no step of session");
    await prompt("fix the test");
    const transcript = join(dir, "t.jsonl");
    await preToolUse(
      {
        session_id: session,
        transcript_path: transcript,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: "/x" },
      },
      processContext(env),
    );
    const r = await cli(["command", "report", "--session", session], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/steps?/i);
    expect(r.stdout).not.toContain("no step of session");
  });
});
