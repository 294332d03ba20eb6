import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processContext } from "../../src/hooks/context.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import { describeAgainstBudgets } from "../../src/summary/budget-status.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { zeroSpend } from "../../src/engine/spend.js";
import { cli } from "../support/cli-io.js";

let dir: string;
let env: Record<string, string>;
const session = "sess-spend";

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "utility-status-spend-"));
  env = { UTILITY_DATA_DIR: join(dir, "data"), HOME: dir };
  await userPromptSubmit(
    { session_id: session, transcript_path: join(dir, "t.jsonl"), hook_event_name: "UserPromptSubmit", prompt: "go" },
    processContext(env),
  );
  // The call's message and its usage, as Claude Code writes it before the hook runs: the reducer counts it into the scope's spend.
  const line = {
    type: "assistant",
    uuid: "u1",
    sessionId: session,
    message: {
      id: "m1",
      model: "claude-sonnet-4-5",
      role: "assistant",
      content: [{ type: "tool_use", id: "tu1", name: "Read", input: { file_path: "/x" } }],
      usage: { input_tokens: 400, output_tokens: 20, cache_creation_input_tokens: 1000, cache_read_input_tokens: 0 },
    },
  };
  writeFileSync(join(dir, "t.jsonl"), `${JSON.stringify(line)}\n`);
  await preToolUse(
    {
      session_id: session,
      transcript_path: join(dir, "t.jsonl"),
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_use_id: "tu1",
      tool_input: { file_path: "/x" },
    },
    processContext(env),
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("/utility status shows spend against each budget per scope", () => {
  it("with no budget: the spend, and that no budget is set", async () => {
    const r = await cli(["command", "status", "--session", session], { env });
    expect(r.stdout).toContain(
      "  spent by this scope: 1,420 tokens, about $0.0075, 1 tool call, 0 subagents launched; by its task: 1,420 tokens, about $0.0075, 1 tool call, 0 subagents launched; no task budget set",
    );
  });

  it("against the user's budgets from CLAUDE_PLUGIN_OPTION_*", async () => {
    const r = await cli(["status", "--session", session], {
      env: {
        ...env,
        CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "1000",
        CLAUDE_PLUGIN_OPTION_MAX_AGENTS: "2",
        CLAUDE_PLUGIN_OPTION_COST_BUDGET_USD: "1",
      },
    });
    expect(r.stdout).toContain("tokens 1,420 of 1,000 (142%, SPENT: further tool calls are refused)");
    expect(r.stdout).toContain("cost about $0.0075 of $1.00 (0%)");
    expect(r.stdout).toContain("agents 0 of 2");
  });

  it("from a shell (no CLAUDE_PLUGIN_OPTION_*): against the budgets in the user's settings file, the session's included", async () => {
    const data = join(dir, ".claude", "plugins", "data", "utility-utility-marketplace");
    cpSync(join(dir, "data"), data, { recursive: true });
    const options = { token_budget: "1000", session_token_budget: "200" };
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ pluginConfigs: { "utility@utility-marketplace": { options } } }));
    const r = await cli(["status", "--session", session], { env: { HOME: dir, UTILITY_DATA_DIR: data } });
    expect(r.stdout).toContain("tokens 1,420 of 1,000 (142%, SPENT: further tool calls are refused)");
    expect(r.stdout).toMatch(/session, every task and subagent: 1,420 tokens, [^\n]*tokens 1,420 of 200 \(710%, SPENT/);
  });

  it("against the user's budgets the hooks saw, without that environment (the /utility command's ! injection has none)", async () => {
    await preToolUse(
      {
        session_id: session,
        transcript_path: join(dir, "t.jsonl"),
        hook_event_name: "PreToolUse",
        tool_name: "Grep",
        tool_input: { pattern: "y" },
      },
      processContext({ ...env, CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "5000" }),
    );
    const r = await cli(["command", "status", "--session", session], { env });
    expect(r.stdout).toContain("task: 1,420 tokens, about $0.0075, 2 tool calls, 0 subagents launched; tokens 1,420 of 5,000 (28%)");
  });

  it("a subagent's spend counts in its root task's line", async () => {
    const agentDir = join(dir, session, "subagents");
    mkdirSync(agentDir, { recursive: true });
    const line = {
      type: "assistant",
      uuid: "s1",
      sessionId: session,
      isSidechain: true,
      agentId: "a1",
      message: {
        id: "sm1",
        model: "claude-haiku-4-5",
        role: "assistant",
        content: [{ type: "tool_use", id: "stu1", name: "Read", input: { file_path: "/y" } }],
        usage: { input_tokens: 80, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    };
    writeFileSync(join(agentDir, "agent-a1.jsonl"), `${JSON.stringify(line)}\n`);
    await preToolUse(
      {
        session_id: session,
        transcript_path: join(dir, "t.jsonl"),
        hook_event_name: "PreToolUse",
        agent_id: "a1",
        agent_type: "general-purpose",
        tool_name: "Read",
        tool_use_id: "stu1",
        tool_input: { file_path: "/y" },
      },
      processContext(env),
    );
    const r = await cli(["command", "status", "--session", session], { env });
    expect(r.stdout).toMatch(/subagent a1 \(general-purpose\)[^\n]*\n {2}spent by this scope: 80 tokens, [^;]*; by its task: 1,500 tokens/);
  });

  it("an invalid budget setting is shown by name", async () => {
    const r = await cli(["status", "--session", session], { env: { ...env, CLAUDE_PLUGIN_OPTION_MAX_AGENTS: "lots" } });
    expect(r.stdout).toContain(
      'INVALID settings: your utility@<marketplace> setting max_agents is the string "lots"; expected a whole number of at least 0.',
    );
  });
});

it("describeAgainstBudgets: agents at the limit, StepCost computed", () => {
  const spend = { ...zeroSpend(), agentsLaunched: 2 };
  expect(describeAgainstBudgets(spend, { maxAgents: 2, stepCost: "computed" }, DEFAULT_PRICES)).toBe(
    "0 tokens, about $0, 0 tool calls, 2 subagents launched; agents 2 of 2 (no more may launch); StepCost computed from measured spend",
  );
});

it("with no session yet: says a first prompt writes one, and names only folders that exist (second first-hour walk, surprise 7)", async () => {
  const home = mkdtempSync(join(tmpdir(), "utility-status-none-"));
  try {
    const none = await cli(["status"], { env: { HOME: home } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no session has reached the plugin yet: a session's first prompt writes one");
    const data = join(home, ".claude", "plugins", "data", "utility-utility-marketplace");
    mkdirSync(data, { recursive: true });
    const empty = await cli(["status"], { env: { HOME: home } });
    expect(empty.stderr).toContain(`no session has reached the plugin yet in ${join(data, "sessions")}: `);
    expect(empty.stderr).not.toContain(join(home, ".claude", "plugins", "data", "utility", "sessions"));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
