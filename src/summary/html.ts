// The session report as one self-contained HTML page: inline CSS and SVG, no
// script, nothing fetched (a Content-Security-Policy says so to the browser too).
// Everything that comes from the log is escaped: rationales and reasons are model text.
import { UTILITY_MAX, UTILITY_MIN, DEFAULT_CONFIG } from "../engine/defaults.js";
import { ACTIONS } from "../engine/vocabulary.js";
import type { LogRecord } from "../log/record.js";
import { scopeCell } from "./log-table.js";
import { NO_REPORT, scopeKey, scopeTitle, summarize, type ScopeSummary } from "./summarize.js";
import { formatUsd } from "../engine/prices.js";
import type { SessionSpend } from "./spend.js";

export interface HtmlOptions {
  /** The floor of records that do not carry their own (logs written before records did); the default (−0.5) unless told. */
  floor?: number;
  /** Where the records came from, shown in the header. */
  source?: string;
}

/** Okabe–Ito colours: told apart with the common colour-vision deficiencies. */
export const ACTION_COLORS: Record<string, string> = {
  retrieve: "#0072B2",
  verify: "#009E73",
  tool_call: "#E69F00",
  delegate: "#CC79A7",
  respond: "#56B4E9",
  stop: "#6b6b6b",
};
const REFUSED_COLOR = "#D55E00";

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2)).replace("-", "−");

// ---- Chart ----

const W = 1000;
const H = 400;
const PAD = { left: 58, right: 24, top: 30, bottom: 74 };
const PLOT_W = W - PAD.left - PAD.right;
const PLOT_H = H - PAD.top - PAD.bottom;
const RUG_Y = PAD.top + PLOT_H + 14;

const yOf = (u: number) =>
  PAD.top + ((UTILITY_MAX - Math.min(UTILITY_MAX, Math.max(UTILITY_MIN, u))) / (UTILITY_MAX - UTILITY_MIN)) * PLOT_H;
const r1 = (n: number) => Math.round(n * 10) / 10;

function describeMark(record: LogRecord): string {
  const r = record.report!;
  const lines = [
    `${record.tool ?? "?"} · ${record.decision}${record.rule ? ` (${record.rule})` : ""}`,
    `${scopeLabel(record)} · task ${record.task} · step ${record.step}/${record.maxSteps}`,
    `${r.action}: U = ${r.utility} (Gain ${r.gain}, StepCost ${r.stepCost}, Uncertainty ${r.uncertainty}, Redundancy ${r.redundancy})`,
    r.rationale,
  ];
  if (record.reason) lines.push(record.reason);
  return lines.join("\n");
}

function scopeLabel(record: Pick<LogRecord, "agentId" | "agentType" | "scope">): string {
  return record.agentId !== undefined
    ? `subagent ${record.agentId}${record.agentType ? ` (${record.agentType})` : ""}`
    : `main (${record.scope})`;
}

/**
 * Each call's own floor (its scope's, as the record says), one line over each
 * run of calls that share it, labelled where the label fits; one line across
 * the plot when there is no call.
 */
function floorLines(timeline: readonly LogRecord[], fallbackFloor: number): string[] {
  const n = Math.max(timeline.length, 1);
  const runs: Array<{ start: number; end: number; floor: number }> = [];
  timeline.forEach((record, i) => {
    const floor = record.floor ?? fallbackFloor;
    const last = runs[runs.length - 1];
    if (last && last.floor === floor) last.end = i + 1;
    else runs.push({ start: i, end: i + 1, floor });
  });
  if (runs.length === 0) runs.push({ start: 0, end: 1, floor: fallbackFloor });
  return runs.flatMap(({ start, end, floor }) => {
    const x1 = r1(PAD.left + (start / n) * PLOT_W);
    const x2 = r1(PAD.left + (end / n) * PLOT_W);
    const y = r1(yOf(floor));
    const label = `floor ${fmt(floor)}`;
    const line = `<line class="floor" data-floor="${floor}" x1="${x1}" x2="${x2}" y1="${y}" y2="${y}"/>`;
    return label.length * 6.2 + 8 <= x2 - x1
      ? [line, `<text class="floor-label" x="${r1(x2 - 4)}" y="${r1(y - 5)}" text-anchor="end">${label}</text>`]
      : [line];
  });
}

function chartSvg(records: readonly LogRecord[], fallbackFloor: number): string {
  const timeline = records.filter((r) => r.event === "PreToolUse");
  const n = timeline.length;
  const xOf = (i: number) => PAD.left + ((i + 0.5) / Math.max(n, 1)) * PLOT_W;
  const parts: string[] = [
    ...axisParts(),
    ...floorLines(timeline, fallbackFloor),
    ...segmentParts(timeline),
    ...traceParts(timeline, xOf),
    ...xTickParts(timeline, xOf),
    ...rugParts(timeline, xOf),
    ...markParts(timeline, xOf),
  ];
  if (n === 0)
    parts.push(
      `<text class="empty" x="${PAD.left + PLOT_W / 2}" y="${PAD.top + PLOT_H / 2}" text-anchor="middle">no tool calls recorded</text>`,
    );

  return `<svg class="chart" role="img" aria-label="U per step" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg">${parts.join("")}</svg>`;
}

/** The plot's frame, its U grid and ticks, and the U axis label. */
function axisParts(): string[] {
  const parts: string[] = [];
  parts.push(`<rect class="plot" x="${PAD.left}" y="${PAD.top}" width="${PLOT_W}" height="${PLOT_H}"/>`);
  for (const u of [1, 0.5, 0, -0.5, -1, -1.5, -2]) {
    const y = r1(yOf(u));
    parts.push(`<line class="${u === 0 ? "zero" : "grid"}" x1="${PAD.left}" x2="${PAD.left + PLOT_W}" y1="${y}" y2="${y}"/>`);
    parts.push(`<text class="tick" x="${PAD.left - 8}" y="${y + 4}" text-anchor="end">${fmt(u)}</text>`);
  }
  parts.push(`<text class="axis" transform="translate(16 ${PAD.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle">U</text>`);
  return parts;
}

type XOf = (i: number) => number;

/** Where the scope or the task changes: a dashed rule, and a label that fits above its stretch. */
function segmentParts(timeline: readonly LogRecord[]): string[] {
  const n = timeline.length;
  const parts: string[] = [];
  const segments: Array<{ start: number; end: number; record: LogRecord }> = [];
  timeline.forEach((record, i) => {
    const last = segments[segments.length - 1];
    if (last && `${scopeKey(last.record)}#${last.record.task}` === `${scopeKey(record)}#${record.task}`) last.end = i + 1;
    else segments.push({ start: i, end: i + 1, record });
  });
  for (const { start, end, record } of segments) {
    const x = r1(PAD.left + (start / Math.max(n, 1)) * PLOT_W);
    const width = ((end - start) / Math.max(n, 1)) * PLOT_W;
    if (start > 0) parts.push(`<line class="segment" x1="${x}" x2="${x}" y1="${PAD.top}" y2="${PAD.top + PLOT_H}"/>`);
    const who = record.agentId !== undefined ? `subagent ${record.agentId}` : "main";
    const label = [`${who} · task ${record.task}`, who, record.agentId !== undefined ? record.agentId : "main"].find(
      (l) => l.length * 6.2 + 8 <= width,
    );
    if (label) parts.push(`<text class="segment-label" x="${x + 4}" y="${PAD.top - 8}">${escapeHtml(label)}</text>`);
  }
  return parts;
}

/** A faint line through the U of the steps that ran (refused calls did not), per scope and task. */
function traceParts(timeline: readonly LogRecord[], xOf: XOf): string[] {
  const parts: string[] = [];
  let path: string[] = [];
  let pathSegment: string | undefined;
  const flush = () => {
    if (path.length > 1) parts.push(`<polyline class="trace" points="${path.join(" ")}"/>`);
    path = [];
  };
  timeline.forEach((record, i) => {
    const segment = `${scopeKey(record)}#${record.task}`;
    if (segment !== pathSegment) flush();
    pathSegment = segment;
    if (record.report && record.decision !== "refused") path.push(`${r1(xOf(i))},${r1(yOf(record.report.utility))}`);
  });
  flush();
  return parts;
}

/** x ticks: the step of each call, thinned out when there are many. */
function xTickParts(timeline: readonly LogRecord[], xOf: XOf): string[] {
  const parts: string[] = [];
  const every = Math.max(1, Math.ceil(timeline.length / 30));
  timeline.forEach((record, i) => {
    if (i % every !== 0) return;
    parts.push(`<text class="tick" x="${r1(xOf(i))}" y="${RUG_Y + 22}" text-anchor="middle">${record.step}</text>`);
  });
  parts.push(
    `<text class="axis" x="${PAD.left + PLOT_W / 2}" y="${H - 12}" text-anchor="middle">tool calls in log order (tick: the step recorded)</text>`,
  );
  return parts;
}

/** Calls without a report (no U): a tick on the rug below the plot. */
function rugParts(timeline: readonly LogRecord[], xOf: XOf): string[] {
  const parts: string[] = [];
  timeline.forEach((record, i) => {
    if (record.report) return;
    const x = r1(xOf(i));
    const refused = record.decision === "refused";
    parts.push(
      `<line class="rug${refused ? " refused" : ""}" data-rug="${record.decision}" x1="${x}" x2="${x}" y1="${RUG_Y - 6}" y2="${RUG_Y + 6}"><title>${escapeHtml(`${record.tool ?? "?"} · ${record.decision}${record.rule ? ` (${record.rule})` : ""} · no report\n${scopeLabel(record)} · task ${record.task} · step ${record.step}/${record.maxSteps}${record.reason ? `\n${record.reason}` : ""}`)}</title></line>`,
    );
  });
  return parts;
}

/** One mark per call that has a report. */
function markParts(timeline: readonly LogRecord[], xOf: XOf): string[] {
  const n = timeline.length;
  const parts: string[] = [];
  const radius = n > 120 ? 3.5 : n > 60 ? 5 : 7;
  timeline.forEach((record, i) => {
    if (!record.report) return;
    const x = r1(xOf(i));
    const y = r1(yOf(record.report.utility));
    const color = ACTION_COLORS[record.report.action] ?? "#333";
    const refused = record.decision === "refused";
    const attrs = `class="mark${refused ? " refused" : ""}" data-step="${record.step}" data-seq="${i + 1}" data-action="${escapeHtml(record.report.action)}" data-decision="${escapeHtml(record.decision)}" data-scope="${escapeHtml(scopeKey(record))}" data-task="${record.task}" data-u="${record.report.utility}"`;
    const title = `<title>${escapeHtml(describeMark(record))}</title>`;
    if (refused) {
      const k = r1(radius * 0.75);
      parts.push(
        `<g ${attrs}>${title}<circle cx="${x}" cy="${y}" r="${radius + 2}" fill="#fff" stroke="${color}" stroke-width="2.5"/><path d="M${r1(x - k)},${r1(y - k)}L${r1(x + k)},${r1(y + k)}M${r1(x - k)},${r1(y + k)}L${r1(x + k)},${r1(y - k)}" stroke="${REFUSED_COLOR}" stroke-width="3" stroke-linecap="round"/></g>`,
      );
    } else {
      parts.push(`<g ${attrs}>${title}<circle cx="${x}" cy="${y}" r="${radius}" fill="${color}" stroke="#fff" stroke-width="1.5"/></g>`);
    }
  });
  return parts;
}

function legend(): string {
  const items = ACTIONS.map(
    (action) =>
      `<li><svg width="16" height="16" aria-hidden="true"><circle cx="8" cy="8" r="6" fill="${ACTION_COLORS[action]}"/></svg>${action}</li>`,
  );
  items.push(
    `<li><svg width="18" height="18" aria-hidden="true"><circle cx="9" cy="9" r="7" fill="#fff" stroke="#555" stroke-width="2"/><path d="M5,5L13,13M5,13L13,5" stroke="${REFUSED_COLOR}" stroke-width="2.5" stroke-linecap="round"/></svg>refused (ring: the action)</li>`,
    `<li><svg width="22" height="16" aria-hidden="true"><line x1="1" x2="21" y1="8" y2="8" stroke="${REFUSED_COLOR}" stroke-width="2" stroke-dasharray="5 3"/></svg>floor</li>`,
    `<li><svg width="10" height="16" aria-hidden="true"><line x1="5" x2="5" y1="2" y2="14" stroke="#999" stroke-width="2"/></svg>call without a report (red: refused)</li>`,
  );
  return `<ul class="legend">${items.join("")}</ul>`;
}

// ---- Spend under the timeline (SPEC §12) ----

const SPEND_H = 170;
const SPEND_PAD = { top: 16, bottom: 26 };
const SPEND_PLOT_H = SPEND_H - SPEND_PAD.top - SPEND_PAD.bottom;
const tokensText = (n: number) => n.toLocaleString("en-US");

/** The session's cumulative tokens after each tool call, on the same x as the U chart. */
export function cumulativeSpendAt(records: readonly LogRecord[], spend: SessionSpend): Array<{ tokens: number; usd: number }> {
  const out: Array<{ tokens: number; usd: number }> = [];
  let next = 0;
  let current = { tokens: 0, usd: 0 };
  records.forEach((record, index) => {
    while (next < spend.steps.length && spend.steps[next]!.index <= index) {
      current = { tokens: spend.steps[next]!.sessionTotal, usd: spend.steps[next]!.sessionCostUsd };
      next += 1;
    }
    if (record.event === "PreToolUse") out.push(current);
  });
  return out;
}

function spendChartSvg(records: readonly LogRecord[], spend: SessionSpend): string {
  const points = cumulativeSpendAt(records, spend);
  const n = points.length;
  const max = Math.max(1, spend.total.total);
  const xOf = (i: number) => PAD.left + ((i + 0.5) / Math.max(n, 1)) * PLOT_W;
  const yOf = (tokens: number) => SPEND_PAD.top + (1 - tokens / max) * SPEND_PLOT_H;
  const parts = [`<rect class="plot" x="${PAD.left}" y="${SPEND_PAD.top}" width="${PLOT_W}" height="${SPEND_PLOT_H}"/>`];
  for (const [value, label] of [
    [0, "0"],
    [max, tokensText(spend.total.total)],
  ] as const) {
    parts.push(`<text class="tick" x="${PAD.left - 8}" y="${r1(yOf(value)) + 4}" text-anchor="end">${label}</text>`);
  }
  parts.push(
    `<text class="axis" transform="translate(16 ${SPEND_PAD.top + SPEND_PLOT_H / 2}) rotate(-90)" text-anchor="middle">tokens</text>`,
  );
  const path = points.map((p, i) => `${r1(xOf(i))},${r1(yOf(p.tokens))}`);
  if (n > 0) {
    parts.push(`<polyline class="spend" data-final-tokens="${points[n - 1]!.tokens}" points="${path.join(" ")}"/>`);
    points.forEach((p, i) =>
      parts.push(
        `<circle class="spend-point" data-seq="${i + 1}" data-tokens="${p.tokens}" cx="${r1(xOf(i))}" cy="${r1(yOf(p.tokens))}" r="2.5"><title>${escapeHtml(`after call ${i + 1}: ${tokensText(p.tokens)} tokens, about ${formatUsd(p.usd)}`)}</title></circle>`,
      ),
    );
  }
  parts.push(
    `<text class="axis" x="${PAD.left + PLOT_W / 2}" y="${SPEND_H - 6}" text-anchor="middle">cumulative spend of the session, every scope together: ${escapeHtml(tokensText(spend.total.total))} tokens, about ${escapeHtml(formatUsd(spend.total.costUsd))}</text>`,
  );
  return `<svg class="spend-chart" role="img" aria-label="cumulative spend" viewBox="0 0 ${W} ${SPEND_H}" width="${W}" height="${SPEND_H}" xmlns="http://www.w3.org/2000/svg">${parts.join("")}</svg>`;
}

function tokenCells(t: {
  tokens: { input: number; output: number; cacheCreation: number; cacheRead: number };
  total: number;
  costUsd: number;
}): string[] {
  return [t.tokens.input, t.tokens.output, t.tokens.cacheCreation, t.tokens.cacheRead, t.total]
    .map(tokensText)
    .concat(formatUsd(t.costUsd));
}

function spendTables(spend: SessionSpend, titles: ReadonlyMap<string, string>): string {
  const head = ["scope", "task", "input", "output", "cache writes", "cache reads", "tokens", "cost (est.)"];
  const rows = spend.scopes.flatMap((s) => [
    ...s.tasks.map((t) => ({ cells: [escapeHtml(titles.get(s.key) ?? s.key), String(t.task), ...tokenCells(t)] })),
    ...(s.tasks.length > 1
      ? [{ cells: [escapeHtml(titles.get(s.key) ?? s.key), "all", ...tokenCells(s.total)], className: "subtotal" }]
      : []),
  ]);
  rows.push({ cells: ["session", "all", ...tokenCells(spend.total)], className: "subtotal" });
  const stepHead = ["#", "scope", "task · step", "call", "tokens", "cost (est.)", "session tokens so far", "session cost so far"];
  const stepRows = spend.steps.map((s, i) => ({
    cells: [
      String(i + 1),
      escapeHtml(titles.get(s.scope) ?? s.scope),
      `${s.task} · ${s.step}`,
      escapeHtml(s.tool ?? ""),
      tokensText(s.total),
      formatUsd(s.costUsd),
      tokensText(s.sessionTotal),
      formatUsd(s.sessionCostUsd),
    ],
  }));
  const assumed =
    spend.assumedModels.length > 0
      ? ` Models that name no family are priced at the dearest published rate: ${spend.assumedModels.map((m) => `<code>${escapeHtml(m)}</code>`).join(", ")}.`
      : "";
  return `<p class="meta">Estimated from the prices of ${escapeHtml(spend.prices.date)} (${escapeHtml(spend.prices.source.replace(/^https?:\/\//, ""))}).${assumed}</p>
<div class="scroll">${table("spend", head, rows)}</div>
<h2>Spend per step</h2>
<div class="scroll">${table("spend-steps", stepHead, stepRows)}</div>`;
}

// ---- Tables ----

function countsCell(map: Record<string, number>): string {
  const entries = Object.entries(map).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return "–";
  return entries
    .map(([name, n]) => {
      const swatch = ACTION_COLORS[name]
        ? `<span class="swatch" style="background:${ACTION_COLORS[name]}"></span>`
        : name === NO_REPORT
          ? `<span class="swatch none"></span>`
          : "";
      return `<span class="count">${swatch}${escapeHtml(name)} ${n}</span>`;
    })
    .join(" ");
}

function summaryTable(scopes: readonly ScopeSummary[]): string {
  const head = [
    "scope",
    "gating",
    "steps",
    "steps by action",
    "refused",
    "refusals by rule",
    "overrides",
    "repeats caught",
    "budget used",
    "tasks",
  ];
  const rows = scopes.map((s) => {
    const budget = s.budget ? `${s.budget.steps} / ${s.budget.maxSteps}${s.tasks.length > 1 ? ` (task ${s.budget.task})` : ""}` : "–";
    const overrides =
      s.overrides.length === 0
        ? "0"
        : s.overrides.map((o) => `task ${o.task} step ${o.step}: ${escapeHtml(o.action)} Gain ${o.gain}`).join("<br>");
    const tasks = s.tasks.map((t) => `${t.task}: ${t.steps}/${t.maxSteps}${t.refusals ? `, ${t.refusals} refused` : ""}`).join("<br>");
    return [
      escapeHtml(scopeTitle(s)),
      s.gatedBy.length ? `gated by ${s.gatedBy.map((g) => `<code>${escapeHtml(g)}</code>`).join(", ")}` : "not gated",
      String(s.steps),
      countsCell(s.stepsByAction),
      String(s.refusals),
      countsCell(s.refusalsByRule),
      overrides,
      `${s.repeats}${s.repeats ? ` (${s.repeatsRefused} refused)` : ""}`,
      budget,
      tasks || "–",
    ];
  });
  return table(
    "summary",
    head,
    rows.map((cells) => ({ cells })),
  );
}

function recordsTable(records: readonly LogRecord[]): string {
  const head = ["#", "time", "scope", "task · step", "call / event", "decision", "action", "U", "G · SC · Unc · Red", "rationale / reason"];
  return table("records", head, records.map(recordRow));
}

function recordRow(record: LogRecord, i: number): { cells: string[]; className: string | undefined } {
  const r = record.report;
  const notes = [
    record.rule ? `<span class="rule">${escapeHtml(record.rule)}</span>` : "",
    record.repeat ? `<span class="note">repeat of step ${record.repeat.ofStep}</span>` : "",
  ].filter(Boolean);
  const what = record.event === "PreToolUse" ? escapeHtml(record.tool ?? "?") : `<span class="event">${escapeHtml(record.event)}</span>`;
  const text = [r?.rationale, record.reason].filter((t): t is string => t !== undefined && t !== "");
  return {
    cells: [
      String(i + 1),
      escapeHtml(/T(\d\d:\d\d:\d\d)/.exec(record.time)?.[1] ?? record.time),
      escapeHtml(scopeCell(record)),
      `${record.task} · ${record.step}/${record.maxSteps}`,
      what,
      [escapeHtml(record.decision), ...notes].join("<br>"),
      ...reportCells(r),
      text.map((t) => `<div>${escapeHtml(t)}</div>`).join(""),
    ],
    className: record.decision === "refused" ? "refused" : record.decision === "blocked" ? "blocked" : undefined,
  };
}

/** The action, U and signal cells of a record's report; empty without one. */
function reportCells(r: LogRecord["report"]): [string, string, string] {
  if (!r) return ["", "", ""];
  return [
    `<span class="swatch" style="background:${ACTION_COLORS[r.action] ?? "#333"}"></span>${escapeHtml(r.action)}`,
    r.utility.toFixed(2),
    [r.gain, r.stepCost, r.uncertainty, r.redundancy].map((v) => escapeHtml(v)).join(" · "),
  ];
}

function table(
  className: string,
  head: readonly string[],
  rows: ReadonlyArray<{ cells: string[]; className?: string | undefined }>,
): string {
  const thead = `<thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>`;
  const body = rows
    .map((row) => `<tr${row.className ? ` class="${row.className}"` : ""}>${row.cells.map((c) => `<td>${c}</td>`).join("")}</tr>`)
    .join("");
  return `<table class="${className}">${thead}<tbody>${body}</tbody></table>`;
}

const CSS = `
:root{color-scheme:light;--ink:#1d1d1f;--muted:#6e6e73;--line:#d2d2d7;--bg:#fbfbfd}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px 48px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg)}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:16px;margin:28px 0 10px}
.meta{color:var(--muted);margin:0}
.totals{display:flex;gap:12px;flex-wrap:wrap;margin:16px 0 0;padding:0;list-style:none}
.totals li{background:#fff;border:1px solid var(--line);border-radius:8px;padding:8px 14px}
.totals b{display:block;font-size:20px}
figure{margin:0;background:#fff;border:1px solid var(--line);border-radius:10px;padding:12px 12px 6px}
svg.chart{display:block;width:100%;height:auto;max-width:${W}px}
svg.chart text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;fill:#444}
svg.chart .plot{fill:#fcfcfd;stroke:var(--line)}
svg.chart .grid{stroke:#ececf0}
svg.chart .zero{stroke:#b8b8c0}
svg.chart .floor{stroke:${REFUSED_COLOR};stroke-width:2;stroke-dasharray:8 5}
svg.chart .floor-label{fill:${REFUSED_COLOR};font-weight:600}
svg.chart .segment{stroke:#9a9aa3;stroke-dasharray:3 4}
svg.chart .segment-label{fill:var(--muted);font-size:11px}
svg.chart .trace{fill:none;stroke:#b9bcc6;stroke-width:1.5}
svg.chart .rug{stroke:#a0a0a8;stroke-width:2}
svg.chart .rug.refused{stroke:${REFUSED_COLOR}}
svg.chart .axis{fill:var(--muted)}
svg.chart .empty{fill:var(--muted);font-size:16px}
.legend{display:flex;flex-wrap:wrap;gap:6px 18px;list-style:none;margin:8px 0 4px;padding:0 8px;color:#333}
.legend li{display:flex;align-items:center;gap:6px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;background:#fff;border:1px solid var(--line);width:100%}
th,td{padding:6px 8px;border-bottom:1px solid #ececf0;text-align:left;vertical-align:top}
th{background:#f3f3f6;font-weight:600;position:sticky;top:0}
table.records{font-size:12.5px}
table.records td:nth-child(1),table.records td:nth-child(4),table.records td:nth-child(8){font-variant-numeric:tabular-nums;text-align:right}
table.records td:nth-child(9){font-variant-numeric:tabular-nums;color:#444}
.event{font-style:italic;color:var(--muted)}
.note{color:var(--muted)}
.rule{color:${REFUSED_COLOR};font-weight:600}
table.records td{white-space:nowrap}
table.records td:last-child{min-width:20em;white-space:pre-wrap;overflow-wrap:anywhere}
table.records td:last-child div+div{margin-top:4px;color:#7a3b12}
tr.refused td{background:#fff4ee}
tr.blocked td{background:#fffbe6}
tr.subtotal td{font-weight:600;background:#f7f7fa}
table.spend td,table.spend-steps td{font-variant-numeric:tabular-nums}
svg.spend-chart{display:block;width:100%;height:auto;max-width:${W}px;margin-top:6px}
svg.spend-chart text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;fill:#444}
svg.spend-chart .plot{fill:#fcfcfd;stroke:var(--line)}
svg.spend-chart .axis{fill:var(--muted)}
svg.spend-chart .spend{fill:none;stroke:#0072B2;stroke-width:2}
svg.spend-chart .spend-point{fill:#0072B2}
.swatch{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:5px;vertical-align:baseline}
.swatch.none{background:#c8c8cf}
.count{white-space:nowrap;margin-right:8px}
code{font-size:12px;background:#f3f3f6;padding:1px 4px;border-radius:4px;overflow-wrap:anywhere}
`;

/** The whole page. */
export function renderReportHtml(records: readonly LogRecord[], options: HtmlOptions = {}): string {
  const floor = options.floor ?? DEFAULT_CONFIG.floor;
  const summary = summarize(records);
  const reported = records.filter((r) => r.event === "PreToolUse" && r.report).length;
  const session = summary.session ?? "(unknown session)";
  const meta = [
    `${summary.records} record${summary.records === 1 ? "" : "s"}`,
    summary.from && summary.to ? `${summary.from} → ${summary.to}` : undefined,
    options.source ? `from ${options.source}` : undefined,
  ].filter(Boolean);
  const t = summary.totals;
  const totals = [
    ["steps", t.steps],
    ["refused", t.refusals],
    ["overrides", t.overrides],
    ["repeats caught", t.repeats],
    ["calls with a report", reported],
  ]
    .map(([label, value]) => `<li><b>${value}</b>${label}</li>`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>utility report: ${escapeHtml(session)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>utility report</h1>
<p class="meta">session <code>${escapeHtml(session)}</code> · ${meta.map(escapeHtml).join(" · ")}</p>
<ul class="totals">${totals}</ul>
</header>
<section>
<h2>U per step</h2>
<figure>${chartSvg(records, floor)}${legend()}${spendChartSvg(records, summary.spend)}</figure>
</section>
<section>
<h2>Spend per scope and task</h2>
${spendTables(summary.spend, new Map(summary.scopes.map((s) => [s.key, scopeTitle(s)])))}
</section>
<section>
<h2>Per scope</h2>
<div class="scroll">${summaryTable(summary.scopes)}</div>
</section>
<section>
<h2>Records</h2>
<div class="scroll">${recordsTable(records)}</div>
</section>
</body>
</html>
`;
}
