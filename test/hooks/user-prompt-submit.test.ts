/**
 * UserPromptSubmit vouches for a prompt; its transcript line tells what it was
 * (SPEC §2). `/utility on` only tightens, so it takes effect at the hook
 * (issue 18: a turn interrupted before any other hook must not lose it);
 * `/utility off` waits for the line that shows it typed; a switch applies only
 * over an older one. The handlers in process, on real transcript files.
 */
import { appendFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { promptKey } from "../../src/ingest/prompts.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import { jsonl, prompt, tempDir, type TempDir } from "../transcript/helpers.js";
import { denyReason, fakeContext, preInput, SESSION, type FakeContext } from "./fake-context.js";

/** A typed prompt's line as 2.1.328 writes it, with its prompt id. */
const typedLine = (text: string, promptId: string) =>
  JSON.stringify({ ...JSON.parse(prompt(text)), promptId, origin: { kind: "human" }, promptSource: "typed" });
/** A background job's notification, as Claude Code writes it (UserPromptSubmit ran for it as for a typed prompt). */
const notificationLine = (text: string, promptId: string) =>
  JSON.stringify({
    ...JSON.parse(prompt(text)),
    promptId,
    origin: { kind: "task-notification" },
    promptSource: "system",
    turnOrigin: "task_notification",
  });

const submit = (ctx: FakeContext, transcript: string, text: string, promptId: string) =>
  userPromptSubmit(
    { session_id: SESSION, transcript_path: transcript, hook_event_name: "UserPromptSubmit", prompt: text, prompt_id: promptId },
    ctx,
  );
/** A Bash call with no report: refused exactly when the main scope is gated. */
const refused = async (ctx: FakeContext, transcript: string) =>
  denyReason(await preToolUse(preInput("Bash", { command: "true" }, { transcript }), ctx)) !== undefined;

describe("UserPromptSubmit", () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.remove());

  it("vouches for the prompt under a digest of its id, starts no task, logs the vouch", async () => {
    dir = tempDir();
    const ctx = fakeContext();
    await submit(ctx, dir.file("t.jsonl", ""), "fix the bug", "p1");
    const state = ctx.state()!;
    expect(Object.keys(state.prompts!)).toEqual([promptKey("p1")]);
    expect(JSON.stringify(state)).not.toContain('"p1"');
    expect(state.main).toMatchObject({ task: 0, step: 0, awaitingActivation: true, awaitingPrompt: promptKey("p1") });
    expect(ctx.records).toMatchObject([{ event: "UserPromptSubmit", decision: "observed", promptId: promptKey("p1") }]);
    expect(ctx.records[0]!.switched).toBeUndefined();
  });

  it("/utility on gates at once, before its line is written, and the record says it switched", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", "");
    const ctx = fakeContext();
    await submit(ctx, transcript, "/utility on", "p1");
    expect(ctx.state()!.manualGate).toBe(true);
    expect(ctx.records.at(-1)).toMatchObject({ switch: "on", switched: "on" });
    expect(await refused(ctx, transcript)).toBe(true);
  });

  it("/utility on gates whatever its line turns out to be (it only tightens)", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", "");
    const ctx = fakeContext();
    await submit(ctx, transcript, "/utility on", "p1");
    appendFileSync(transcript, jsonl([notificationLine("/utility on", "p1")]));
    expect(await refused(ctx, transcript)).toBe(true);
    expect(ctx.state()!.manualGate).toBe(true);
  });

  it("/utility off waits for its typed line; a notification's line of the same text switches nothing", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", "");
    const ctx = fakeContext();
    await submit(ctx, transcript, "/utility on", "p1");
    appendFileSync(transcript, jsonl([typedLine("/utility on", "p1")]));
    await submit(ctx, transcript, "/utility off", "p2");
    expect(ctx.state()!.manualGate).toBe(true);
    appendFileSync(transcript, jsonl([notificationLine("/utility off", "p2")]));
    expect(await refused(ctx, transcript)).toBe(true);
    await submit(ctx, transcript, "/utility off", "p3");
    appendFileSync(transcript, jsonl([typedLine("/utility off", "p3")]));
    expect(await refused(ctx, transcript)).toBe(false);
    expect(ctx.state()!.manualGate).toBe(false);
    // The hook that read the line logged the switch.
    expect(ctx.records.filter((r) => r.switched === "off")).toHaveLength(1);
  });

  it("a switch applies only over an older one: an off vouched before an on, whose line is read after it, does not undo it", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", "");
    const ctx = fakeContext();
    await submit(ctx, transcript, "/utility off", "p1");
    await submit(ctx, transcript, "/utility on", "p2");
    appendFileSync(transcript, jsonl([typedLine("/utility off", "p1"), typedLine("/utility on", "p2")]));
    expect(await refused(ctx, transcript)).toBe(true);
    expect(ctx.state()!.manualGate).toBe(true);
    expect(ctx.records.filter((r) => r.switched === "off")).toEqual([]);
  });

  it("a line nobody vouched for (a shell appended it) switches nothing, even /utility off with a vouched prompt's text", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", "");
    const ctx = fakeContext();
    await submit(ctx, transcript, "/utility on", "p1");
    appendFileSync(transcript, jsonl([typedLine("/utility on", "p1"), typedLine("/utility off", "p-forged")]));
    expect(await refused(ctx, transcript)).toBe(true);
    expect(ctx.state()!.main.task).toBe(1);
  });
});
