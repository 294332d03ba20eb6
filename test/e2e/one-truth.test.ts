/**
 * One truth in the real client (SPEC §15, issue 19): a session with a gated
 * skill and a subagent, the scripted model reporting a different usage on
 * every reply. `/utility status`, `utility status --json`, `utility report
 * --json`, `utility log --json`, `utility replay --json` and the budget the
 * gate checks all show the same tokens, equal to the usage the model sent.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_ROOT } from "../support/paths.js";
import { assertRunOk, type RunClaudeResult } from "./support/claude.js";
import { routeByPrompt, text, toolUse, type RecordedRequest } from "./support/scripted-model.js";
import { activate, dataDirOf, gateRun, id, markerDir, ok, ran, stateOf, touch } from "./gate/support.js";

interface Counts {
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
}

/** Every main and subagent reply reports its own usage: the turn's number shows in each count. */
function usageOf(req: RecordedRequest) {
  const n = (req.turn ?? 0) + 1 + (req.kind === "subagent" ? 100 : 0);
  return { input_tokens: 1000 + n, output_tokens: 7 + n, cache_creation_input_tokens: 50 * n, cache_read_input_tokens: 2000 + n };
}

/** What the model sent: each main or subagent reply once, with the output count of its last event. */
function sent(run: RunClaudeResult): Counts {
  const replies = run.requests.filter((r) => (r.kind === "main" || r.kind === "subagent") && r.reply !== undefined);
  const total = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };
  for (const r of replies) {
    const u = usageOf(r);
    total.input += u.input_tokens;
    total.output += u.output_tokens;
    total.cacheCreation += u.cache_creation_input_tokens;
    total.cacheRead += u.cache_read_input_tokens;
  }
  return total;
}

function cliJson(run: RunClaudeResult, args: string[]): any {
  const out = spawnSync(process.execPath, [join(PLUGIN_ROOT, "dist", "cli.js"), ...args, "--json"], {
    encoding: "utf8",
    env: { ...process.env, HOME: run.home, UTILITY_DATA_DIR: dataDirOf(run) },
  });
  expect(out.stderr).toBe("");
  return JSON.parse(out.stdout);
}

describe("status, report, log, replay and the budgets tell one truth about a session's spend", () => {
  const marks = markerDir();
  const ids = { agent: id("truth_agent"), sub: id("truth_sub"), verify: id("truth_verify") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "do the work",
      usage: usageOf,
      script: [
        [activate()],
        [
          text(ok("delegate", "A helper does part of it.")),
          toolUse(
            "Agent",
            { subagent_type: "general-purpose", description: "Part", prompt: "SUBTASK-TRUTH: touch it", run_in_background: false },
            ids.agent,
          ),
        ],
        [text(ok("verify", "Check the rest.")), touch(join(marks, "verify"), ids.verify)],
        [text("Done: both parts.")],
      ],
      subagentScript: routeByPrompt([["SUBTASK-TRUTH", [[text("On it."), touch(join(marks, "sub"), ids.sub)], [text("SUB-DONE.")]]]]),
    });
  });
  afterAll(() => run?.cleanup());

  it("the session ran as scripted: the gated steps, the subagent's call", () => {
    assertRunOk(run);
    expect(ran(join(marks, "verify"))).toBe(true);
    expect(ran(join(marks, "sub"))).toBe(true);
  });

  it("the state, status --json, report --json, log --json and replay --json all count what the model sent", () => {
    const expected = sent(run);
    expect(expected.output).toBeGreaterThan(0);
    expect(stateOf(run).spend.tokens).toEqual(expected);
    expect(cliJson(run, ["status", "--session", run.sessionId!]).spend.tokens).toEqual(expected);
    expect(cliJson(run, ["report", run.sessionId!]).spend.tokens).toEqual(expected);
    expect(cliJson(run, ["log", run.sessionId!]).spend.tokens).toEqual(expected);
    expect(cliJson(run, ["replay", run.transcriptPath!]).totals.spend.tokens).toEqual(expected);
  });

  it("the dollars agree too", () => {
    const status = cliJson(run, ["status", "--session", run.sessionId!]).spend.costUsd;
    expect(status).toBeGreaterThan(0);
    expect(cliJson(run, ["report", run.sessionId!]).spend.costUsd).toBeCloseTo(status, 10);
    expect(cliJson(run, ["replay", run.transcriptPath!]).totals.spend.costUsd).toBeCloseTo(status, 10);
  });
});
