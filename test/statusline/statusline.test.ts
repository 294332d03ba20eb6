// `utility statusline` (SPEC §9): one line from the session machine's state,
// through its views (SPEC §15), for the JSON Claude Code hands a statusLine
// command. The built dist/statusline.js loads what it needs and no more.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { manualSource } from "../../src/engine/gate-policy.js";
import { reduceAll } from "../../src/engine/session/reduce.js";
import { newSession, type SessionState } from "../../src/engine/session/state.js";
import { sessionSpend } from "../../src/engine/session/views.js";
import { gateName, shortTokens, statusLine } from "../../src/statusline/line.js";
import { runStatusLine } from "../../src/statusline/run.js";
import { cli } from "../support/cli-io.js";
import { PLUGIN_ROOT } from "../support/paths.js";
import { tempDir } from "../transcript/helpers.js";

const spent = (messageId: string, input: number, output: number, model = "claude-opus-4-5") => ({
  kind: "scope" as const,
  scope: "main" as const,
  event: { kind: "usage" as const, messageId, model, tokens: { input, output, cacheCreation: 0, cacheRead: 0 }, toolUseIds: [] },
});

/** A session in task 2, two steps in, having spent 180,000 tokens; gated by /utility on when asked. */
function session(gated: boolean): SessionState {
  const start = { ...newSession("s1"), main: { ...newSession("s1").main, task: 1 } };
  return reduceAll(start, [
    { kind: "scope", scope: "main", event: { kind: "prompt", typed: true } },
    ...(gated ? [{ kind: "skill_loaded" as const, scope: "main" as const, source: manualSource() }] : []),
    spent("m1", 100_000, 50_000),
    {
      kind: "scope",
      scope: "main",
      event: {
        kind: "call",
        decision: "passed",
        tool: "Read",
        digest: "d1",
        effect: { kind: "read", paths: [] },
        toolUseId: "t1",
        action: "retrieve",
      },
    },
    spent("m2", 20_000, 10_000),
    {
      kind: "scope",
      scope: "main",
      event: { kind: "call", decision: "passed", tool: "Bash", digest: "d2", effect: { kind: "exec" }, toolUseId: "t2", action: "verify" },
    },
    {
      kind: "scope",
      scope: "main",
      event: { kind: "call", decision: "refused", tool: "Bash", digest: "d3", effect: { kind: "exec" }, toolUseId: "t3" },
    },
    { kind: "user_budgets", budgets: { tokenBudget: 150_000, maxAgents: 2 } },
  ]).session;
}

describe("the status line", () => {
  it("shows the task and step, spend against the budgets (SPENT once reached), the gate, refusals and the last action", () => {
    expect(statusLine(session(true), { prices: DEFAULT_PRICES })).toBe(
      "utility · task 2 step 2/10 · 180k/150k tok SPENT · $2.10 · 0/2 agents · gated (/utility on) · 1 refused · last verify",
    );
    expect(statusLine(session(false), { prices: DEFAULT_PRICES, userBudgets: {} })).toBe(
      "utility · task 2 step 2 · 180k tok · $2.10 · not gated · 1 refused · last verify",
    );
  });

  it("shows the whole session's spend against a session budget when one is set (issue 34: budgets the user set are visible)", () => {
    expect(statusLine(session(false), { prices: DEFAULT_PRICES, userBudgets: {}, sessionBudgets: { sessionTokenBudget: 200 } })).toBe(
      "utility · task 2 step 2 · 180k tok · $2.10 · session 180k/200 tok SPENT · not gated · 1 refused · last verify",
    );
    expect(
      statusLine(session(false), {
        prices: DEFAULT_PRICES,
        userBudgets: {},
        sessionBudgets: { sessionTokenBudget: 1_000_000, sessionCostBudgetUsd: 5, windowCostBudgetUsd: 20 },
      }),
    ).toContain(" · session 180k/1M tok $2.10/$5.00 · ");
    // session_max_tool_calls (issue 34, walk B): the session's tool calls against it.
    const calls = sessionSpend(session(false)).toolCalls;
    expect(
      statusLine(session(false), { prices: DEFAULT_PRICES, userBudgets: {}, sessionBudgets: { sessionMaxToolCalls: calls } }),
    ).toContain(` · session ${calls}/${calls} calls SPENT · `);
    expect(
      statusLine(session(false), { prices: DEFAULT_PRICES, userBudgets: {}, sessionBudgets: { sessionMaxToolCalls: calls + 1 } }),
    ).toContain(` · session ${calls}/${calls + 1} calls · `);
    // The window's budget alone is not the session's: nothing more is shown.
    expect(
      statusLine(session(false), { prices: DEFAULT_PRICES, userBudgets: {}, sessionBudgets: { windowCostBudgetUsd: 20 } }),
    ).not.toContain("session");
  });

  it("shows tool calls against max_tool_calls, and which kind of subagent hit its own cap (SPEC §16)", () => {
    const withAgent = reduceAll(session(false), [
      { kind: "subagent_started", agentId: "a1" },
      { kind: "definition_loaded", agentId: "a1", agentType: "Explore" },
      {
        kind: "scope",
        scope: "agent:a1",
        event: {
          kind: "usage",
          messageId: "x1",
          model: "claude-opus-4-5",
          tokens: { input: 900, output: 0, cacheCreation: 0, cacheRead: 0 },
          toolUseIds: [],
        },
      },
    ]).session;
    const line = (userBudgets: Record<string, number>) => statusLine(withAgent, { prices: DEFAULT_PRICES, userBudgets });
    expect(line({ maxToolCalls: 2 })).toContain(" · 2/2 calls SPENT · ");
    expect(line({ agentTokenBudget: 900 })).toContain(" · not gated · cap hit: Explore · 1 refused");
    expect(line({ agentTokenBudget: 901 })).not.toContain("cap hit");
  });

  it("after /utility off, until it is in force, says it is off from the next prompt, as the answer says it is off", () => {
    const pending = { ...session(true), pendingOff: { key: "k", seq: 2, after: 100 } };
    expect(statusLine(pending, { prices: DEFAULT_PRICES })).toContain(" · /utility off: not gated from your next prompt · ");
  });

  it("says when there is no state yet, and fits the terminal's width", () => {
    expect(statusLine(undefined, { prices: DEFAULT_PRICES })).toBe("utility · no tool call seen yet in this session");
    const cut = statusLine(session(true), { prices: DEFAULT_PRICES, columns: 40 });
    expect(cut).toHaveLength(40);
    expect(cut.endsWith("…")).toBe(true);
  });

  it("names the gate by its skill's folder or its definition", () => {
    expect(gateName({ ...manualSource(), file: "/p/.claude/skills/review/SKILL.md" })).toBe("review");
    expect(gateName({ ...manualSource(), file: "/p/.claude/agents/auditor.md" })).toBe("auditor");
    expect([shortTokens(999), shortTokens(1500), shortTokens(2_340_000), shortTokens(3e9)]).toEqual(["999", "1.5k", "2.3M", "3B"]);
  });
});

describe("runStatusLine: Claude Code's JSON in, the session's line out", () => {
  const home = tempDir();
  afterAll(() => home.remove());
  const data = join(home.path, ".claude", "plugins", "data", "utility-inline", "state");
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, "sess-1.json"), JSON.stringify(session(false)));
  const env = { HOME: home.path };
  const input = JSON.stringify({
    session_id: "sess-1",
    transcript_path: "/x.jsonl",
    cwd: "/p",
    model: { id: "claude-opus-4-5" },
    version: "2.1.328",
  });

  it("finds the state in the plugin's data folder without CLAUDE_PLUGIN_DATA (Claude Code gives the command none)", () => {
    expect(runStatusLine(input, env)).toEqual({
      code: 0,
      line: "utility · task 2 step 2 · 180k/150k tok SPENT · $2.10 · 0/2 agents · not gated · 1 refused · last verify",
    });
    expect(runStatusLine(JSON.stringify({ session_id: "other" }), env).line).toBe("utility · no tool call seen yet in this session");
  });

  it("prices with the user's override from settings.json, as the hooks do", () => {
    writeFileSync(
      join(home.path, ".claude", "settings.json"),
      JSON.stringify({ pluginConfigs: { "utility@inline": { options: { prices: JSON.stringify({ opus: { input: 1, output: 1 } }) } } } }),
    );
    expect(runStatusLine(input, env).line).toContain(" · $0.18 · ");
    writeFileSync(join(home.path, ".claude", "settings.json"), "{}");
  });

  it("applies the organization's managed settings as the hooks do: the smaller session budget stands", () => {
    const managed = tempDir();
    const both = (org: number, own: number) => {
      writeFileSync(
        join(managed.path, "managed-settings.json"),
        JSON.stringify({ pluginConfigs: { "utility@m": { options: { session_token_budget: org } } } }),
      );
      writeFileSync(
        join(home.path, ".claude", "settings.json"),
        JSON.stringify({ pluginConfigs: { "utility@m": { options: { session_token_budget: own } } } }),
      );
      return runStatusLine(input, env, managed.path).line;
    };
    expect(both(100_000, 1_000_000)).toContain(" · session 180k/100k tok SPENT · ");
    expect(both(1_000_000, 150_000)).toContain(" · session 180k/150k tok SPENT · ");
    writeFileSync(join(home.path, ".claude", "settings.json"), "{}");
    expect(runStatusLine(input, env, managed.path).line).toContain(" · session 180k/1M tok · ");
    expect(runStatusLine(input, env, join(managed.path, "none")).line).not.toContain("session");
    managed.remove();
  });

  it("says what is wrong with its input, exit 2; an unsafe session id is named, never a path", async () => {
    expect(runStatusLine("not json", env)).toMatchObject({
      code: 2,
      line: expect.stringMatching(/^utility · statusline: stdin is not JSON/),
    });
    expect(runStatusLine("{}", env)).toMatchObject({ code: 2, line: expect.stringMatching(/no session_id/) });
    expect(runStatusLine(JSON.stringify({ session_id: "../../etc" }), env).line).toMatch(
      /^utility · session id "..\/..\/etc" is not a safe id/,
    );
    const run = await cli(["statusline"], { stdin: input, env });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toBe("utility · task 2 step 2 · 180k/150k tok SPENT · $2.10 · 0/2 agents · not gated · 1 refused · last verify\n");
  });

  it("dist/statusline.js prints the same line, and carries no CLI parser, no YAML reader, no classic zod", () => {
    const bundle = join(PLUGIN_ROOT, "dist", "statusline.js");
    const run = spawnSync(process.execPath, [bundle], { input, env: { PATH: process.env.PATH, HOME: home.path }, encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("utility · task 2 step 2 · 180k/150k tok SPENT · $2.10 · 0/2 agents · not gated · 1 refused · last verify\n");
    const code = readFileSync(bundle, "utf8");
    expect(code).not.toMatch(/commander|gray-matter|js-yaml/i);
    expect(code).not.toMatch(/"Zod(?!Mini)[A-Z]\w*"/);
  });
});
