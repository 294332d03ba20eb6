/**
 * A prompt whose transcript line can never be read (issue 31, hole 17): the
 * transcript was replaced by a link (to /dev/zero here). The prompt is taken
 * by its text, so the user's next task starts and its ungated calls go on;
 * a notification starts nothing, `/utility off` switches nothing, and a
 * gated skill (typed as a slash command, or loaded by the Skill tool) gates,
 * its calls refused with the reason. A transcript that can be read changes nothing.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import { stopHook } from "../../src/hooks/stop.js";
import { tempDir, type TempDir } from "../transcript/helpers.js";
import { denyReason, fakeContext, preInput, seedMainGate, SESSION, source, type FakeContext } from "./fake-context.js";

let dir: TempDir | undefined;
afterEach(() => dir?.remove());

/** A session whose first task was gated by a skill, and whose transcript is now a link to /dev/zero. */
function afterGatedTask(): { ctx: FakeContext; transcript: string; project: string } {
  dir = tempDir();
  const project = join(dir.path, "project");
  const skillFile = join(project, ".claude", "skills", "gated", "SKILL.md");
  mkdirSync(join(project, ".claude", "skills", "gated"), { recursive: true });
  writeFileSync(skillFile, "---\nname: gated\nutility_gated: true\n---\nGated.\n");
  const transcript = join(dir.path, "t.jsonl");
  symlinkSync("/dev/zero", transcript);
  const ctx = fakeContext();
  ctx.skills.set(skillFile, source(skillFile));
  seedMainGate(ctx, source(skillFile), (s) => {
    s.main.task = 1;
    s.main.step = 2;
  });
  return { ctx, transcript, project };
}

const submit = (ctx: FakeContext, transcript: string, prompt: string, promptId: string, cwd = "/tmp") =>
  userPromptSubmit(
    { session_id: SESSION, transcript_path: transcript, cwd, hook_event_name: "UserPromptSubmit", prompt, prompt_id: promptId },
    ctx,
  );

const bash = (ctx: FakeContext, transcript: string) => preToolUse(preInput("Bash", { command: "ls" }, { transcript }), ctx);

describe("a prompt whose transcript is a link", () => {
  it("a typed prompt starts the next task: its ungated call goes on, and the user is told why", async () => {
    const { ctx, transcript } = afterGatedTask();
    expect(denyReason(await bash(ctx, transcript))).toContain("is a symbolic link, so no report can be read");
    await submit(ctx, transcript, "list the files", "p2");
    expect(ctx.state()!.main).toMatchObject({ task: 2, step: 0 });
    expect(ctx.records.at(-1)).toMatchObject({ event: "UserPromptSubmit", reason: expect.stringContaining("is a symbolic link") });
    const answer = await bash(ctx, transcript);
    expect(denyReason(answer)).toBeUndefined();
    expect(answer.output?.systemMessage).toContain("this scope is not gated, so the call goes on");
  });

  it("a <task-notification> starts nothing: the gated task goes on refusing", async () => {
    const { ctx, transcript } = afterGatedTask();
    await submit(ctx, transcript, "<task-notification>\n<task-id>b1</task-id>\n</task-notification>", "p2");
    expect(ctx.state()!.main.task).toBe(1);
    expect(denyReason(await bash(ctx, transcript))).toContain("is a symbolic link");
  });

  it("/utility off switches nothing unseen; /utility on gates the next task", async () => {
    const { ctx, transcript } = afterGatedTask();
    await submit(ctx, transcript, "/utility on", "p2");
    await submit(ctx, transcript, "/utility off", "p3");
    expect(ctx.state()!.manualGate).toBe(true);
    await submit(ctx, transcript, "go on", "p4");
    expect(ctx.state()!.main.task).toBe(2);
    expect(denyReason(await bash(ctx, transcript))).toContain("is a symbolic link");
  });

  it("a typed slash command of a gated skill gates its task at once", async () => {
    const { ctx, transcript, project } = afterGatedTask();
    await submit(ctx, transcript, "/gated check it", "p2", project);
    expect(ctx.state()!.main.task).toBe(2);
    expect(denyReason(await bash(ctx, transcript))).toContain("is a symbolic link");
  });

  it("a Skill call of a gated skill is refused with the reason; one of an ungated skill goes on", async () => {
    const { ctx, transcript, project } = afterGatedTask();
    await submit(ctx, transcript, "list the files", "p2");
    const skill = (name: string) => preToolUse({ ...preInput("Skill", { skill: name }, { transcript }), cwd: project }, ctx);
    expect(denyReason(await skill("gated"))).toContain("is a symbolic link, so no report can be read");
    expect(denyReason(await skill("some-other"))).toBeUndefined();
  });

  it("the Stop hook does not wait for lines that cannot come", async () => {
    const { ctx, transcript } = afterGatedTask();
    const answer = await stopHook(
      {
        session_id: SESSION,
        transcript_path: transcript,
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: "Done.",
      },
      ctx,
      "Stop",
    );
    expect(ctx.finals).toEqual([]);
    expect(answer.output?.systemMessage).toContain("is a symbolic link");
  });

  it("a transcript that can be read: the prompt waits for its line, as before", async () => {
    dir = tempDir();
    const ctx = fakeContext();
    await submit(ctx, dir.file("t.jsonl", ""), "fix it", "p1");
    expect(ctx.state()!.main).toMatchObject({ task: 0, awaitingActivation: true });
  });
});
