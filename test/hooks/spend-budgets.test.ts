// PreToolUse enforces budgets on the root task's measured spend (SPEC §12)
// and records each call's message usage (SPEC §8). Real transcript files, the
// real reader, the handler in process; the user's budgets as the hook's env.
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import { assistant, call, jsonl, prompt, result, tempDir, type TempDir } from "../transcript/helpers.js";
import { fakeContext, preInput, SESSION } from "./fake-context.js";

function withUsage(line: string, input: number, output = 0): string {
  const json = JSON.parse(line);
  json.message.usage = { input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  return JSON.stringify(json);
}

const denied = (r: { output?: Record<string, unknown> }) => JSON.stringify(r.output ?? {}).includes('"permissionDecision":"deny"');

describe("budgets on the root task's measured spend", () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.remove());

  it("the user's token budget refuses an ungated call once the task's tokens reach it; the records carry each message's usage", async () => {
    dir = tempDir();
    const transcript = dir.file(
      "t.jsonl",
      jsonl([prompt("go"), withUsage(assistant("m1", [call("t1", "Bash", { command: "a" })]), 600, 4)]),
    );
    const ctx = fakeContext();
    ctx.env.CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET = "1000";
    expect(denied(await preToolUse(preInput("Bash", { command: "a" }, { id: "t1", transcript }), ctx))).toBe(false);
    appendFileSync(transcript, `${result("t1")}\n${withUsage(assistant("m2", [call("t2", "Bash", { command: "b" })]), 500)}\n`);
    const second = await preToolUse(preInput("Bash", { command: "b" }, { id: "t2", transcript }), ctx);
    expect(denied(second)).toBe(true);
    expect(JSON.stringify(second.output)).toContain("This task's token budget is spent: 1,104 tokens of 1,000");
    const pre = ctx.records.filter((r) => r.event === "PreToolUse");
    expect(pre.map((r) => [r.decision, r.rule])).toEqual([
      ["observed", undefined],
      ["refused", "budget_spent"],
    ]);
    expect(pre[0]!.spend).toEqual({
      messageId: "m1",
      model: "claude-opus-4-6",
      tokens: { input: 600, output: 4, cacheCreation: 0, cacheRead: 0 },
    });
    expect(ctx.records.find((r) => r.event === "Outcome")!.spend).toMatchObject({ messageId: "m1", tokens: { input: 600 } });
    expect(ctx.state()!.userBudgets).toEqual({ tokenBudget: 1000 });
  });

  it("without budgets nothing is refused for spend, and no budget is kept in state", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", jsonl([prompt("go"), withUsage(assistant("m1", [call("t1", "Bash", { command: "a" })]), 1e6)]));
    const ctx = fakeContext();
    expect(denied(await preToolUse(preInput("Bash", { command: "a" }, { id: "t1", transcript }), ctx))).toBe(false);
    expect(ctx.state()!.userBudgets).toBeUndefined();
  });

  it("max_agents: parallel launches of one message count one each; a subagent's own launches count against the root task", async () => {
    dir = tempDir();
    const launch = (id: string) => call(id, "Agent", { prompt: id });
    const transcript = dir.file("t.jsonl", jsonl([prompt("go"), assistant("m1", [launch("g1"), launch("g2")])]));
    mkdirSync(join(dirname(transcript), SESSION, "subagents"), { recursive: true });
    dir.file(`${SESSION}/subagents/agent-a1.jsonl`, jsonl([prompt("g1"), assistant("s1", [launch("n1")])]));
    // One after the other here (the hooks of one message run as separate processes; test/e2e/gate/spend.test.ts runs them in parallel under the real lock).
    const ctx = fakeContext();
    ctx.env.CLAUDE_PLUGIN_OPTION_MAX_AGENTS = "2";
    for (const id of ["g1", "g2"]) expect(denied(await preToolUse(preInput("Agent", { prompt: id }, { id, transcript }), ctx))).toBe(false);
    ctx.env.CLAUDE_PLUGIN_OPTION_MAX_AGENTS = "3";
    const nested = await preToolUse(
      preInput("Agent", { prompt: "n1" }, { id: "n1", transcript, agent: { id: "a1", type: "general-purpose" } }),
      ctx,
    );
    expect(denied(nested)).toBe(false);
    ctx.env.CLAUDE_PLUGIN_OPTION_MAX_AGENTS = "2";
    appendFileSync(transcript, `${assistant("m2", [launch("g3")])}\n`);
    const third = await preToolUse(preInput("Agent", { prompt: "g3" }, { id: "g3", transcript }), ctx);
    expect(denied(third)).toBe(true);
    expect(JSON.stringify(third.output)).toContain("This task may launch 2 subagents (your max_agents setting) and has launched 3");
  });

  it("a subagent still running in an earlier task counts toward that task, not the new one", async () => {
    dir = tempDir();
    const transcript = dir.file("t.jsonl", jsonl([prompt("go"), assistant("m1", [call("g1", "Agent", { prompt: "x" })])]));
    mkdirSync(join(dirname(transcript), SESSION, "subagents"), { recursive: true });
    const sub = dir.file(
      `${SESSION}/subagents/agent-a1.jsonl`,
      jsonl([prompt("x"), withUsage(assistant("s1", [call("s1r", "Read", { file_path: "/a" })]), 900)]),
    );
    const ctx = fakeContext();
    ctx.env.CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET = "1000";
    await preToolUse(preInput("Agent", { prompt: "x" }, { id: "g1", transcript }), ctx);
    await preToolUse(preInput("Read", { file_path: "/a" }, { id: "s1r", transcript, agent: { id: "a1", type: "general-purpose" } }), ctx);
    appendFileSync(transcript, `${result("g1")}\n${prompt("next")}\n`);
    await userPromptSubmit({ session_id: SESSION, transcript_path: transcript, hook_event_name: "UserPromptSubmit", prompt: "next" }, ctx);
    appendFileSync(transcript, `${assistant("m2", [call("t2", "Bash", { command: "b" })])}\n`);
    expect(denied(await preToolUse(preInput("Bash", { command: "b" }, { id: "t2", transcript }), ctx))).toBe(false);
    expect(ctx.state()!.main.task).toBe(ctx.state()!.agents.a1!.rootTask! + 1);
    appendFileSync(sub, `${result("s1r")}\n${withUsage(assistant("s2", [call("s2r", "Read", { file_path: "/b" })]), 200)}\n`);
    const late = await preToolUse(
      preInput("Read", { file_path: "/b" }, { id: "s2r", transcript, agent: { id: "a1", type: "general-purpose" } }),
      ctx,
    );
    expect(denied(late)).toBe(true);
    expect(JSON.stringify(late.output)).toContain("1,100 tokens of 1,000");
  });
});
