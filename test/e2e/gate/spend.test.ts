/**
 * Spend and budgets the code measures (SPEC §12), in the real client: the
 * scripted model reports `usage` on every reply, Claude Code writes it into
 * the transcripts, and the hooks' reducer counts it (each message once) for
 * the scope and for the task at the root of its tree. Budgets come from
 * frontmatter (gated scopes) and from the user's settings (`pluginConfigs`,
 * which reach the hooks as CLAUDE_PLUGIN_OPTION_*: every scope, gated or not).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, makeScratchHome, runClaude, type RunClaudeResult } from "../support/claude.js";
import { requestText, routeByPrompt, systemMessageTexts, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { ROOT } from "../../support/paths.js";
import { cli } from "../../support/cli-io.js";
import {
  activate,
  dataDirOf,
  expectPassed,
  expectRefused,
  gateRun,
  id,
  logOf,
  markerDir,
  ok,
  ran,
  recordOf,
  resultFor,
  stateOf,
  touch,
  type Rec,
} from "./support.js";

/** A reply's usage: `input` input tokens and 5 output tokens (the scripted model's output count). */
const tokens = (input: number) => ({ input_tokens: input, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });

/** A scratch HOME whose settings set the plugin's options, as the user does (plugin id `utility@inline` under --plugin-dir). */
function homeWithOptions(options: Record<string, unknown>): string {
  const home = makeScratchHome();
  const path = join(home, ".claude", "settings.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), pluginConfigs: { "utility@inline": { options } } }));
  return home;
}

const subagentRecords = (run: RunClaudeResult, tool: string): Rec[] =>
  logOf(run).filter((r) => r.event === "PreToolUse" && r.scope === "subagent" && r.tool === tool);

describe("a gated task with a token budget", () => {
  const marks = markerDir();
  const ids = [id("tok1"), id("tok2"), id("tok3"), id("tok4")];
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "spend it",
      fixtures: true,
      // Every reply reports 1000 input and 5 output tokens: 1005 a message.
      usage: () => tokens(1000),
      script: [
        [activate("ufix:token-budget")],
        ...ids.map((call, i) => [text(ok("verify")), touch(join(marks, String(i)), call)]),
        [text("Budget spent.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("runs its calls while the task's measured tokens are under the budget", () => {
    // The activation's message and each call's own message (its line is read before the call is decided): 2010, 3015, 4020.
    for (const [i, call] of ids.slice(0, 3).entries()) {
      expect(expectPassed(run, call)).toMatchObject({ step: i + 1, spend: { tokens: { input: 1000, output: 5 } } });
      expect(ran(join(marks, String(i)))).toBe(true);
    }
  });

  it("refuses the next call with budget_spent, the spend, the budget and what to do", () => {
    const said = expectRefused(run, ids[3]!, "Bash", "budget_spent");
    expect(said).toContain(
      "This task's token budget is spent: 5,025 tokens of 4,500 (utility_token_budget; input 5,000, output 25, cache writes 0, cache reads 0). Respond with what you have, or stop.",
    );
    expect(ran(join(marks, "3"))).toBe(false);
    // The final message is counted too when the Stop hook's scan finds its line (it does not wait for it here: nothing is pending).
    const spend = stateOf(run).main.spend;
    expect(spend).toMatchObject({ toolCalls: 3, agentsLaunched: 0 });
    expect([5000, 6000]).toContain(spend.tokens.input);
  });

  it("utility report shows tokens and cost per scope and in all, from the records' spend", async () => {
    const shown = await cli(["report", run.sessionId!, "--json"], { env: { UTILITY_DATA_DIR: dataDirOf(run) } });
    const report = JSON.parse(shown.stdout);
    const steps = report.spend.steps.filter((s: { tool?: string }) => s.tool === "Bash");
    // Each of the four calls' messages once: 1005 tokens each, priced at the model's family.
    expect(steps.filter((s: { total: number }) => s.total === 1005)).toHaveLength(4);
    // The session's spend at the top of every --json output (SPEC §9): its four counts, their total, and the cost.
    expect(report.spend.total).toBeGreaterThanOrEqual(4 * 1005);
    expect(Object.keys(report.spend.tokens).sort()).toEqual(["cacheCreation", "cacheRead", "input", "output"]);
    expect(report.spend.costUsd).toBeGreaterThan(0);
    const text = await cli(["report", run.sessionId!], { env: { UTILITY_DATA_DIR: dataDirOf(run) } });
    expect(text.stdout).toMatch(
      /^ {2}spend: [0-9,]+ tokens \(input [0-9,]+, output [0-9,]+, cache writes 0, cache reads 0\), about \$[0-9.]+$/m,
    );
  });

  it("tells the model its spend against the budget on the utility: line", () => {
    const afterSecond = run.model.mainRequests()[3]!; // the prompt, the Skill result, after the first call, after the second
    expect(systemMessageTexts(afterSecond, true).join("\n")).toMatch(
      /PreToolUse:Bash hook additional context: utility: 2 of 10 steps taken · [a-z]+ · StepCost retrieve\/verify\/tool_call\/delegate [0-9.]+ · respond [0-9.]+ · stop 0 · tokens 3k\/5k/,
    );
  });
});

describe("a dispatch skill with utility_max_agents: 2", () => {
  const calls = [id("agent1"), id("agent2"), id("agent3")];
  const subPrompt = (n: number) => `SUBTASK-${n}: report back`;
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "fan out",
      fixtures: true,
      script: [
        [activate("ufix:dispatch-budget")],
        [
          text(ok("delegate", "Three helpers in parallel.")),
          ...calls.map((call, i) =>
            toolUse(
              "Agent",
              { subagent_type: "general-purpose", description: `Part ${i + 1}`, prompt: subPrompt(i + 1), run_in_background: false },
              call,
            ),
          ),
        ],
        [text("Two helpers reported.")],
      ],
      subagentScript: () => [text("SUB-DONE")],
    });
  });
  afterAll(() => run?.cleanup());

  it("launching three in one message: two go on, the third is refused agents_exhausted", () => {
    const records = calls.map((call) => recordOf(run, call));
    const passed = records.filter((r) => r.decision === "passed");
    const refused = records.filter((r) => r.decision === "refused");
    expect(passed).toHaveLength(2);
    expect(refused).toHaveLength(1);
    const said = expectRefused(run, refused[0]!.toolUseId!, "Agent", "agents_exhausted");
    expect(said).toContain("This task may launch 2 subagents (utility_max_agents) and has launched 2: this Agent call would be one more.");
    for (const r of passed) expectPassed(run, r.toolUseId!);
    const launched = run.model.subagentRequests().map((r) => requestText(r));
    expect(launched.filter((t) => /SUBTASK-\d/.test(t)).length).toBeGreaterThanOrEqual(2);
    expect(stateOf(run).main.spend).toMatchObject({ agentsLaunched: 2 });
  });
});

describe("a subagent's usage counts toward its parent's budget", () => {
  const marks = markerDir();
  const ids = { agent: id("dagent"), sub: id("dsub"), after: id("dafter") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "delegate then continue",
      fixtures: true,
      // Main replies 1005 tokens each; the subagent's final message 4005: alone, the main scope stays under 6000.
      usage: (req: RecordedRequest) => (req.kind === "subagent" ? tokens(req.turn === 1 ? 4000 : 10) : tokens(1000)),
      script: [
        [activate("ufix:dispatch-budget")],
        [
          text(ok("delegate", "A helper does the heavy part.")),
          toolUse(
            "Agent",
            { subagent_type: "general-purpose", description: "Heavy", prompt: "HEAVY: do it", run_in_background: false },
            ids.agent,
          ),
        ],
        [text(ok("verify", "Check the result.")), touch(join(marks, "after"), ids.after)],
        [text("Over budget.")],
      ],
      subagentScript: [[toolUse("Bash", { command: "echo sub", description: "sub" }, ids.sub)], [text("SUB-FINAL: heavy part done.")]],
    });
  });
  afterAll(() => run?.cleanup());

  it("the parent's next call is refused budget_spent, its tokens including the subagent's", () => {
    expectPassed(run, ids.agent);
    const said = expectRefused(run, ids.after, "Bash", "budget_spent");
    // Main: 3 × 1005 = 3015; subagent: 15 + 4005 = 4020.
    expect(said).toContain("This task's token budget is spent: 7,035 tokens of 6,000");
    expect(ran(join(marks, "after"))).toBe(false);
    const state = stateOf(run);
    const [agent] = Object.values(state.agents) as any[];
    expect(agent.spend.tokens).toMatchObject({ input: 4010, output: 10 });
    // The main scope's final message may be counted by the Stop hook too.
    expect([3000, 4000]).toContain(state.main.spend.tokens.input);
  });
});

describe("the user's max_agents counts a subagent's own launches against the root task", () => {
  const ids = { top: id("top"), n1: id("nested1"), n2: id("nested2") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await runClaude({
      prompt: "go deep",
      pluginDir: ROOT,
      home: homeWithOptions({ max_agents: 2 }),
      allowedTools: ["Bash", "Read", "Agent"],
      whenExhausted: "error",
      script: [
        [
          toolUse(
            "Agent",
            { subagent_type: "general-purpose", description: "Top", prompt: "TOP: split it", run_in_background: false },
            ids.top,
          ),
        ],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([
        [
          "TOP:",
          [
            [
              toolUse(
                "Agent",
                { subagent_type: "general-purpose", description: "N1", prompt: "NESTED-1: go", run_in_background: false },
                ids.n1,
              ),
              toolUse(
                "Agent",
                { subagent_type: "general-purpose", description: "N2", prompt: "NESTED-2: go", run_in_background: false },
                ids.n2,
              ),
            ],
            [text("TOP-FINAL")],
          ],
        ],
      ]),
    });
  });
  afterAll(() => run?.cleanup());

  it("ungated: the top launch passes; of the subagent's two, one goes on and one is refused agents_exhausted", () => {
    assertRunOk(run);
    expect(recordOf(run, ids.top)).toMatchObject({ decision: "observed", gated: false, scope: "self" });
    const nested = subagentRecords(run, "Agent");
    expect(nested.map((r) => r.toolUseId).sort()).toEqual([ids.n1, ids.n2].sort());
    const refused = nested.filter((r) => r.decision === "refused");
    expect(nested.filter((r) => r.decision === "observed")).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ rule: "agents_exhausted", gated: false });
    expect(refused[0]!.reason).toContain("This task may launch 2 subagents (your max_agents setting) and has launched 2");
    const state = stateOf(run);
    expect(
      state.main.spend.agentsLaunched + (Object.values(state.agents) as any[]).reduce((s, a) => s + (a.spend?.agentsLaunched ?? 0), 0),
    ).toBe(2);
  });
});

describe("a budget in the user's settings, in an ungated session; /utility status shows the spend", () => {
  const marks = markerDir();
  const ids = { first: id("ufirst"), big: id("ubig"), next: id("unext") };
  let run: RunClaudeResult;
  let status: RunClaudeResult;

  beforeAll(async () => {
    const cwd = markerDir();
    writeFileSync(join(cwd, "notes.txt"), "notes\n");
    run = await runClaude({
      prompt: "work",
      pluginDir: ROOT,
      cwd,
      home: homeWithOptions({ token_budget: 2000 }),
      allowedTools: ["Bash", "Read"],
      whenExhausted: "error",
      // The second message is the big one: 3005 tokens. An ungated call does not wait for its own line, so only the call after it is certain to see it.
      usage: (req: RecordedRequest) => tokens(req.kind === "main" && req.turn === 1 ? 3000 : 10),
      script: [
        [touch(join(marks, "first"), ids.first)],
        [toolUse("Read", { file_path: join(cwd, "notes.txt") }, ids.big)],
        [touch(join(marks, "next"), ids.next)],
        [text("Stopped by the budget.")],
      ],
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
  });
  afterAll(() => {
    status?.cleanup();
    run?.cleanup();
  });

  it("refuses with budget_spent once the task's tokens reach it, though no skill gates the scope", () => {
    assertRunOk(run);
    expect(recordOf(run, ids.first)).toMatchObject({ decision: "observed", gated: false });
    expect(ran(join(marks, "first"))).toBe(true);
    const rec = recordOf(run, ids.next);
    expect(rec).toMatchObject({ decision: "refused", rule: "budget_spent", gated: false });
    // The budget came from the user's settings: the refusal names the setting they set.
    expect(rec.reason).toContain("tokens of 2,000 (your token_budget setting;");
    expect(ran(join(marks, "next"))).toBe(false);
    expect(resultFor(run.model.mainRequests(), ids.next)).toMatchObject({ is_error: true });
    expect(assertRunOk(run).permission_denials.map((d) => d.tool_use_id)).toContain(ids.next);
    // An ungated call does not wait for its own line: answered by the warm server, its PreToolUse record is usually
    // written before Claude Code flushes that line, and the message's spend comes with the step's Outcome record.
    expect(
      logOf(run).filter((r) => (r.event === "PreToolUse" || r.event === "Outcome") && r.spend !== undefined).length,
    ).toBeGreaterThanOrEqual(1);
  });

  it("/utility status shows the user the task's spend against their budget, with no model turn", () => {
    const shown = assertRunOk(status).result!;
    expect(status.model.mainRequests()).toEqual([]);
    expect(shown).toMatch(/main scope: task 1, step [12], [12] refused; not gated/);
    expect(shown).toMatch(
      /task: 3,0[0-9]{2} tokens, about \$[0-9.]+, [12] tool calls?, 0 subagents launched; tokens 3,0[0-9]{2} of 2,000 \(15[0-9]%, SPENT: further tool calls are refused\)/,
    );
  });
});
