/**
 * SPEC §2 and §11: after a prompt, the scope's next call waits for the
 * transcript only while what the prompt was can still change the call: a
 * slash command (a skill, `/utility on|off`) until the call's own line, a
 * plain prompt until its own line is written. Written already (a real model
 * takes longer than Claude Code's 100 ms flush), nothing is waited for, and
 * the prompt is applied all the same.
 */
import { appendFileSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { stopHook } from "../../src/hooks/stop.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import type { SessionDraft } from "../../src/engine/session/state.js";
import type { MemoryStateStore } from "../support/memory-store.js";
import { assistant, call, jsonl, prompt, result } from "../transcript/helpers.js";
import { fakeContext, preInput, SESSION, source, type FakeContext } from "./fake-context.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-prompt-wait-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let files = 0;
/** A transcript file with these lines. */
function transcript(lines: string[]): string {
  const file = join(scratch, `t${++files}.jsonl`);
  writeFileSync(file, lines.length > 0 ? jsonl(lines) : "");
  return file;
}

/** A typed prompt's line as 2.1.328 writes it in the TUI, with its prompt id. */
const typedLine = (text: string, promptId: string) =>
  JSON.stringify({ ...JSON.parse(prompt(text)), promptId, origin: { kind: "human" }, promptSource: "typed" });

async function submit(ctx: FakeContext, file: string, text: string, promptId: string) {
  await userPromptSubmit(
    { session_id: SESSION, transcript_path: file, hook_event_name: "UserPromptSubmit", prompt: text, prompt_id: promptId },
    ctx,
  );
}

const stop = (ctx: FakeContext, file: string) =>
  stopHook(
    { session_id: SESSION, transcript_path: file, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Done." },
    ctx,
    "Stop",
  );

/** Task 1 with one call, whose result line is written, and the turn's end. */
async function firstTask(ctx: FakeContext, file: string): Promise<void> {
  await submit(ctx, file, "first task", "p1");
  appendFileSync(file, jsonl([typedLine("first task", "p1"), assistant("m1", [call("toolu_1")])]));
  await preToolUse(preInput("Read", { file_path: "/x/toolu_1" }, { id: "toolu_1", transcript: file }), ctx);
  appendFileSync(file, jsonl([result("toolu_1"), assistant("m2", [{ type: "text", text: "Done." }])]));
  await stop(ctx, file);
  ctx.finals.length = 0;
}

describe("the first call after a plain prompt", () => {
  it("does not wait once the prompt's line is written, and the prompt starts its task", async () => {
    const ctx = fakeContext();
    const file = transcript([]);
    await firstTask(ctx, file);
    const before = ctx.waits.length;
    await submit(ctx, file, "second task", "p2");
    appendFileSync(file, jsonl([typedLine("second task", "p2")]));
    await preToolUse(preInput("Read", { file_path: "/other" }, { transcript: file }), ctx);
    expect(ctx.waits.length - before).toBe(0);
    expect(ctx.records.at(-1)).toMatchObject({ task: 2, step: 1, decision: "observed" });
    expect(ctx.state()!.main.awaitingActivation).toBeUndefined();
    expect(ctx.state()!.main.awaitingPrompt).toBeUndefined();
  });

  it("waits for its own line while the prompt's line is not written yet", async () => {
    const ctx = fakeContext();
    const file = transcript([]);
    await firstTask(ctx, file);
    const before = ctx.waits.length;
    await submit(ctx, file, "second task", "p2");
    const next = preInput("Read", { file_path: "/other" }, { transcript: file });
    await preToolUse(next, ctx);
    expect(ctx.waits.slice(before).map((w) => w.toolUseId)).toEqual([next.tool_use_id]);
  });

  it("waits while only a line with another prompt id is written (an earlier prompt, or one a shell appended)", async () => {
    const ctx = fakeContext();
    const file = transcript([]);
    await firstTask(ctx, file);
    const before = ctx.waits.length;
    await submit(ctx, file, "second task", "p2");
    appendFileSync(file, jsonl([typedLine("second task", "p-other")]));
    await preToolUse(preInput("Read", { file_path: "/other" }, { transcript: file }), ctx);
    expect(ctx.waits.length - before).toBe(1);
  });

  it("still waits in a scope the last task gated: the gate's wait is the call's own", async () => {
    const ctx = fakeContext();
    const file = transcript([]);
    await firstTask(ctx, file);
    const gated = structuredClone(ctx.state()!) as SessionDraft;
    gated.manualGate = true;
    (ctx.store as MemoryStateStore).states.set(SESSION, gated);
    const before = ctx.waits.length;
    await submit(ctx, file, "second task", "p2");
    appendFileSync(file, jsonl([typedLine("second task", "p2")]));
    await preToolUse(preInput("Read", { file_path: "/other" }, { transcript: file }), ctx);
    expect(ctx.waits.length - before).toBe(1);
  });
});

describe("the first call after a slash command", () => {
  it("waits for its own line even when the prompt's line is written: the skill's lines may come after it", async () => {
    const ctx = fakeContext();
    const file = transcript([]);
    await firstTask(ctx, file);
    const before = ctx.waits.length;
    await submit(ctx, file, "/gated-skill do it", "p2");
    appendFileSync(file, jsonl([typedLine("/gated-skill do it", "p2")]));
    await preToolUse(preInput("Read", { file_path: "/other" }, { transcript: file }), ctx);
    expect(ctx.waits.length - before).toBe(1);
  });

  it("a plain prompt queued behind a slash command keeps the whole wait", async () => {
    const ctx = fakeContext();
    const file = transcript([]);
    await firstTask(ctx, file);
    const before = ctx.waits.length;
    await submit(ctx, file, "/gated-skill do it", "p2");
    await submit(ctx, file, "and then this", "p3");
    appendFileSync(file, jsonl([typedLine("/gated-skill do it", "p2"), typedLine("and then this", "p3")]));
    await preToolUse(preInput("Read", { file_path: "/other" }, { transcript: file }), ctx);
    expect(ctx.waits.length - before).toBe(1);
  });

  it("a Skill call after a plain prompt brings the whole wait back", async () => {
    const ctx = fakeContext();
    const file = transcript([]);
    await firstTask(ctx, file);
    await submit(ctx, file, "second task", "p2");
    appendFileSync(file, jsonl([typedLine("second task", "p2")]));
    ctx.skills.set("/s/SKILL.md", source("/s/SKILL.md"));
    await preToolUse(preInput("Skill", { skill: "s" }, { transcript: file }), ctx);
    expect(ctx.state()!.main).toMatchObject({ awaitingActivation: true });
    expect(ctx.state()!.main.awaitingPrompt).toBeUndefined();
    const before = ctx.waits.length;
    await preToolUse(preInput("Read", { file_path: "/other" }, { transcript: file }), ctx);
    expect(ctx.waits.length - before).toBe(1);
  });
});

describe("a Stop after a plain prompt, with no call in between", () => {
  it("once the prompt's line is written, an ungated scope still waits for the final message, so its reply is counted now", async () => {
    const ctx = fakeContext();
    const file = transcript([]);
    await firstTask(ctx, file);
    await submit(ctx, file, "second task", "p2");
    appendFileSync(file, jsonl([typedLine("second task", "p2")]));
    await stop(ctx, file);
    expect(ctx.finals).toEqual(["Done."]);
    expect(ctx.records.at(-1)).toMatchObject({ event: "Stop", task: 2 });
  });

  it("waits for it while the prompt's line is not written: what the prompt was is not known yet", async () => {
    const ctx = fakeContext();
    const file = transcript([]);
    await firstTask(ctx, file);
    await submit(ctx, file, "second task", "p2");
    await stop(ctx, file);
    expect(ctx.finals).toEqual(["Done."]);
  });
});
