/**
 * SessionEnd: the main transcript's last lines (the last turn's final message
 * and results) are read into the machine, so the session's spend is whole in
 * the state and the log (SPEC §15); a session the plugin never saw is left
 * alone. The handlers in process, on real transcript files.
 */
import { appendFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { sessionEnd } from "../../src/hooks/session-end.js";
import { assistant, call, jsonl, prompt, result, tempDir, text, type TempDir } from "../transcript/helpers.js";
import { fakeContext, preInput, SESSION, type FakeContext } from "./fake-context.js";

function withUsage(line: string, input: number, output: number): string {
  const json = JSON.parse(line);
  json.message.usage = { input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  return JSON.stringify(json);
}

const end = (ctx: FakeContext, transcript: string) =>
  sessionEnd({ session_id: SESSION, transcript_path: transcript, hook_event_name: "SessionEnd", reason: "other" }, ctx);

describe("SessionEnd", () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.remove());

  it("reads the last turn's lines: the final message's usage joins the spend, the last result its outcome; one record", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", jsonl([prompt("go"), withUsage(assistant("m1", [call("t1", "Read")]), 10, 2)]));
    const ctx = fakeContext();
    await preToolUse(preInput("Read", { file_path: "/x/t1" }, { id: "t1", transcript }), ctx);
    expect(ctx.state()!.spend!.tokens).toEqual({ input: 10, output: 2, cacheCreation: 0, cacheRead: 0 });
    appendFileSync(transcript, jsonl([result("t1", "ok"), withUsage(assistant("m2", [text("Done.")]), 30, 7)]));
    expect(await end(ctx, transcript)).toEqual({});
    const state = ctx.state()!;
    expect(state.spend!.tokens).toEqual({ input: 40, output: 9, cacheCreation: 0, cacheRead: 0 });
    expect(state.main.spend!.tokens).toEqual({ input: 40, output: 9, cacheCreation: 0, cacheRead: 0 });
    expect(state.main.history.map((h) => h.toolUseId)).toEqual(["t1"]);
    expect(ctx.records.slice(1).map((r) => [r.event, r.toolUseId, r.outcome?.learnedBy])).toEqual([
      ["Outcome", "t1", "SessionEnd"],
      ["SessionEnd", undefined, undefined],
    ]);
    expect(ctx.records.at(-1)).toMatchObject({ decision: "observed", reason: "session ended", scope: "self", step: 1 });
    expect(ctx.records.at(-1)!.scopeSpend!.tokens).toEqual({ input: 40, output: 9, cacheCreation: 0, cacheRead: 0 });
  });

  it("counts a message read before once: its usage is not added again", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", jsonl([prompt("go"), withUsage(assistant("m1", [call("t1", "Read")]), 10, 2)]));
    const ctx = fakeContext();
    await preToolUse(preInput("Read", { file_path: "/x/t1" }, { id: "t1", transcript }), ctx);
    await end(ctx, transcript);
    await end(ctx, transcript);
    expect(ctx.state()!.spend!.tokens).toEqual({ input: 10, output: 2, cacheCreation: 0, cacheRead: 0 });
  });

  it("leaves a session the plugin never saw alone: no state, no record", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", jsonl([prompt("go"), withUsage(assistant("m1", [text("Hi.")]), 10, 2)]));
    const ctx = fakeContext();
    expect(await end(ctx, transcript)).toEqual({});
    expect(ctx.state()).toBeUndefined();
    expect(ctx.records).toEqual([]);
  });
});
