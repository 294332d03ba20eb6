// The page as text: self-contained, escaped, every decision drawn, budgets drawn when set, and
// words instead of an empty chart (the browser test checks the same in Chromium, as laid out).
import { describe, expect, it } from "vitest";
import type { LogRecord } from "../../src/log/record.js";
import { escapeHtml, renderReportHtml } from "../../src/summary/html.js";
import { buildReportView, type ReportViewOptions } from "../../src/summary/report-view.js";
import { gatedSession, longSession, ungatedSession } from "./report-fixtures.js";

function pre(step: number, over: Partial<LogRecord> = {}): LogRecord {
  return {
    v: 1,
    time: `2026-01-01T00:00:${String(step).padStart(2, "0")}.000Z`,
    event: "PreToolUse",
    session: "s-1",
    scope: "self",
    task: 1,
    step,
    maxSteps: 10,
    lambdas: [1, 0.5, 0.8],
    tool: "Read",
    decision: "passed",
    gated: true,
    gatedBy: "/skills/x/SKILL.md",
    report: { action: "retrieve", utility: 0.3, gain: 0.7, stepCost: 0.1, uncertainty: 0.6, redundancy: 0, rationale: "fine" },
    latencyMs: 12,
    ...over,
  };
}

const page = (records: LogRecord[], options: ReportViewOptions = {}) => renderReportHtml(buildReportView(records, options));
const count = (html: string, pattern: RegExp) => (html.match(pattern) ?? []).length;
const attrs = (html: string, name: string) => [...html.matchAll(new RegExp(`${name}="([^"]*)"`, "g"))].map((m) => m[1]!);
/** One chart's <svg>, by its class after `chart` (charts hold no nested svg). */
function chart(html: string, name: string): string {
  const start = html.indexOf(`<svg class="chart ${name}"`);
  return start < 0 ? "" : html.slice(start, html.indexOf("</svg>", start) + "</svg>".length);
}

function floorLines(html: string) {
  return [...html.matchAll(/<line class="floor" data-floor="([^"]+)" x1="([^"]+)" x2="([^"]+)" y1="([^"]+)" y2="\4">/g)].map((m) => ({
    floor: Number(m[1]),
    x1: Number(m[2]),
    x2: Number(m[3]),
    y: Number(m[4]),
  }));
}

describe("renderReportHtml", () => {
  it("is one self-contained page: inline style, no script, nothing to fetch", () => {
    const { records, noProgress } = gatedSession();
    for (const html of [page([pre(1)]), page(records, { noProgress }), page(ungatedSession()), page([])]) {
      expect(html.startsWith("<!doctype html>")).toBe(true);
      expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
      expect(html).not.toMatch(/<script|<link|<img|@import|url\(|src=/i);
      expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/); // the SVG namespace is a name, not a fetch
      expect(attrs(html, "href").every((h) => /^#r\d+$/.test(h))).toBe(true); // marks link to their record's row, nothing else
    }
  });

  it("draws every decision on the U chart: a mark per report (ends of turns too), a rug tick for each without", () => {
    const records = [
      pre(1),
      pre(1, { decision: "refused", rule: "no_report", report: undefined }),
      pre(2, { report: { action: "verify", utility: -0.7, gain: 0.8, stepCost: 0.5, uncertainty: 0.4, redundancy: 0.5, rationale: "r" } }),
      pre(2, { decision: "refused", rule: "exact_repeat", repeat: { ofStep: 1 } }),
      { ...pre(2), event: "Stop" as const, decision: "observed" as const, tool: undefined },
      { ...pre(2), event: "Stop" as const, decision: "observed" as const, tool: undefined, report: undefined },
    ];
    records[4]!.report = { action: "respond", utility: 0.6, gain: 0.8, stepCost: 0.1, uncertainty: 0.2, redundancy: 0, rationale: "done" };
    const html = page(records);
    const u = chart(html, "u-chart");
    expect(count(u, /<g class="mark[^"]*" data-seq="/g)).toBe(4);
    expect(count(u, /class="mark refused"/g)).toBe(1);
    expect(u).toContain('data-kind="end" data-decision="observed" data-scope="main" data-task="1" data-action="respond" data-u="0.6"');
    expect(count(u, /data-rug="refused"/g)).toBe(1);
    expect(count(u, /data-rug="observed" data-seq="6" data-kind="end"/g)).toBe(1);
    expect(new Set(attrs(u, "data-seq"))).toEqual(new Set(["1", "2", "3", "4", "5", "6"])); // each decision once
    expect(attrs(u, "data-seq").length).toBe(6);
    // The rule is written beside the refused marks, and listed under the charts.
    expect(u).toMatch(/<text class="rule-label"[^>]*>exact_repeat<\/text>/);
    expect(u).toMatch(/<text class="rule-label"[^>]*>no_report<\/text>/);
    expect(html).toMatch(/<ol class="refusals"><li><a href="#r2">#2<\/a> Read · <span class="rule">no_report<\/span>/);
  });

  it("lists an ungated scope's budget refusal with its reason, not as 'no report' (issue 34, walk D)", () => {
    const reason = "This session's token budget is spent: 480 tokens of 200 (session_token_budget). Answer with what you have.";
    const refused = pre(2, { gated: false, gatedBy: undefined, report: undefined, decision: "refused", rule: "budget_spent", reason });
    const html = page([pre(1, { gated: false, gatedBy: undefined, report: undefined, decision: "observed" }), refused]);
    const list = html.slice(html.indexOf('<ol class="refusals">'), html.indexOf("</ol>", html.indexOf('<ol class="refusals">')));
    expect(list).toContain('<span class="rule">budget_spent</span> · ');
    expect(list).not.toContain("no report");
    expect(list).toContain("This session&#39;s token budget is spent: 480 tokens of 200 (session_token_budget).</li>");
  });

  it("has one x tick per decision, numbered 1…n, each once; many decisions thin them to round numbers", () => {
    const html = page(gatedSession().records);
    const ticks = attrs(chart(html, "u-chart"), "data-tick").map(Number);
    expect(ticks).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
    const long = attrs(chart(page(longSession()), "u-chart"), "data-tick").map(Number);
    expect(long.length).toBeLessThan(70);
    expect(new Set(long).size).toBe(long.length);
    expect(long.every((t) => t % 2 === 0)).toBe(true);
    expect(long.at(-1)).toBe(70);
  });

  it("fits the U axis to the data and the floor, inside the plot", () => {
    const html = page(gatedSession().records);
    const u = chart(html, "u-chart");
    const plot = /<rect class="plot" x="[^"]+" y="([^"]+)" width="[^"]+" height="([^"]+)"/.exec(u)!;
    const [top, bottom] = [Number(plot[1]), Number(plot[1]) + Number(plot[2])];
    const ys = [...u.matchAll(/<circle cx="[^"]+" cy="([^"]+)"/g)].map((m) => Number(m[1]));
    const spread = (Math.max(...ys) - Math.min(...ys)) / (bottom - top);
    expect(spread).toBeGreaterThan(0.5); // the U range [−2.3, 1] would squeeze −0.62…0.55 into a third
    const floors = floorLines(u);
    expect(floors.length).toBe(2); // the gated stretches of main, not the ungated subagent between them
    for (const f of floors) {
      expect(f.floor).toBe(-0.5);
      expect(f.y).toBeGreaterThan(top);
      expect(f.y).toBeLessThan(bottom);
    }
    expect(u).toContain(">floor −0.50</text>");
  });

  it("draws the floor each gated record carries, at its own height, and a fallback for records without one", () => {
    const html = page([pre(1, { floor: -0.2 }), pre(2, { floor: -0.2 }), pre(1, { agentId: "a1", scope: "subagent", floor: -1 })]);
    const lines = floorLines(chart(html, "u-chart"));
    expect(lines.map((l) => l.floor)).toEqual([-0.2, -1]);
    expect(lines[1]!.y).toBeGreaterThan(lines[0]!.y);
    expect(floorLines(chart(page([pre(1, { floor: undefined })], { floor: -1.2 }), "u-chart")).map((l) => l.floor)).toEqual([-1.2]);
  });

  it("draws the step budget over every gated task (an ungated one has none to cross), and token and cost budgets when set", () => {
    const html = page(gatedSession().records);
    expect(count(chart(html, "steps-chart"), /<line class="budget" data-budget="steps" data-value="12"/g)).toBe(2);
    // The ungated subagent's records carry max steps 10, which bind nothing (second first-hour walk, surprise 1).
    expect(count(chart(html, "steps-chart"), /<line class="budget" data-budget="steps" data-value="10"/g)).toBe(0);
    expect(count(chart(html, "spend-chart spend-tokens"), /<line class="budget" data-budget="tokens" data-value="450000"/g)).toBe(2);
    expect(count(chart(html, "spend-chart spend-cost"), /<line class="budget" data-budget="cost" data-value="0.3"/g)).toBe(2);
    // A budget far above the spend is named, not drawn (the spend would flatten to the floor of the chart).
    const long = page(longSession());
    expect(chart(long, "spend-chart spend-tokens")).not.toContain('<line class="budget"');
    expect(chart(long, "spend-chart spend-tokens")).toMatch(
      /<text class="budget-label off-chart" data-budget="tokens" data-value="20000000"/,
    );
    // No budget set: no line, and the caption says so.
    const ungated = page(ungatedSession());
    expect(chart(ungated, "spend-chart spend-tokens")).not.toContain('class="budget');
    expect(chart(ungated, "spend-chart spend-tokens")).toContain("no task token budget set");
  });

  it("names the session's own token and cost budgets under the spend charts, not 'no budget set' (issue 34, walk C)", () => {
    const records = ungatedSession();
    const spent = { tokens: { input: 480, output: 0, cacheCreation: 0, cacheRead: 0 }, byModel: {}, toolCalls: 3, agentsLaunched: 0 };
    const last = { ...records.at(-1)!, sessionBudgets: { budgets: { sessionTokenBudget: 200, sessionCostBudgetUsd: 5 }, spent } };
    const html = page([...records.slice(0, -1), last]);
    expect(chart(html, "spend-chart spend-tokens")).toMatch(/the session: [^<;]+ of its token budget 200; no task token budget set</);
    expect(chart(html, "spend-chart spend-cost")).toMatch(/the session: [^<;]+ of its cost budget \$5\.00; no task cost budget set</);
  });

  it("an ungated session: no U chart and no floor, but a sentence saying why and what the page shows", () => {
    const html = page(ungatedSession());
    expect(html).not.toContain('class="chart u-chart');
    expect(html).not.toContain('class="floor');
    expect(html).toContain(
      "Not gated: no scope of this session opted in to the gate, so the model wrote no reports the gate checked, and there is no U (and no floor) to draw. What this page shows: its 14 tool calls against each task's step budget, the 1 exact repeat the code caught, what each task spent.",
    );
    expect(count(chart(html, "steps-chart"), /<g class="step-mark"/g)).toBe(16);
    expect(count(chart(html, "steps-chart"), /data-repeat-of="7"/g)).toBe(1);
  });

  it("a gated session with no report, a log with no spend, and an empty log each say so", () => {
    const noReports = page([pre(1, { report: undefined, decision: "refused", rule: "no_report" })]);
    expect(noReports).not.toContain('class="chart u-chart');
    expect(noReports).toContain("Gated, but no decision carries a report the gate read, so there is no U to draw.");
    const noSpend = page(ungatedSession(false));
    expect(count(noSpend, /data-empty="spend"/g)).toBe(2); // under the charts, and in the spend section
    expect(noSpend).not.toContain("spend-chart");
    const empty = page([]);
    expect(empty).toContain("No tool call and no end of a turn is recorded yet: there is nothing to draw.");
    expect(empty).not.toContain('<svg class="chart');
  });

  it("counts identical outcomes and stuck loops per scope when they are given, and leaves the column out when not", () => {
    const { records, noProgress } = gatedSession();
    const html = page(records, { noProgress });
    expect(html).toContain('<th scope="col">identical outcomes · stuck loops</th>');
    expect(html).toContain("<td>1 identical, 0 stuck</td>");
    expect(html).toContain("<td>2 identical, 1 stuck</td>");
    expect(html).toContain("<li><b>3</b>identical outcomes</li>");
    expect(page(records)).not.toContain("identical outcomes");
  });

  it("names each decision's number on the chart in the records table, and links marks to its rows", () => {
    const html = page(gatedSession().records);
    expect(html).toMatch(/<tr id="r2"><td>2<\/td><td>#1<\/td>/);
    expect(html).toMatch(/<tr id="r3"><td>3<\/td><td><\/td>/); // an Outcome record: not on the charts
    expect(html).toContain('<a href="#r2"><g class="mark"');
  });

  it("escapes everything that comes from the log", () => {
    const nasty = `</title><script>alert(1)</script><img src=x onerror="y"> & 'q'`;
    const html = page([
      pre(1, {
        session: nasty,
        tool: nasty,
        gatedBy: nasty,
        agentId: nasty,
        agentType: nasty,
        reason: nasty,
        decision: "refused",
        rule: "no_report",
        report: { action: "retrieve", utility: 0.3, gain: 0.7, stepCost: 0.1, uncertainty: 0.6, redundancy: 0, rationale: nasty },
      }),
    ]);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain(nasty);
    expect(html).not.toContain("</title><script");
    expect(html).toContain(escapeHtml(nasty));
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});
