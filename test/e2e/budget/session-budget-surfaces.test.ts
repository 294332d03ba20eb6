/**
 * A session budget the user set (issue 34, surprise 1), on every surface in
 * the real client: with `session_max_tool_calls` 2 and an ungated session of
 * three calls, the third is refused, and `/utility status` (typed in the
 * same session), `utility report` (text, --json) and its HTML page each say
 * the session's budget and what is spent against it, labelled as the
 * session's, not the task's.
 */
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { cli } from "../../support/cli-io.js";
import { assertRunOk, homeWithOptions, runClaude, type RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { dataDirOf, id, logOf, markerDir, touch } from "../gate/support.js";

const BLOCKED = "UserPromptExpansion operation blocked by hook:\n";
const SESSION_LINE = /session, every task and subagent: .*tool calls 2 of 2 \(100%, SPENT: further tool calls are refused\)/;

describe("session_max_tool_calls 2, an ungated session of three calls", () => {
  const marks = markerDir();
  const ids = [1, 2, 3].map((n) => id(`sess${n}`));
  let run: RunClaudeResult;
  let status: RunClaudeResult;

  beforeAll(async () => {
    run = await runClaude({
      prompt: "three steps",
      pluginDir: ROOT,
      home: homeWithOptions({ session_max_tool_calls: 2 }),
      allowedTools: ["Bash"],
      timeoutMs: 120_000,
      script: [...ids.map((call, i) => [touch(join(marks, String(i)), call)]), [text("Done.")]],
    });
    status = await runClaude({
      prompt: "/utility status",
      pluginDir: ROOT,
      home: run.home,
      cwd: run.cwd,
      extraArgs: ["--resume", run.sessionId!],
      whenExhausted: "error",
      script: [],
    });
  }, 180_000);
  afterAll(() => {
    status?.cleanup();
    run?.cleanup();
  });

  it("refuses the third call with the session's budget named", () => {
    const third = logOf(run).find((r) => r.event === "PreToolUse" && r.toolUseId === ids[2]);
    expect(third).toMatchObject({ decision: "refused", rule: "budget_spent" });
    expect(third!.reason).toContain("session_max_tool_calls");
  });

  it("/utility status says the session's budget and its spend", () => {
    const result = assertRunOk(status);
    expect(result.result!.startsWith(BLOCKED)).toBe(true);
    expect(result.result).toMatch(SESSION_LINE);
  });

  it("utility report says it in text and JSON, as status does", async () => {
    const env = { env: { UTILITY_DATA_DIR: dataDirOf(run) } };
    const shown = await cli(["report", run.sessionId!], env);
    expect(shown.stdout).toMatch(SESSION_LINE);
    const json = JSON.parse((await cli(["report", run.sessionId!, "--json"], env)).stdout);
    expect(json.sessionBudgets.budgets).toEqual({ sessionMaxToolCalls: 2 });
    expect(json.sessionBudgets.spent.toolCalls).toBe(2);
    expect(json.sessionBudgets.text).toMatch(/tool calls 2 of 2/);
  });

  it("the HTML report says it too", async () => {
    const file = join(run.home, "report.html");
    const written = await cli(["report", run.sessionId!, "--html", file], { env: { UTILITY_DATA_DIR: dataDirOf(run) } });
    expect(written.code).toBe(0);
    const html = readFileSync(file, "utf8");
    expect(html).toMatch(/<p class="session-budgets"><b>Session, every task and subagent:<\/b> [^<]*tool calls 2 of 2 \(100%, SPENT/);
  });
});
