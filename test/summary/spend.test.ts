import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import type { LogRecord } from "../../src/log/record.js";
import { renderReportHtml } from "../../src/summary/html.js";
import { buildReportView } from "../../src/summary/report-view.js";
import { describeSpend, summarizeSpend } from "../../src/summary/spend.js";
import { renderSummaryText } from "../../src/summary/report-text.js";
import { summarize } from "../../src/summary/summarize.js";

const tokens = (input: number, output: number, cacheCreation = 0, cacheRead = 0) => ({ input, output, cacheCreation, cacheRead });

function rec(over: Partial<LogRecord>): LogRecord {
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
    latencyMs: 1,
    tool: "Read",
    ...over,
  };
}

const SONNET = "claude-sonnet-4-5";
const HAIKU = "claude-haiku-4-5";
// main task 1: message m1 makes two parallel calls (counted once), m2 one; task 2: m3; subagent a1: m4 (haiku).
const RECORDS: LogRecord[] = [
  rec({ step: 1, toolUseId: "t1", spend: { messageId: "m1", model: SONNET, tokens: tokens(100, 50, 1000, 0) } }),
  rec({ step: 2, toolUseId: "t2", spend: { messageId: "m1", model: SONNET, tokens: tokens(100, 50, 1000, 0) } }),
  rec({ event: "PostToolUse", step: 2, toolUseId: "t2" }),
  rec({ step: 3, toolUseId: "t3", spend: { messageId: "m2", model: SONNET, tokens: tokens(10, 20, 0, 1150) } }),
  rec({ step: 1, agentId: "a1", scope: "subagent", toolUseId: "t4", spend: { messageId: "m4", model: HAIKU, tokens: tokens(5, 5, 0, 0) } }),
  rec({ task: 2, step: 1, toolUseId: "t5", spend: { messageId: "m3", model: SONNET, tokens: tokens(1, 1, 0, 0) } }),
  rec({ task: 2, step: 2, toolUseId: "t6" }),
];

describe("summarizeSpend: tokens and cost per step, task and scope", () => {
  const s = summarizeSpend(RECORDS, DEFAULT_PRICES);

  it("counts a message once however many calls it made", () => {
    expect(s.steps.map((x) => x.total)).toEqual([1150, 0, 1180, 10, 2]);
    expect(s.steps.map((x) => x.sessionTotal)).toEqual([1150, 1150, 2330, 2340, 2342]);
  });

  it("per scope and per task", () => {
    const main = s.scopes.find((x) => x.key === "main")!;
    expect(main.tasks.map((t) => [t.task, t.total])).toEqual([
      [1, 2330],
      [2, 2],
    ]);
    expect(main.total.tokens).toEqual(tokens(111, 71, 1000, 1150));
    expect(s.scopes.find((x) => x.key === "agent:a1")!.total.byModel).toEqual({ [HAIKU]: tokens(5, 5) });
    expect(s.total.total).toBe(2342);
  });

  it("cost at each model's prices", () => {
    const sonnet = (111 * 3 + 71 * 15 + 1000 * 6 + 1150 * 0.3) / 1e6;
    const haiku = (5 * 1 + 5 * 5) / 1e6;
    expect(s.total.costUsd).toBeCloseTo(sonnet + haiku, 12);
    expect(s.prices.date).toBe(DEFAULT_PRICES.date);
  });

  it("the same message id in two scopes is two messages", () => {
    const twice = summarizeSpend(
      [rec({ spend: { messageId: "m", tokens: tokens(1, 0) } }), rec({ agentId: "x", spend: { messageId: "m", tokens: tokens(1, 0) } })],
      DEFAULT_PRICES,
    );
    expect(twice.total.total).toBe(2);
  });

  it("no records with spend: zero, and no step rows", () => {
    const none = summarizeSpend([rec({})], DEFAULT_PRICES);
    expect(none.total.total).toBe(0);
    expect(none.steps).toEqual([]);
  });

  it("describes spend in words", () => {
    expect(describeSpend({ tokens: tokens(1000, 2, 3, 4), total: 1009, costUsd: 0.5 })).toBe(
      "1,009 tokens (input 1,000, output 2, cache writes 3, cache reads 4), about $0.50",
    );
  });
});

describe("spend in utility report", () => {
  it("the text shows spend per scope, per task when there are several, and for the session", () => {
    const text = renderSummaryText(summarize(RECORDS));
    expect(text).toContain("  spend: 2,332 tokens (input 111, output 71, cache writes 1,000, cache reads 1,150)");
    expect(text).toContain("    task 1: 2,330 tokens");
    expect(text).toContain("    task 2: 2 tokens");
    expect(text).toContain("  spend: 10 tokens (input 5, output 5, cache writes 0, cache reads 0)");
    expect(text).toMatch(/^spend: 2,342 tokens .* at the prices of 2026-12-01$/m);
  });

  it("a log without spend prints no spend lines", () => {
    expect(renderSummaryText(summarize([rec({})]))).not.toContain("spend");
  });

  it("the HTML page draws what each task spent so far under the U timeline, one point per decision", () => {
    const view = buildReportView(RECORDS);
    expect(view.entries.map((e) => e.taskSpend?.tokens)).toEqual([1150, 1150, 2330, 10, 2, 2]);
    const html = renderReportHtml(view);
    expect(html.indexOf('aria-label="steps of')).toBeLessThan(html.indexOf('aria-label="tokens each task spent so far"'));
    expect((html.match(/class="spend-point"/g) ?? []).length).toBe(12); // tokens and cost
    expect(html).toContain('class="spend-point" data-seq="3" data-tokens="2330"');
    expect(html).toContain("the session: 2,342 tokens");
    expect(html).toContain("<h2>Spend per scope and task</h2>");
    expect(html).toContain("<h2>Spend per step</h2>");
    expect(html).toContain("<td>2,342</td>");
  });
});
