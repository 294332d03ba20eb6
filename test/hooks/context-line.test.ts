/**
 * The hooks' line (src/engine/context-line.ts) wherever the hooks give it
 * (issue 20): before the first call of a gated task (the Skill call that
 * activates a gated skill, the start of a gated subagent, a prompt that
 * starts a gated task), after a call that passes, and with the refusal of a
 * call that had no report. The handlers in process; skills are real files.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { subagentStart } from "../../src/hooks/subagent-start.js";
import { TRANSCRIPT_FILE_WAIT_MS } from "../../src/hooks/wait.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import type { GoverningText } from "../../src/transcript/queries.js";
import { assistant, call, jsonl, prompt, tempDir, type TempDir } from "../transcript/helpers.js";
import type { MemoryStateStore } from "../support/memory-store.js";
import {
  denyReason,
  draftSession,
  fakeContext,
  GOOD,
  NO_TRANSCRIPT,
  preInput,
  report,
  SESSION,
  seedMainGate,
  source,
  type FakeContext,
} from "./fake-context.js";

const OPUS = "claude-opus-4-6";
const contextOf = (result: { output?: unknown }) =>
  (result.output as { hookSpecificOutput?: { additionalContext?: string } } | undefined)?.hookSpecificOutput?.additionalContext;

/** A context whose calls were written by `model`, with real skill files under a project folder. */
function withModel(model: string | undefined, project?: string): FakeContext {
  const ctx = fakeContext();
  if (project) ctx.env = { CLAUDE_PROJECT_DIR: project };
  const plain = ctx.waitForText;
  ctx.waitForText = (ref, id): GoverningText => {
    const found = plain(ref, id);
    if (found.found) return model ? { ...found, model } : found;
    return {
      found: true,
      messageId: `msg_${id}`,
      text: "",
      textBlocks: [],
      toolUse: { type: "tool_use", id, name: "x", input: {} },
      toolUseIds: [id],
      offset: 0,
      ...(model ? { model } : {}),
    };
  };
  return ctx;
}

/** A project with skills: `gated` (utility_gated, 6 steps) and `plain`; the fake loader reads their opt-ins from the map. */
function project(dir: TempDir, ctx: FakeContext): string {
  const root = join(dir.path, "project");
  for (const [name, body] of Object.entries({
    gated: "---\nname: gated\ndescription: x\nutility_gated: true\nutility_max_steps: 6\n---\nBody.\n",
    plain: "---\nname: plain\ndescription: x\n---\nBody.\n",
  })) {
    mkdirSync(join(root, ".claude", "skills", name), { recursive: true });
    writeFileSync(join(root, ".claude", "skills", name, "SKILL.md"), body);
  }
  ctx.skills.set(
    join(root, ".claude", "skills", "gated", "SKILL.md"),
    source(join(root, ".claude", "skills", "gated", "SKILL.md"), { config: { maxSteps: 6 } }),
  );
  return root;
}

/** SubagentStart of one subagent of the session, whose main transcript is `transcript`. */
function startSubagent(ctx: FakeContext, agentType: string, agentId = "a1", transcript = NO_TRANSCRIPT) {
  return subagentStart(
    { session_id: SESSION, transcript_path: transcript, hook_event_name: "SubagentStart", agent_id: agentId, agent_type: agentType },
    ctx,
  );
}

/** An opus context that knows `p:plain`: an agent definition that opts in and names no model (it inherits its parent's). */
function withPlainGatedAgent(folder: TempDir): FakeContext {
  const ctx = withModel(OPUS);
  const plain = join(folder.path, "plain.md");
  writeFileSync(plain, "---\nname: plain\ndescription: x\nutility_gated: true\n---\nBody.\n");
  ctx.agents.set("p:plain", source(plain));
  return ctx;
}

describe("the line before a gated task's first call", () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.remove());

  it("a Skill call that activates a gated skill: the line of the scope as it will be, at the tier of the call's message", async () => {
    dir = tempDir();
    const ctx = withModel(OPUS);
    const root = project(dir, ctx);
    ctx.env = { CLAUDE_PROJECT_DIR: root };
    (ctx.store as MemoryStateStore).states.set(SESSION, draftSession());
    const result = await preToolUse({ ...preInput("Skill", { skill: "gated" }), cwd: root }, ctx);
    expect(contextOf(result)).toBe(
      "utility: 0 of 6 steps taken · opus · StepCost retrieve/verify/tool_call/delegate 0.29 · respond 0.29 · stop 0",
    );
    // It decides nothing: the skill still loads from its transcript line, as before.
    expect(ctx.records).toEqual([]);
    expect(ctx.state()!.main.sources).toEqual([]);
    expect(await preToolUse({ ...preInput("Skill", { skill: "plain" }), cwd: root }, ctx)).toEqual({});
  });

  it("without a known tier, no line (it would have no StepCost)", async () => {
    dir = tempDir();
    const ctx = withModel(undefined);
    const root = project(dir, ctx);
    ctx.env = { CLAUDE_PROJECT_DIR: root };
    expect(contextOf(await preToolUse({ ...preInput("Skill", { skill: "gated" }), cwd: root }, ctx))).toBeUndefined();
  });

  it("a subagent gated by its definition: its start tells it its line, on the definition's model, else its parent's", async () => {
    dir = tempDir();
    const ctx = withModel(OPUS);
    const cheap = join(dir.path, "cheap.md");
    const plain = join(dir.path, "plain.md");
    writeFileSync(cheap, "---\nname: cheap\ndescription: x\nmodel: haiku\nutility_gated: true\n---\nBody.\n");
    writeFileSync(plain, "---\nname: plain\ndescription: x\nutility_gated: true\n---\nBody.\n");
    ctx.agents
      .set("p:cheap", source(cheap))
      .set("p:plain", source(plain))
      .set("p:open", source(plain, { gated: false }));
    const state = draftSession();
    state.main.messageModels = { m1: "claude-sonnet-4-5" };
    (ctx.store as MemoryStateStore).states.set(SESSION, state);
    const start = (id: string, type: string) => startSubagent(ctx, type, id);
    expect(contextOf(await start("a1", "p:cheap"))).toBe(
      "utility: 0 of 10 steps taken · haiku · StepCost retrieve/verify/tool_call 0.029 · respond 0.029 · stop 0",
    );
    expect(contextOf(await start("a2", "p:plain"))).toBe(
      "utility: 0 of 10 steps taken · sonnet · StepCost retrieve/verify/tool_call 0.116 · respond 0.116 · stop 0",
    );
    expect(await start("a3", "general-purpose")).toEqual({});
  });

  it("a subagent that inherits its model, when the state knows none of the parent's: the main transcript's newest model", async () => {
    dir = tempDir();
    const ctx = withPlainGatedAgent(dir);
    const main = dir.file("main.jsonl", jsonl([prompt("go"), assistant("m1", [call("toolu_a", "Agent", { prompt: "x" })])]));
    const result = await startSubagent(ctx, "p:plain", "a1", main);
    expect(contextOf(result)).toMatch(/^utility: 0 of 10 steps taken · opus · StepCost retrieve\/verify\/tool_call 0\.29 /);
  });

  it("a subagent started before the session's first message is written: waits for that line, for its parent's model", async () => {
    dir = tempDir();
    const ctx = withPlainGatedAgent(dir);
    const main = dir.file("main.jsonl", jsonl([prompt("go")]));
    // Claude Code writes the message that launched the subagent a little later (it flushes every 100 ms): another
    // process appends it while the hook waits (the wait blocks this one).
    const line = jsonl([assistant("m1", [call("toolu_a", "Agent", { prompt: "x" })])]);
    const writer = spawn(process.execPath, [
      "-e",
      `setTimeout(() => require("fs").appendFileSync(${JSON.stringify(main)}, ${JSON.stringify(line)}), 150)`,
    ]);
    const result = await startSubagent(ctx, "p:plain", "a1", main);
    await new Promise((resolve) => writer.once("exit", resolve));
    expect(contextOf(result)).toMatch(/^utility: 0 of 10 steps taken · opus · /);
  });

  it("a subagent started before the main transcript's file is made: waits for the file, then for its parent's model", async () => {
    dir = tempDir();
    const ctx = withPlainGatedAgent(dir);
    const main = join(dir.path, "late.jsonl");
    // Claude Code makes the file at its first flush, 100 ms after the session's first line is queued.
    const lines = jsonl([prompt("go"), assistant("m1", [call("toolu_a", "Agent", { prompt: "x" })])]);
    // The writer says when it has started (a Node start takes long under load), then makes the file 100 ms later.
    const writer = spawn(process.execPath, [
      "-e",
      `process.stdout.write("ready"); setTimeout(() => require("fs").writeFileSync(${JSON.stringify(main)}, ${JSON.stringify(lines)}), 100)`,
    ]);
    await new Promise((resolve) => writer.stdout.once("data", resolve));
    const result = await startSubagent(ctx, "p:plain", "a1", main);
    await new Promise((resolve) => writer.once("exit", resolve));
    expect(contextOf(result)).toMatch(/^utility: 0 of 10 steps taken · opus · /);
  });

  it("a subagent whose main transcript is never made: waits at most TRANSCRIPT_FILE_WAIT_MS for it, and no line without a tier", async () => {
    const ctx = withModel(OPUS);
    ctx.agents.set("p:gated", source("/nonexistent/gated.md"));
    const started = Date.now();
    const result = await startSubagent(ctx, "p:gated");
    expect(Date.now() - started).toBeGreaterThanOrEqual(TRANSCRIPT_FILE_WAIT_MS - 10);
    expect(Date.now() - started).toBeLessThan(TRANSCRIPT_FILE_WAIT_MS + 700);
    expect(result).toEqual({});
  });

  it("a subagent started past the agent budget is told no tool call is left", async () => {
    const ctx = withModel(OPUS);
    ctx.env = { CLAUDE_PLUGIN_OPTION_MAX_AGENTS: "1" };
    ctx.agents.set("p:gated", source("/nonexistent/gated.md"));
    const state = draftSession();
    state.main.messageModels = { m1: OPUS };
    (ctx.store as MemoryStateStore).states.set(SESSION, state);
    const start = (id: string) => startSubagent(ctx, "p:gated", id);
    expect(contextOf(await start("a1"))).toContain("StepCost retrieve/verify/tool_call 0.29");
    expect(contextOf(await start("a2"))).toBe(
      // No budget notice: a subagent starts told its own caps only (SPEC §16), and it has none.
      "utility: 0 of 10 steps taken · opus · no tool call left · StepCost respond 0.29 · stop 0 · tokens 0 · agents 2/1",
    );
  });

  it("a prompt that starts a gated task: under /utility on, or a slash command of a gated skill; not a notification, not without a known tier", async () => {
    dir = tempDir();
    const ctx = withModel(OPUS);
    const root = project(dir, ctx);
    ctx.env = { CLAUDE_PROJECT_DIR: root };
    const submit = (prompt: string) =>
      userPromptSubmit(
        { session_id: SESSION, transcript_path: NO_TRANSCRIPT, cwd: root, hook_event_name: "UserPromptSubmit", prompt, prompt_id: prompt },
        ctx,
      );
    expect(await submit("/gated fix it")).toEqual({}); // a session's first prompt: no tier known yet
    const state = draftSession();
    state.main.step = 4;
    state.main.messageModels = { m1: "claude-sonnet-4-5" };
    (ctx.store as MemoryStateStore).states.set(SESSION, state);
    expect(contextOf(await submit("/gated fix it"))).toBe(
      "utility: 0 of 6 steps taken · sonnet · StepCost retrieve/verify/tool_call/delegate 0.116 · respond 0.116 · stop 0",
    );
    expect(await submit("/plain go")).toEqual({});
    expect(await submit("just a question")).toEqual({});
    // /utility on gates the current task now, at its step; a typed prompt then starts a gated task at step 0.
    expect(contextOf(await submit("/utility on"))).toBe(
      "utility: 4 of 10 steps taken · sonnet · StepCost retrieve/verify/tool_call/delegate 0.4 · respond 0.116 · stop 0",
    );
    expect(contextOf(await submit("next task"))).toMatch(/^utility: 0 of 10 steps taken · sonnet/);
    expect(await submit("<task-notification>\n<status>completed</status>\n</task-notification>")).toEqual({});
    expect(await submit("/utility status")).toEqual({});
  });
});

describe("the line after a call, and with a refusal", () => {
  it("a refused call that had no report carries the line; other refusals do not", async () => {
    const ctx = withModel(OPUS);
    seedMainGate(ctx, source("/skills/gated/SKILL.md"), (s) => void (s.main.step = 3));
    const bare = denyReason(await preToolUse(preInput("Bash"), ctx));
    expect(bare).toMatch(/^utility gate: No action report before this Bash call\./);
    expect(bare!.split("\n").at(-1)).toBe(
      "utility: 3 of 10 steps taken · opus · StepCost retrieve/verify/tool_call/delegate 0.503 · respond 0.29 · stop 0",
    );
    const wrong = preInput("Bash");
    ctx.texts.set(wrong.tool_use_id, report("verify", "0.99", GOOD));
    expect(denyReason(await preToolUse(wrong, ctx))).not.toContain("utility: ");
  });

  it("a passed call in dispatch scope: the StepCost carries the overhead of the agents launched", async () => {
    const ctx = withModel(OPUS);
    seedMainGate(ctx, source("/skills/d/SKILL.md", { scope: "dispatch" }), (s) => {
      s.main.step = 1;
      s.main.spend = { tokens: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 }, byModel: {}, toolCalls: 4, agentsLaunched: 4 };
    });
    const call = preInput("Bash");
    ctx.texts.set(call.tool_use_id, report("verify", "0.28", GOOD));
    // step 2 of 10 on opus, four agents launched: 0.71·0.2 + 0.29·1.0 + 0.1 = 0.532
    expect(contextOf(await preToolUse(call, ctx))).toBe(
      "utility: 2 of 10 steps taken · opus · StepCost retrieve/verify/tool_call/delegate 0.532 · respond 0.29 · stop 0",
    );
  });
});
