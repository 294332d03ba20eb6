// The page as text: self-contained, escaped, one mark per reported step (the browser test draws it).
import { describe, expect, it } from "vitest";
import type { LogRecord } from "../../src/log/record.js";
import { escapeHtml, renderReportHtml } from "../../src/summary/html.js";

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

const count = (html: string, pattern: RegExp) => (html.match(pattern) ?? []).length;

// The chart's geometry, restated: a plot 918 px wide from x = 58, U from 1 (y = 30) down to −2.3 (y = 326).
const r1 = (n: number) => Math.round(n * 10) / 10;
const yOf = (u: number) => r1(30 + ((1 - u) / 3.3) * 296);

function floorLines(html: string) {
  return [...html.matchAll(/<line class="floor" data-floor="([^"]+)" x1="([^"]+)" x2="([^"]+)" y1="([^"]+)" y2="\4"\/>/g)].map((m) => ({
    floor: m[1],
    x1: Number(m[2]),
    x2: Number(m[3]),
    y: Number(m[4]),
  }));
}

describe("renderReportHtml", () => {
  it("is one self-contained page: inline style, no script, nothing to fetch", () => {
    const html = renderReportHtml([pre(1)]);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|src=/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/); // the SVG namespace is a name, not a fetch
  });

  it("draws one mark per PreToolUse record with a report; calls without one go on the rug", () => {
    const records = [
      pre(1),
      pre(1, { decision: "refused", rule: "no_report", report: undefined }),
      pre(2, { report: { action: "verify", utility: -0.7, gain: 0.8, stepCost: 0.5, uncertainty: 0.4, redundancy: 0.5, rationale: "r" } }),
      pre(2, { decision: "refused", rule: "exact_repeat", repeat: { ofStep: 1 } }),
      { ...pre(2), event: "Stop" as const, tool: undefined, report: undefined },
    ];
    const html = renderReportHtml(records);
    expect(count(html, /data-step="/g)).toBe(3);
    expect(count(html, /class="mark refused"/g)).toBe(1);
    expect(count(html, /data-rug="refused"/g)).toBe(1);
    expect(html).toContain('data-u="-0.7"');
  });

  it("draws the floor each record carries, at its height, under that record's calls", () => {
    const html = renderReportHtml([pre(1, { floor: -0.2 }), pre(2, { floor: -0.2 })]);
    const lines = floorLines(html);
    expect(lines).toEqual([{ floor: "-0.2", x1: 58, x2: 976, y: yOf(-0.2) }]);
    expect(html).toContain(">floor −0.20</text>");
    expect(html).not.toContain('data-floor="-0.5"');
  });

  it("gives each scope its own floor line, and records without one the floor the caller names (default −0.5)", () => {
    const records = [pre(1, { floor: -0.2 }), pre(1, { agentId: "a1", scope: "subagent", floor: -1 }), pre(2, { floor: undefined })];
    const third = (976 - 58) / 3;
    expect(floorLines(renderReportHtml(records))).toEqual([
      { floor: "-0.2", x1: 58, x2: r1(58 + third), y: yOf(-0.2) },
      { floor: "-1", x1: r1(58 + third), x2: r1(58 + 2 * third), y: yOf(-1) },
      { floor: "-0.5", x1: r1(58 + 2 * third), x2: 976, y: yOf(-0.5) },
    ]);
    expect(floorLines(renderReportHtml([pre(1, { floor: undefined })], { floor: -1.2 }))).toMatchObject([{ floor: "-1.2" }]);
    expect(floorLines(renderReportHtml([]))).toMatchObject([{ floor: "-0.5", x1: 58, x2: 976 }]);
  });

  it("escapes everything that comes from the log", () => {
    const nasty = `</title><script>alert(1)</script><img src=x onerror="y"> & 'q'`;
    const html = renderReportHtml([
      pre(1, {
        session: nasty,
        tool: nasty,
        gatedBy: nasty,
        agentId: nasty,
        agentType: nasty,
        reason: nasty,
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

  it("says so when there is nothing to draw", () => {
    const html = renderReportHtml([]);
    expect(count(html, /data-step="/g)).toBe(0);
    expect(html).toContain("no tool calls recorded");
  });
});
