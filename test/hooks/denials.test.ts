/**
 * A call the gate let through that Claude Code's own permissions then refused
 * (its result line carries `toolDenialKind`): it never ran, so it is no step.
 * But a model's shell can append such a line, so the line alone refunds
 * nothing: it marks the call, and the refund comes when a hook of a gated
 * scope reads a later message's own call line (every result of an earlier
 * message is written before it), or at the turn's end. A real result line
 * wins over a denial line. The handlers in process, on real transcript files.
 */
import { appendFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { stopHook } from "../../src/hooks/stop.js";
import { assistant as bare, call, jsonl, prompt, result, tempDir, text, type Block, type TempDir } from "../transcript/helpers.js";
import { denyReason, fakeContext, GOOD, preInput, report, SESSION, seedMainGate, source, type FakeContext } from "./fake-context.js";

const VERIFY = report("verify", "0.28", GOOD);
const bash = (id: string) => call(id, "Bash", { command: `echo ${id}` });
const decide = (ctx: FakeContext, transcript: string, id: string) =>
  preToolUse(preInput("Bash", { command: `echo ${id}` }, { id, transcript }), ctx);

/** An assistant line as Claude Code 2.1 writes it, with its usage (which tells the machine the message that made each call). */
function assistant(messageId: string, blocks: Block[]): string {
  const line = JSON.parse(bare(messageId, blocks));
  line.message.usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  return JSON.stringify(line);
}

/** The line Claude Code writes for a call its permissions refused. */
function denial(toolUseId: string): string {
  const line = JSON.parse(result(toolUseId, "The user doesn't want to proceed with this tool use.", { isError: true }));
  return JSON.stringify({ ...line, toolDenialKind: "user-rejected" });
}

const stop = (ctx: FakeContext, transcript: string) =>
  stopHook(
    { session_id: SESSION, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Done." },
    ctx,
    "Stop",
  );

const outcomes = (ctx: FakeContext) => ctx.records.filter((r) => r.event === "Outcome").map((r) => [r.toolUseId, r.outcome!.result]);

describe("a denial line in a gated scope", () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.remove());

  /** A gated main scope whose message m1 made call t1, let through (step 1). */
  async function passedOne(): Promise<{ ctx: FakeContext; transcript: string }> {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", jsonl([prompt("go"), assistant("m1", [text(VERIFY), bash("t1")])]));
    const ctx = fakeContext();
    seedMainGate(ctx, source("/s/SKILL.md"));
    expect(denyReason(await decide(ctx, transcript, "t1"))).toBeUndefined();
    expect(ctx.state()!.main.step).toBe(1);
    return { ctx, transcript };
  }

  it("refunds the step once a later message's own call line is read: the call never ran", async () => {
    const { ctx, transcript } = await passedOne();
    appendFileSync(transcript, jsonl([denial("t1"), assistant("m2", [text(VERIFY), bash("t2")])]));
    expect(denyReason(await decide(ctx, transcript, "t2"))).toBeUndefined();
    expect(ctx.state()!.main).toMatchObject({ step: 1, pending: { t2: { at: 1 } } });
    expect(outcomes(ctx)).toEqual([["t1", "denied"]]);
    expect(ctx.records.find((r) => r.event === "Outcome")).toMatchObject({ step: 1, outcome: { resultBytes: 0 } });
    expect(ctx.records.at(-1)).toMatchObject({ event: "PreToolUse", toolUseId: "t2", step: 1, decision: "passed" });
  });

  it("refunds nothing while the call being decided is of the same message (its siblings' results may still come)", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", jsonl([prompt("go"), assistant("m1", [text(VERIFY), bash("t1"), bash("t2")])]));
    const ctx = fakeContext();
    seedMainGate(ctx, source("/s/SKILL.md"));
    await decide(ctx, transcript, "t1");
    appendFileSync(transcript, jsonl([denial("t1")]));
    await decide(ctx, transcript, "t2");
    expect(ctx.state()!.main.step).toBe(2);
    expect(ctx.state()!.main.pending.t1).toMatchObject({ deniedSeen: true });
    expect(outcomes(ctx)).toEqual([]);
  });

  it("a real result line wins over a denial line, in either order: the call ran and stays a step", async () => {
    for (const lines of [(id: string) => [result(id, "ok"), denial(id)], (id: string) => [denial(id), result(id, "ok")]]) {
      const { ctx, transcript } = await passedOne();
      appendFileSync(transcript, jsonl([...lines("t1"), assistant("m2", [text(VERIFY), bash("t2")])]));
      await decide(ctx, transcript, "t2");
      expect(ctx.state()!.main.step).toBe(2);
      expect(outcomes(ctx)).toEqual([["t1", "ran"]]);
      expect(ctx.state()!.main.history.map((h) => h.toolUseId)).toEqual(["t1"]);
      dir!.remove();
    }
  });

  it("a denial line alone, with no later call, is refunded at the turn's end", async () => {
    const { ctx, transcript } = await passedOne();
    appendFileSync(transcript, jsonl([denial("t1"), assistant("m2", [text("Done.")])]));
    await stop(ctx, transcript);
    expect(ctx.state()!.main).toMatchObject({ step: 0, pending: {} });
    expect(outcomes(ctx)).toEqual([["t1", "denied"]]);
  });
});

describe("a denial line in an ungated scope", () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.remove());

  it("refunds nothing at the next call, even one whose own line the hook reads; the turn's end takes the call off", async () => {
    dir = tempDir();
    const same = { command: "echo same" };
    const transcript = dir.file("t.jsonl", jsonl([prompt("go"), assistant("m1", [call("t1", "Bash", same)])]));
    const ctx = fakeContext();
    await preToolUse(preInput("Bash", same, { id: "t1", transcript }), ctx);
    appendFileSync(transcript, jsonl([denial("t1"), assistant("m2", [call("t2", "Bash", same)])]));
    // The same call again while t1 is pending: the hook reads t2's own line (its result may be a repeat's proof).
    await preToolUse(preInput("Bash", same, { id: "t2", transcript }), ctx);
    expect(ctx.waits.map((w) => w.toolUseId)).toContain("t2");
    expect(ctx.state()!.main.step).toBe(2);
    expect(ctx.state()!.main.pending.t1).toMatchObject({ deniedSeen: true });
    appendFileSync(transcript, jsonl([result("t2", "ok"), assistant("m3", [text("Done.")])]));
    await stop(ctx, transcript);
    expect(ctx.state()!.main).toMatchObject({ step: 1, pending: {} });
    expect(outcomes(ctx)).toEqual([
      ["t2", "ran"],
      ["t1", "denied"],
    ]);
  });
});
