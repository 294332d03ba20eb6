// The view the HTML page draws: every decision (ends of turns included), each task's budgets and
// spend so far, the counts of calls that told nothing when given; the page computes none of it.
import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import type { LogRecord } from "../../src/log/record.js";
import { buildReportView } from "../../src/summary/report-view.js";
import { summarize } from "../../src/summary/summarize.js";
import { gatedSession, report, ungatedSession } from "./report-fixtures.js";

const tokens = (input: number, output = 0) => ({ input, output, cacheCreation: 0, cacheRead: 0 });

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
    decision: "passed",
    gated: true,
    latencyMs: 1,
    tool: "Read",
    ...over,
  };
}

describe("buildReportView", () => {
  it("puts every call and every end of a turn on the timeline, in log order, numbered from 1", () => {
    const { records } = gatedSession();
    const view = buildReportView(records);
    const expected = records.filter((r) => ["PreToolUse", "Stop", "SubagentStop"].includes(r.event));
    expect(view.entries.map((e) => e.seq)).toEqual(expected.map((_, i) => i + 1));
    expect(view.entries.map((e) => records[e.record - 1])).toEqual(expected);
    const ends = view.entries.filter((e) => e.kind === "end");
    expect(ends.map((e) => [e.event, e.decision, e.report?.action])).toEqual([
      ["SubagentStop", "observed", "respond"],
      ["Stop", "blocked", "verify"],
      ["Stop", "observed", "respond"],
    ]);
    expect(view.entries.at(-1)).toMatchObject({ kind: "end", report: { action: "respond" } });
    expect(view.entries.filter((e) => e.decision === "refused").map((e) => e.rule)).toEqual([
      "exact_repeat",
      "tool_not_permitted",
      "no_report",
      "below_floor",
    ]);
  });

  it("has one track per scope and task, with its step budget and the budgets its records carry", () => {
    const view = buildReportView(gatedSession().records);
    expect(view.tracks.map((t) => [t.scope, t.task, t.maxSteps, t.budgets])).toEqual([
      ["main", 1, 12, { tokenBudget: 450_000, costBudgetUsd: 0.3 }],
      ["agent:a7f3c2e1", 1, 10, undefined],
    ]);
    expect(view.tracks[1]!.title).toBe("subagent a7f3c2e1 (Explore)");
  });

  it("gives each decision what its task had spent so far, a message counted once however many calls it made", () => {
    const records = [
      rec({ toolUseId: "t1", spend: { messageId: "m1", tokens: tokens(100) } }),
      rec({ toolUseId: "t2", spend: { messageId: "m1", tokens: tokens(100) } }),
      rec({ agentId: "a1", scope: "subagent", toolUseId: "t3", spend: { messageId: "m9", tokens: tokens(7) } }),
      rec({ event: "PostToolUse", spend: { messageId: "m2", tokens: tokens(20) } }),
      rec({ step: 2, toolUseId: "t4" }),
      rec({ task: 2, step: 1, toolUseId: "t5", spend: { messageId: "m3", tokens: tokens(1, 2) } }),
    ];
    const view = buildReportView(records);
    expect(view.entries.map((e) => e.taskSpend?.tokens)).toEqual([100, 100, 7, 120, 3]);
    expect(view.tracks.map((t) => [t.scope, t.task, t.spent?.tokens])).toEqual([
      ["main", 1, 120],
      ["agent:a1", 1, 7],
      ["main", 2, 3],
    ]);
    expect(view.spend?.total.total).toBe(130);
  });

  it("says there is no spend when no record carries its message's usage", () => {
    const view = buildReportView(ungatedSession(false));
    expect(view.spend).toBeUndefined();
    expect(view.entries.every((e) => e.taskSpend === undefined)).toBe(true);
    expect(view.tracks.every((t) => t.spent === undefined)).toBe(true);
  });

  it("takes the summary it is handed (where spend comes from can change), and the floor of records without one", () => {
    const records = [rec({ floor: undefined, spend: { tokens: tokens(5) } })];
    const summary = summarize(records, DEFAULT_PRICES);
    const elsewhere = { ...summary, spend: { ...summary.spend, total: { ...summary.spend.total, total: 999 } } };
    const view = buildReportView(records, { summary: elsewhere, floor: -1.2 });
    expect(view.spend?.total.total).toBe(999);
    expect(view.entries[0]!.floor).toBe(-1.2);
    expect(buildReportView(records).entries[0]!.floor).toBe(-0.5);
  });

  it("carries identical outcomes and stuck loops per scope when they are counted, and their sum", () => {
    const { records, noProgress } = gatedSession();
    const view = buildReportView(records, { noProgress });
    expect(view.scopes.map((s) => [s.key, s.noProgress])).toEqual([
      ["main", { identicalOutcomes: 1, stuckLoops: 0 }],
      ["agent:a7f3c2e1", { identicalOutcomes: 2, stuckLoops: 1, stuckRefused: 0 }],
    ]);
    expect(view.totals.noProgress).toEqual({ identicalOutcomes: 3, stuckLoops: 1, stuckRefused: 0 });
    const plain = buildReportView(records);
    expect(plain.scopes.every((s) => s.noProgress === undefined)).toBe(true);
    expect(plain.totals.noProgress).toBeUndefined();
  });

  it("knows each call's outcome, and a call whose outcome never arrived", () => {
    const records = [
      rec({ toolUseId: "t1" }),
      rec({ event: "Outcome", toolUseId: "t1", outcome: { result: "failed", resultBytes: 3, learnedBy: "PostToolUse" } }),
      rec({ toolUseId: "t2", step: 2, report: report("verify", 0.5, 0.1, 0.1, 0, "r") }),
      rec({ toolUseId: "t3", decision: "refused", rule: "no_report" }),
    ];
    expect(buildReportView(records).entries.map((e) => e.outcome)).toEqual(["failed", "missing", undefined]);
  });
});
