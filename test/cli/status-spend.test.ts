import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processContext } from "../../src/hooks/context.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import type { LogRecord } from "../../src/log/record.js";
import { describeAgainstBudgets } from "../../src/summary/budget-status.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { zeroSpend } from "../../src/engine/spend.js";
import { sessionLogPath } from "../../src/state/paths.js";
import { cli } from "../support/cli-io.js";

let dir: string;
let env: Record<string, string>;
const session = "sess-spend";

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "utility-status-spend-"));
  env = { UTILITY_DATA_DIR: join(dir, "data"), HOME: dir };
  await userPromptSubmit({ session_id: session, transcript_path: join(dir, "t.jsonl"), hook_event_name: "UserPromptSubmit", prompt: "go" }, processContext(env));
  writeFileSync(join(dir, "t.jsonl"), "");
  await preToolUse({ session_id: session, transcript_path: join(dir, "t.jsonl"), hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: "/x" } }, processContext(env));
  // The hooks do not write spend yet (the scope-state reducer will): a record carrying its message's usage, as they will.
  const record: LogRecord = {
    v: 1, time: "2026-01-01T00:00:00.000Z", event: "PostToolUse", session, scope: "self", task: 1, step: 1, maxSteps: 10, lambdas: [1, 0.5, 0.8], decision: "observed", gated: false, latencyMs: 1,
    spend: { messageId: "m1", model: "claude-sonnet-4-5", tokens: { input: 400, output: 20, cacheCreation: 1000, cacheRead: 0 } },
  };
  appendFileSync(sessionLogPath(join(dir, "data"), session), `${JSON.stringify(record)}\n`);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("/utility status shows spend against each budget per scope", () => {
  it("with no budget: the spend, and that no budget is set", async () => {
    const r = await cli(["command", "status", "--session", session], { env });
    expect(r.stdout).toContain("  spend: 1,420 tokens, about $0.0075, 1 tool call, 0 subagents launched; no budget set");
  });

  it("against the user's budgets from CLAUDE_PLUGIN_OPTION_*", async () => {
    const r = await cli(["status", "--session", session], { env: { ...env, CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "1000", CLAUDE_PLUGIN_OPTION_MAX_AGENTS: "2", CLAUDE_PLUGIN_OPTION_COST_BUDGET_USD: "1" } });
    expect(r.stdout).toContain("tokens 1,420 of 1,000 (142%, SPENT: further tool calls are refused)");
    expect(r.stdout).toContain("cost about $0.0075 of $1.00 (0%)");
    expect(r.stdout).toContain("agents 0 of 2");
  });

  it("an invalid budget setting is shown by name", async () => {
    const r = await cli(["status", "--session", session], { env: { ...env, CLAUDE_PLUGIN_OPTION_MAX_AGENTS: "lots" } });
    expect(r.stdout).toContain('INVALID budget setting: the plugin option max_agents (CLAUDE_PLUGIN_OPTION_MAX_AGENTS) is the string "lots"');
  });
});

it("describeAgainstBudgets: agents at the limit, StepCost computed", () => {
  const spend = { ...zeroSpend(), agentsLaunched: 2 };
  expect(describeAgainstBudgets(spend, { maxAgents: 2, stepCost: "computed" }, DEFAULT_PRICES)).toBe(
    "0 tokens, about $0, 0 tool calls, 2 subagents launched; agents 2 of 2 (no more may launch); StepCost computed from measured spend",
  );
});
