// No hook runs after a call (docs/decisions/0001): its result, failure and the
// spend of the message that made it come from the transcript's tail, read by
// the scope's next hook. Real files, the real reader, the handlers in process.
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { stopHook } from "../../src/hooks/stop.js";
import { rootTaskSpend } from "../../src/engine/session/scope-usage.js";
import { assistant, call, jsonl, prompt, result, tempDir, type TempDir } from "../transcript/helpers.js";
import { fakeContext, preInput, SESSION } from "./fake-context.js";

const READ_A = { file_path: "/repo/a.ts" };

/** An assistant line with usage, as Claude Code writes it. */
function withUsage(
  line: string,
  usage: { input_tokens: number; output_tokens: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number },
): string {
  const json = JSON.parse(line);
  json.message.usage = { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage };
  return JSON.stringify(json);
}

describe("what the next hook learns from the transcript's tail", () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.remove());

  it("a call's result: the same call after it is an exact repeat (hinted ungated), and its outcome is logged once", async () => {
    dir = tempDir();
    const transcript = dir.file(
      "t.jsonl",
      jsonl([prompt("go"), withUsage(assistant("m1", [call("t1", "Read", READ_A)]), { input_tokens: 3, output_tokens: 9 })]),
    );
    const ctx = fakeContext();
    await preToolUse(preInput("Read", READ_A, { id: "t1", transcript }), ctx);
    // Before its result is written the call is pending: in between, so no repeat can be claimed.
    const early = await preToolUse(preInput("Read", READ_A, { id: "t1b", transcript }), ctx);
    expect(early.output).toBeUndefined();
    appendFileSync(
      transcript,
      `${result("t1", "file text")}\n${withUsage(assistant("m2", [call("t2", "Read", READ_A)]), { input_tokens: 5, output_tokens: 4 })}\n`,
    );
    const again = await preToolUse(preInput("Read", READ_A, { id: "t2", transcript }), ctx);
    expect(JSON.stringify(again.output)).toContain("exact repeat");
    const outcomes = ctx.records.filter((r) => r.event === "Outcome");
    expect(outcomes).toEqual([
      expect.objectContaining({
        toolUseId: "t1",
        step: 1,
        outcome: expect.objectContaining({
          result: "ran",
          resultBytes: 9,
          tokens: { input: 3, output: 9, cacheCreation: 0, cacheRead: 0 },
          learnedBy: "PreToolUse",
        }),
      }),
    ]);
    expect(ctx.state()!.main.spend!.tokens).toEqual({ input: 8, output: 13, cacheCreation: 0, cacheRead: 0 });
  });

  it("a failed result is no original: the same call again is a retry, not a repeat", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", jsonl([prompt("go"), assistant("m1", [call("t1", "Read", READ_A)])]));
    const ctx = fakeContext();
    await preToolUse(preInput("Read", READ_A, { id: "t1", transcript }), ctx);
    appendFileSync(transcript, `${result("t1", "no such file", { isError: true })}\n`);
    const again = await preToolUse(preInput("Read", READ_A, { id: "t2", transcript }), ctx);
    expect(again.output).toBeUndefined();
    expect(ctx.records.find((r) => r.event === "Outcome")!.outcome!.result).toBe("failed");
  });

  it("the Stop hook learns the last results, and takes off the count only calls that never got one", async () => {
    dir = tempDir();
    const transcript = dir.file(
      "t.jsonl",
      jsonl([prompt("go"), assistant("m1", [call("t1", "Read", READ_A), call("t2", "Bash", { command: "x" })])]),
    );
    const ctx = fakeContext();
    await preToolUse(preInput("Read", READ_A, { id: "t1", transcript }), ctx);
    await preToolUse(preInput("Bash", { command: "x" }, { id: "t2", transcript }), ctx);
    appendFileSync(transcript, `${result("t1")}\n${assistant("m2", [{ type: "text", text: "Done." }])}\n`);
    await stopHook(
      { session_id: SESSION, transcript_path: transcript, hook_event_name: "Stop", last_assistant_message: "Done." },
      ctx,
      "Stop",
    );
    expect(ctx.finals).toEqual(["Done."]); // it waited for the final message: every result before it is written
    const stop = ctx.records.find((r) => r.event === "Stop")!;
    expect(stop).toMatchObject({ step: 1, uncounted: 1 });
    expect(ctx.state()!.main.history.map((h) => h.toolUseId)).toEqual(["t1"]);
  });

  it("a subagent's usage, read from its own transcript, counts for the main scope's task it was launched in", async () => {
    dir = tempDir();
    const transcript = dir.file(
      "t.jsonl",
      jsonl([prompt("go"), withUsage(assistant("m1", [call("ag", "Agent", { prompt: "x" })]), { input_tokens: 10, output_tokens: 2 })]),
    );
    mkdirSync(join(dirname(transcript), SESSION, "subagents"), { recursive: true });
    dir.file(
      `${SESSION}/subagents/agent-a1.jsonl`,
      jsonl([
        prompt("x"),
        withUsage(assistant("s1", [call("s1r", "Read", READ_A)]), { input_tokens: 7, output_tokens: 5, cache_read_input_tokens: 100 }),
      ]),
    );
    const ctx = fakeContext();
    await preToolUse(preInput("Agent", { prompt: "x" }, { id: "ag", transcript }), ctx);
    await preToolUse(preInput("Read", READ_A, { id: "s1r", transcript, agent: { id: "a1", type: "general-purpose" } }), ctx);
    const state = ctx.state()!;
    expect(state.agents.a1).toMatchObject({
      rootTask: 1,
      spend: { tokens: { input: 7, output: 5, cacheCreation: 0, cacheRead: 100 }, toolCalls: 1 },
    });
    expect(state.main.spend).toMatchObject({ agentsLaunched: 1, toolCalls: 1 });
    expect(rootTaskSpend(state.main, Object.values(state.agents)).tokens).toEqual({
      input: 17,
      output: 7,
      cacheCreation: 0,
      cacheRead: 100,
    });
  });
});
