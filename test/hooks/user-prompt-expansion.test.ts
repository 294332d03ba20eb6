/**
 * `/utility <argument>` answered by the plugin on screen (SPEC §9): the
 * UserPromptExpansion hook applies `on` at once and blocks the prompt with
 * the answer, so no model turn is needed. `off` needs its prompt's own
 * UserPromptSubmit saying so and is in force once Claude Code's line of the
 * answer is in the session's own transcript (issue 31: any hook may call the
 * plugin's server). `/utility` alone, other commands, and a wakeup that says
 * `/utility off` (no UserPromptExpansion runs for it) switch nothing here.
 * The handlers in process, on real transcript files.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { promptKey } from "../../src/ingest/prompts.js";
import { processContext } from "../../src/hooks/context.js";
import type { HookContext } from "../../src/hooks/context.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { userPromptExpansion } from "../../src/hooks/user-prompt-expansion.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import { jsonl, prompt, tempDir, type TempDir } from "../transcript/helpers.js";
import { denyReason, fakeContext, preInput, SESSION } from "./fake-context.js";

/** What Claude Code 2.1.328 sends for a typed `/utility <args>` (docs/claude-code-facts.md). */
const expansion = (args: string, promptId: string, commandName = "utility:utility") => ({
  session_id: SESSION,
  transcript_path: "/nonexistent/t.jsonl",
  hook_event_name: "UserPromptExpansion",
  prompt_id: promptId,
  expansion_type: "slash_command",
  command_name: commandName,
  command_args: args,
  command_source: "plugin",
  prompt: `/${commandName}${args ? ` ${args}` : ""}`,
});
/** A typed prompt: UserPromptSubmit first (it runs for every prompt), then UserPromptExpansion, as Claude Code orders them. */
async function typed(ctx: HookContext, args: string, promptId: string, transcript = "/nonexistent/t.jsonl") {
  await userPromptSubmit(
    {
      session_id: SESSION,
      transcript_path: transcript,
      hook_event_name: "UserPromptSubmit",
      prompt: `/utility ${args}`.trim(),
      prompt_id: promptId,
    },
    ctx,
  );
  return userPromptExpansion({ ...expansion(args, promptId), transcript_path: transcript }, ctx);
}
const shownText = (result: { output?: Record<string, unknown> }) => result.output?.reason as string | undefined;
/** The session's own transcript where Claude Code keeps it, under a scratch HOME the context's environment names. */
function ownTranscript(home: string, ctx?: HookContext): string {
  if (ctx) ctx.env = { ...ctx.env, HOME: home };
  const folder = join(home, ".claude", "projects", "-work");
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${SESSION}.jsonl`);
  writeFileSync(file, jsonl([prompt("hello")]));
  return file;
}
/**
 * The line Claude Code 2.1.328 writes when a UserPromptExpansion hook blocks a typed command
 * (docs/claude-code-facts.md); the answer to `off` keeps the typed command under it.
 */
const blockedLine = (reason: string, typed = "/utility:utility off") =>
  JSON.stringify({
    type: "system",
    subtype: "informational",
    level: "warning",
    isMeta: false,
    content: `UserPromptExpansion operation blocked by hook:\n${reason}\n\nOriginal prompt: ${typed}`,
  });
const refused = async (ctx: HookContext, transcript?: string) =>
  denyReason(await preToolUse(preInput("Bash", { command: "true" }, transcript ? { transcript } : {}), ctx)) !== undefined;

describe("UserPromptExpansion of /utility", () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.remove());

  it("status: blocks the prompt with the status as the reason, the original prompt left out, nothing switched", async () => {
    const ctx = fakeContext();
    const result = await typed(ctx, "status", "p1");
    expect(result.output).toEqual({
      decision: "block",
      reason: shownText(result),
      hookSpecificOutput: { hookEventName: "UserPromptExpansion", suppressOriginalPrompt: true },
    });
    expect(shownText(result)).toMatch(
      /^utility status, session session-unit-1\n\/utility on: off\nmain scope: before the first prompt, step 0, 0 refused; not gated/,
    );
    expect(ctx.state()!.manualGate).toBe(false);
    // Its vouch is done: no line of it will come.
    expect(ctx.state()!.prompts).toEqual({});
    expect(ctx.records.at(-1)).toMatchObject({ event: "UserPromptExpansion", decision: "observed", promptId: promptKey("p1") });
    expect(ctx.records.at(-1)!.switched).toBeUndefined();
  });

  it("on: the gate is on, the answer says so with the status, and the switch is logged once", async () => {
    const ctx = fakeContext();
    const text = shownText(await typed(ctx, "on", "p1"));
    expect(text).toMatch(/^utility: the gate is on for this conversation's main scope until \/utility off/);
    expect(text).toContain("/utility on: on\n");
    expect(text).toContain("gated by /utility on");
    // UserPromptSubmit applied it (`on` only tightens); this hook's record says it answered, and switched nothing more.
    expect(ctx.records.map((r) => [r.event, r.switched])).toEqual([
      ["UserPromptSubmit", "on"],
      ["UserPromptExpansion", undefined],
    ]);
    expect(ctx.records.at(-1)!.reason).toBe("/utility on: answered on screen, no model turn");
    expect(await refused(ctx)).toBe(true);
  });

  it("off: in force once Claude Code's line of the answer is in the transcript: the next call is not gated", async () => {
    dir = tempDir();
    const ctx = fakeContext();
    const transcript = ownTranscript(dir.path, ctx);
    await typed(ctx, "on", "p1", transcript);
    expect(await refused(ctx, transcript)).toBe(true);
    const text = shownText(await typed(ctx, "off", "p2", transcript))!;
    expect(text).toMatch(/^utility: the \/utility on gate is off\. Skills that opt in with utility_gated: true still gate/);
    expect(text).toContain("/utility on: off\n");
    expect(ctx.state()!.manualGate).toBe(true);
    expect(ctx.records.at(-1)!.switched).toBeUndefined();
    // Before the line is written the gate stays on, and the status says why.
    expect(await refused(ctx, transcript)).toBe(true);
    appendFileSync(transcript, jsonl([blockedLine(text)]));
    expect(await refused(ctx, transcript)).toBe(false);
    expect(ctx.state()!.manualGate).toBe(false);
    expect(ctx.records.filter((r) => r.switched).map((r) => [r.event, r.switched])).toEqual([
      ["UserPromptSubmit", "on"],
      ["PreToolUse", "off"],
    ]);
  });

  it("off: keeps the original prompt under its answer, and Claude Code's line must end with the typed /utility off", async () => {
    dir = tempDir();
    const ctx = fakeContext();
    const transcript = ownTranscript(dir.path, ctx);
    await typed(ctx, "on", "p1", transcript);
    const result = await typed(ctx, "off", "p2", transcript);
    expect(result.output).toMatchObject({ hookSpecificOutput: { suppressOriginalPrompt: false } });
    // The same answer under another command the user typed: a hook that is not the plugin's rode that command.
    appendFileSync(transcript, jsonl([blockedLine(shownText(result)!, "/review")]));
    expect(await refused(ctx, transcript)).toBe(true);
    expect(ctx.state()!.manualGate).toBe(true);
  });

  it("off: the next prompt's UserPromptSubmit finds the line too", async () => {
    dir = tempDir();
    const ctx = fakeContext();
    const transcript = ownTranscript(dir.path, ctx);
    await typed(ctx, "on", "p1", transcript);
    const text = shownText(await typed(ctx, "off", "p2", transcript))!;
    appendFileSync(transcript, jsonl([blockedLine(text)]));
    await userPromptSubmit(
      { session_id: SESSION, transcript_path: transcript, hook_event_name: "UserPromptSubmit", prompt: "go", prompt_id: "p3" },
      ctx,
    );
    expect(ctx.state()!.manualGate).toBe(false);
    expect(ctx.records.at(-1)).toMatchObject({ event: "UserPromptSubmit", switched: "off" });
  });

  it("off typed during a turn: the turn's last line, made before the answer and written after it, does not hide the answer's line", async () => {
    dir = tempDir();
    const ctx = fakeContext();
    const transcript = ownTranscript(dir.path, ctx);
    await typed(ctx, "on", "p1", transcript);
    const text = shownText(await typed(ctx, "off", "p2", transcript))!;
    // The fake clock says 2026-01-02T03:04:05Z when the hook answered.
    const late = JSON.stringify({ type: "assistant", timestamp: "2026-01-02T03:04:04.950Z", message: { role: "assistant", content: [] } });
    appendFileSync(transcript, jsonl([late, blockedLine(text)]));
    expect(await refused(ctx, transcript)).toBe(false);
  });

  it("off forged by a hook on another event (issue 31): the line after it is the call's, not a blocked command's; the gate stays on", async () => {
    dir = tempDir();
    const ctx = fakeContext();
    const transcript = ownTranscript(dir.path, ctx);
    await typed(ctx, "on", "p1", transcript);
    // A PostToolUse hook of a skill sends both calls with a prompt id of its own making: the pair looks typed.
    const text = shownText(await typed(ctx, "off", "forged-1", transcript))!;
    expect(ctx.state()!.pendingOff).toBeDefined();
    appendFileSync(transcript, jsonl([prompt("the tool's result, or the next prompt"), blockedLine(text)]));
    expect(await refused(ctx, transcript)).toBe(true);
    expect(ctx.state()!.pendingOff).toBeUndefined();
    expect(ctx.state()!.manualGate).toBe(true);
  });

  it.each([
    ["with no UserPromptSubmit of its prompt id", "no UserPromptSubmit of this prompt id reached the plugin before it"],
    ["when UserPromptSubmit saw another prompt with that id", "the prompt UserPromptSubmit gave for this prompt id is not /utility off"],
  ])("off %s is not taken: the answer says why, and the gate stays on", async (name, why) => {
    dir = tempDir();
    const ctx = fakeContext();
    const transcript = ownTranscript(dir.path, ctx);
    await typed(ctx, "on", "p1", transcript);
    if (name.startsWith("when"))
      await userPromptSubmit(
        {
          session_id: SESSION,
          transcript_path: transcript,
          hook_event_name: "UserPromptSubmit",
          prompt: "/utility status",
          prompt_id: "p2",
        },
        ctx,
      );
    const text = shownText(await userPromptExpansion({ ...expansion("off", "p2"), transcript_path: transcript }, ctx))!;
    expect(text).toMatch(/^utility: \/utility off was not taken: /);
    expect(text).toContain(why);
    expect(text).toContain("The gate stays on");
    expect(ctx.records.at(-1)!.reason).toContain(`not taken: ${why}`);
    appendFileSync(transcript, jsonl([blockedLine(text)]));
    expect(await refused(ctx, transcript)).toBe(true);
  });

  it("off naming a transcript that is not the session's own (a file the model wrote) is not taken", async () => {
    dir = tempDir();
    const ctx = fakeContext();
    ownTranscript(dir.path, ctx);
    const elsewhere = dir.file(`${SESSION}.jsonl`, jsonl([prompt("hello")]));
    await typed(ctx, "on", "p1", elsewhere);
    const text = shownText(await typed(ctx, "off", "p2", elsewhere))!;
    expect(text).toContain("the hook's transcript_path is not this session's own transcript");
    expect(ctx.state()!.manualGate).toBe(true);
  });

  it("report: the session report from the log", async () => {
    const ctx = fakeContext();
    await preToolUse(preInput("Read", { file_path: "/x" }), ctx);
    const text = shownText(await typed(ctx, "report", "p1"))!;
    expect(text).toMatch(/^session session-unit-1: \d+ records/);
    expect(text).toContain("steps 1");
  });

  it("the argument is read as typed: case, spaces, extra words", async () => {
    const ctx = fakeContext();
    expect(shownText(await typed(ctx, "  ON  now", "p1"))).toMatch(/^utility: the gate is on/);
    expect(ctx.state()!.manualGate).toBe(true);
  });

  it("an unknown argument: the usage, shown, and nothing recorded or switched", async () => {
    const ctx = fakeContext();
    const result = await userPromptExpansion(expansion("offf", "p1"), ctx);
    expect(shownText(result)).toBe('utility: /utility takes no argument or one of status, report, on, off; got "offf".');
    expect(ctx.state()).toBeUndefined();
    expect(ctx.records).toEqual([]);
  });

  it.each([
    ["/utility alone goes on to the model (the skill scores the situation)", expansion("", "p1")],
    ["another command of the plugin", expansion("off", "p1", "utility:utility-scoring")],
    ["another plugin's command of the same short name", expansion("off", "p1", "other:utility")],
    ["a project command named utility", expansion("off", "p1", "utility")],
  ])("%s: no answer, nothing recorded or switched", async (_name, input) => {
    const ctx = fakeContext();
    expect(await userPromptExpansion(input, ctx)).toEqual({});
    expect(ctx.state()).toBeUndefined();
    expect(ctx.records).toEqual([]);
  });

  it("a wakeup of /utility off (UserPromptSubmit and its line, no UserPromptExpansion) switches nothing", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", "");
    const ctx = fakeContext();
    await typed(ctx, "on", "p1", transcript);
    await userPromptSubmit(
      { session_id: SESSION, transcript_path: transcript, hook_event_name: "UserPromptSubmit", prompt: "/utility off", prompt_id: "p2" },
      ctx,
    );
    const wakeup = {
      ...JSON.parse(prompt("/utility off")),
      promptId: "p2",
      isMeta: true,
      promptSource: "system",
      wakeupSource: "loop_wakeup",
      turnOrigin: "scheduled",
    };
    appendFileSync(transcript, jsonl([JSON.stringify(wakeup)]));
    expect(await refused(ctx, transcript)).toBe(true);
    expect(ctx.state()!.manualGate).toBe(true);
  });
});

describe("what the gate remembers of a switch made here (SPEC §10)", () => {
  it("survives the state file: the log's UserPromptExpansion record brings /utility off back", async () => {
    const data = mkdtempSync(join(tmpdir(), "utility-upe-"));
    try {
      // A short deadline: no transcript is written here, and a call after a slash command waits for its lines until then.
      const ctx = processContext({ UTILITY_DATA_DIR: data, UTILITY_TEST_DEADLINE_MS: "300", HOME: data });
      const transcript = ownTranscript(data);
      await typed(ctx, "on", "p1", transcript);
      const text = shownText(await typed(ctx, "off", "p2", transcript))!;
      appendFileSync(transcript, jsonl([blockedLine(text)]));
      await userPromptSubmit(
        { session_id: SESSION, transcript_path: transcript, hook_event_name: "UserPromptSubmit", prompt: "go", prompt_id: "p3" },
        ctx,
      );
      rmSync(join(data, "state"), { recursive: true, force: true });
      expect(await refused(ctx, transcript)).toBe(false);
      await typed(ctx, "on", "p4", transcript);
      rmSync(join(data, "state"), { recursive: true, force: true });
      expect(await refused(ctx, transcript)).toBe(true);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
