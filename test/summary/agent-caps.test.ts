// Caps per subagent (SPEC §16) in `utility report`: each subagent's own spend,
// the caps in force for it, and the cap it hit, from its records; in the
// text, the JSON (the summary) and the page.
import { describe, expect, it } from "vitest";
import { checkAgentCaps } from "../../src/engine/agent-caps.js";
import { budgetNames } from "../../src/engine/budget.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import type { LogRecord } from "../../src/log/record.js";
import { renderReportHtml } from "../../src/summary/html.js";
import { renderSummaryText } from "../../src/summary/report-text.js";
import { buildReportView } from "../../src/summary/report-view.js";
import { summarize } from "../../src/summary/summarize.js";

function record(over: Partial<LogRecord>): LogRecord {
  return {
    v: 1,
    time: "2026-01-01T00:00:00.000Z",
    event: "PreToolUse",
    session: "s1",
    scope: "self",
    task: 1,
    step: 1,
    maxSteps: 10,
    lambdas: [1, 0.5, 0.8],
    decision: "observed",
    gated: false,
    latencyMs: 10,
    ...over,
  };
}

const tokens = (input: number) => ({ input, output: 0, cacheCreation: 0, cacheRead: 0 });
const caps = { agentTokenBudget: 3000, agentMaxToolCalls: 5 };

/** The gate's own refusal for a subagent past a cap (src/engine/agent-caps.ts), as the record keeps it. */
function refusedFor(spent: number, calls: number, agentId: string): Pick<LogRecord, "rule" | "reason"> {
  const spend = { tokens: tokens(spent), byModel: { "claude-sonnet-4-5": tokens(spent) }, toolCalls: calls, agentsLaunched: 0 };
  const hit = checkAgentCaps({ spend, label: `the subagent Explore (agent ${agentId})` }, caps, DEFAULT_PRICES, budgetNames(caps, {}))!;
  return { rule: hit.rule, reason: hit.reason };
}

const sub = (agentId: string, over: Partial<LogRecord>) =>
  record({ scope: "subagent", agentId, agentType: "Explore", budgets: caps, decision: "passed", ...over });

const records: LogRecord[] = [
  record({ step: 1, spend: { messageId: "m1", model: "claude-sonnet-4-5", tokens: tokens(100) } }),
  sub("a1", { step: 1, toolUseId: "t1", spend: { messageId: "s1", model: "claude-sonnet-4-5", tokens: tokens(2500) } }),
  sub("a1", { step: 2, toolUseId: "t2", spend: { messageId: "s2", model: "claude-sonnet-4-5", tokens: tokens(1000) } }),
  sub("a1", { step: 2, toolUseId: "t3", decision: "refused", ...refusedFor(3500, 2, "a1") }),
  sub("a1", { step: 2, toolUseId: "t4", decision: "refused", ...refusedFor(3500, 2, "a1") }),
  sub("b2", { step: 1, toolUseId: "t5", spend: { messageId: "s3", model: "claude-sonnet-4-5", tokens: tokens(200) } }),
  record({ scope: "subagent", agentId: "c3", step: 1, decision: "passed" }),
];

describe("caps per subagent in the report", () => {
  const summary = summarize(records);

  it("each subagent's own spend, its caps, and the cap it hit (from the gate's own refusal)", () => {
    expect(summary.agentCaps).toEqual([
      {
        key: "agent:a1",
        agentId: "a1",
        agentType: "Explore",
        tokens: 3500,
        costUsd: expect.any(Number),
        toolCalls: 2,
        caps: { tokens: 3000, toolCalls: 5 },
        hit: {
          cap: "token",
          reason: expect.stringMatching(/^the subagent Explore \(agent a1\) has spent its token cap: 3,500 tokens/),
          refused: 2,
        },
      },
      {
        key: "agent:b2",
        agentId: "b2",
        agentType: "Explore",
        tokens: 200,
        costUsd: expect.any(Number),
        toolCalls: 1,
        caps: { tokens: 3000, toolCalls: 5 },
      },
      { key: "agent:c3", agentId: "c3", tokens: 0, costUsd: 0, toolCalls: 1 },
    ]);
  });

  it("names the tool-call cap from its own words, and no other budget_spent refusal", () => {
    const calls = summarize([
      sub("a1", { decision: "refused", ...refusedFor(10, 5, "a1") }),
      sub("b2", { decision: "refused", rule: "budget_spent", reason: "This task's token budget is spent: 10 tokens of 5 (token_budget)." }),
    ]);
    expect(calls.agentCaps.map((r) => r.hit?.cap)).toEqual(["tool-call", undefined]);
  });

  it("text and page show them; nothing when no subagent had a cap", () => {
    const text = renderSummaryText(summary);
    expect(text).toContain("caps per subagent (each one's own spend):");
    expect(text).toMatch(
      / {2}subagent a1 \(Explore\): 3,500 tokens, \$[\d.]+, 2 tool calls; caps: tokens 3,000, tool calls 5; HIT its token cap \(2 calls refused\)/,
    );
    expect(text).toMatch(/ {2}subagent c3: 0 tokens, \$0(\.00)?, 1 tool call; caps: no cap$/m);
    const html = renderReportHtml(buildReportView(records));
    expect(html).toContain("<h2>Caps per subagent</h2>");
    expect(html).toContain(`<tr data-agent="a1" class="hit">`);
    const none = records.map((r) => ({ ...r, budgets: undefined, rule: undefined, reason: undefined, decision: "passed" as const }));
    expect(renderSummaryText(summarize(none))).not.toContain("caps per subagent");
    expect(renderReportHtml(buildReportView(none))).not.toContain("Caps per subagent");
  });
});
