/** The PostToolUse handler: a call that ran joins the scope's history (SPEC §7); a Skill call marks a possible activation. */
import { describe, expect, it } from "vitest";
import { postToolUse } from "../../src/hooks/post-tool-use.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { fakeContext, postInput, preInput } from "./fake-context.js";

describe("PostToolUse", () => {
  it("moves a passed call from pending to history, keeping where it ran", async () => {
    const ctx = fakeContext();
    const pre = preInput("Read", { file_path: "/a" });
    await preToolUse(pre, ctx);
    expect(Object.keys(ctx.state()!.main.pending)).toEqual([pre.tool_use_id]);
    await postToolUse(postInput(pre), ctx);
    const main = ctx.state()!.main;
    expect(main.pending).toEqual({});
    expect(main.history).toMatchObject([{ tool: "Read", at: 1, toolUseId: pre.tool_use_id, effect: { kind: "read", paths: ["/a"] } }]);
    // The step was logged when it was decided; PostToolUse adds its outcome, joined by tool_use_id.
    expect(ctx.records).toHaveLength(2);
    expect(ctx.records[1]).toMatchObject({
      event: "Outcome",
      toolUseId: pre.tool_use_id,
      step: 1,
      outcome: { result: "ran", learnedBy: "PostToolUse" },
    });
  });

  it("records a call it never saw decided (the plugin was enabled mid-task)", async () => {
    const ctx = fakeContext();
    await postToolUse(postInput(preInput("Bash", { command: "ls" })), ctx);
    expect(ctx.state()!.main.history).toMatchObject([{ tool: "Bash", effect: { kind: "exec" }, at: 0 }]);
  });

  it("marks a Skill call as a possible activation and ignores other neutral tools", async () => {
    const ctx = fakeContext();
    await postToolUse(postInput(preInput("Skill", { skill: "x" })), ctx);
    expect(ctx.state()!.main.awaitingActivation).toBe(true);
    await postToolUse(postInput(preInput("TodoWrite", { todos: [] })), ctx);
    expect(ctx.state()!.main.history).toEqual([]);
  });
});
