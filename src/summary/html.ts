// The session report as one self-contained HTML page: inline CSS and SVG, no
// script, nothing fetched (a Content-Security-Policy says so to the browser too).
// It lays out a ReportView (./report-view.ts) and computes nothing of its own
// beyond layout. Everything that comes from the log is escaped: rationales and
// reasons are model text.
import { ACTIONS } from "../engine/vocabulary.js";
import { formatUsd } from "../engine/prices.js";
import { stepsChartSvg, spendChartsSvg } from "./html-budget-charts.js";
import {
  ACTION_COLORS,
  BUDGET_COLOR,
  escapeHtml,
  minus,
  NO_REPORT_COLOR,
  pageStart,
  REFUSED_COLOR,
  tokensText,
  W,
  whereText,
} from "./html-parts.js";
import { recordsTable, spendTables, summaryTable } from "./html-tables.js";
import { uChartSvg } from "./html-u-chart.js";
import { agentCapsSection } from "./html-agent-caps.js";
import type { EntryView, ReportView } from "./report-view.js";
import { firstSentence } from "./text.js";

export { ACTION_COLORS, escapeHtml } from "./html-parts.js";

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const isStopped = (e: EntryView) => e.decision === "refused" || e.decision === "blocked";

// ---- Words where a chart has nothing to draw ----

/** Why there is no U chart, and what the page shows instead. */
function noUChart(view: ReportView): string {
  if (view.entries.length === 0)
    return `<p class="empty-state">No tool call and no end of a turn is recorded yet: there is nothing to draw.</p>`;
  const calls = view.entries.filter((e) => e.kind === "call").length;
  const gated = view.entries.some((e) => e.gated);
  const why = gated
    ? "Gated, but no decision carries a report the gate read, so there is no U to draw."
    : "Not gated: no scope of this session opted in to the gate, so the model wrote no reports the gate checked, and there is no U (and no floor) to draw.";
  const shows = [
    `its ${plural(calls, "tool call")} against each task's step budget`,
    `the ${plural(view.totals.repeats, "exact repeat")} the code caught`,
    view.spend ? "what each task spent" : "that no spend was recorded",
  ];
  return `<p class="empty-state" data-empty="u-chart">${why} What this page shows: ${shows.join(", ")}.</p>`;
}

const NO_SPEND = `<p class="empty-state" data-empty="spend">No spend data: no record in this log carries the token usage of its message, so there are no tokens or cost to show.</p>`;

// ---- Legend and the list of refusals ----

function swatch(inner: string, width = 18): string {
  return `<svg width="${width}" height="18" aria-hidden="true">${inner}</svg>`;
}

/** What the charts draw, and only that. */
function legend(view: ReportView, uDrawn: boolean): string {
  const entries = view.entries;
  const actions = ACTIONS.filter((a) => entries.some((e) => e.report?.action === a));
  const items = actions.map((a) => [swatch(`<circle cx="9" cy="9" r="6" fill="${ACTION_COLORS[a]}"/>`), a]);
  if (entries.some((e) => !e.report))
    items.push([
      swatch(`<circle cx="9" cy="9" r="6" fill="${NO_REPORT_COLOR}"/>`),
      uDrawn ? "no report (under the U chart: a tick)" : "no report",
    ]);
  items.push([
    swatch(`<circle cx="7" cy="9" r="5" fill="#555"/><rect x="15" y="4" width="10" height="10" rx="1.5" fill="#555"/>`, 28),
    entries.some((e) => e.kind === "end") ? "tool call, end of turn" : "tool call",
  ]);
  if (entries.some(isStopped))
    items.push([
      swatch(
        `<circle cx="9" cy="9" r="7" fill="#fff" stroke="#555" stroke-width="2"/><path d="M5,5L13,13M5,13L13,5" stroke="${REFUSED_COLOR}" stroke-width="2.5" stroke-linecap="round"/>`,
      ),
      "refused, or a stop blocked (ring: the action; label: the rule)",
    ]);
  if (uDrawn && entries.some((e) => e.gated))
    items.push([
      swatch(`<line x1="1" x2="23" y1="9" y2="9" stroke="${REFUSED_COLOR}" stroke-width="2" stroke-dasharray="5 3"/>`, 24),
      "floor",
    ]);
  items.push([
    swatch(`<line x1="1" x2="23" y1="9" y2="9" stroke="${BUDGET_COLOR}" stroke-width="2" stroke-dasharray="2 3"/>`, 24),
    "budget",
  ]);
  if (entries.some((e) => e.repeatOf !== undefined))
    items.push([swatch(`<circle cx="9" cy="9" r="7" fill="none" stroke="#1d1d1f" stroke-width="1.5"/>`), "exact repeat (ring)"]);
  return `<ul class="legend" aria-label="legend">${items.map(([mark, text]) => `<li>${mark}${escapeHtml(text)}</li>`).join("")}</ul>`;
}

/** Every refused call and blocked stop in words, linked to its record. */
function refusalList(view: ReportView): string {
  const stopped = view.entries.filter(isStopped);
  if (stopped.length === 0) return "";
  const items = stopped.map((e) => {
    const what = e.kind === "call" ? (e.tool ?? "?") : "stop";
    const rule = e.rule ?? (e.decision === "blocked" ? "blocked: the last report selected a call never made" : e.decision);
    // An ungated scope writes no report, so none is missing there: its refusals (budgets) say why instead.
    const u = e.report ? ` · ${e.report.action} U ${minus(String(e.report.utility))}` : e.gated ? " · no report" : "";
    const why = e.reason ? ` · ${firstSentence(e.reason)}` : "";
    return `<li><a href="#r${e.record}">#${e.seq}</a> ${escapeHtml(what)} · <span class="rule">${escapeHtml(rule)}</span>${escapeHtml(u)} · ${escapeHtml(whereText(e, view.tracks[e.track]!))}${escapeHtml(why)}</li>`;
  });
  return `<h3>Refused and blocked (${stopped.length})</h3><ol class="refusals">${items.join("")}</ol>`;
}

// ---- Page ----

function totalsList(view: ReportView): string {
  const t = view.totals;
  const items: Array<[string, string | number]> = [
    ["steps", t.steps],
    ["refused", t.refusals],
    ["overrides", t.overrides],
    ["repeats caught", t.repeats],
    ["calls with a report", t.reported],
  ];
  if (t.noProgress) items.push(["identical outcomes", t.noProgress.identicalOutcomes], ["stuck loops", t.noProgress.stuckLoops]);
  if (view.spend) items.push(["tokens", tokensText(view.spend.total.total)], ["cost (est.)", formatUsd(view.spend.total.costUsd)]);
  const beyond = view.sessionBudgets
    ? `<p class="session-budgets"><b>Session, every task and subagent:</b> ${escapeHtml(view.sessionBudgets.text)}</p>`
    : "";
  return `<ul class="totals">${items.map(([label, value]) => `<li><b>${escapeHtml(value)}</b>${escapeHtml(label)}</li>`).join("")}</ul>${beyond}`;
}

function chartsFigure(view: ReportView): string {
  if (view.entries.length === 0) return noUChart(view);
  const u = uChartSvg(view);
  const spend = view.spend ? spendChartsSvg(view).join("") : NO_SPEND;
  return `<figure>${u ? "" : noUChart(view)}${legend(view, u !== undefined)}${u ?? ""}${stepsChartSvg(view)}${spend}</figure>${refusalList(view)}`;
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
svg.chart{display:block;width:100%;height:auto;max-width:${W}px;margin-top:4px}
svg.chart text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;fill:#444}
svg.chart .plot{fill:#fcfcfd;stroke:var(--line)}
svg.chart .grid{stroke:#ececf0}
svg.chart .zero{stroke:#a8a8b0}
svg.chart .floor{stroke:${REFUSED_COLOR};stroke-width:2;stroke-dasharray:8 5}
svg.chart .floor-label{fill:${REFUSED_COLOR};font-weight:600}
svg.chart .budget{stroke:${BUDGET_COLOR};stroke-width:2;stroke-dasharray:2 3}
svg.chart .budget-label{fill:${BUDGET_COLOR};font-size:11px;font-weight:600}
svg.chart .segment{stroke:#9a9aa3;stroke-dasharray:3 4}
svg.chart .segment-label{fill:var(--muted);font-size:11px}
svg.chart .trace{fill:none;stroke:#b9bcc6;stroke-width:1.5}
svg.chart .steps{fill:none;stroke:#b9bcc6;stroke-width:1.5}
svg.chart .repeat{fill:none;stroke:var(--ink);stroke-width:1.5}
svg.chart .rule-label{fill:${REFUSED_COLOR};font-size:11px;font-weight:600}
svg.chart .rug-label{fill:var(--muted);font-size:11px}
svg.chart .axis{fill:var(--muted)}
svg.chart .spend{fill:none;stroke:#0072B2;stroke-width:2}
svg.chart .spend-point{fill:#0072B2}
svg.chart .rule-label,svg.chart .floor-label,svg.chart .budget-label{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg.chart a:focus{outline:2px solid #0072B2}
.empty-state{margin:10px 4px;padding:10px 14px;background:#f3f3f6;border-radius:8px;color:#333;max-width:60em}
h3{font-size:14px;margin:16px 0 6px}
ol.refusals{margin:0;padding-left:1.5em;columns:2 28em;font-size:13px}
ol.refusals li{break-inside:avoid;margin-bottom:2px}
tr:target td{background:#e8f1fb}
.legend{display:flex;flex-wrap:wrap;gap:6px 18px;list-style:none;margin:8px 0 4px;padding:0 8px;color:#333}
.legend li{display:flex;align-items:center;gap:6px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;background:#fff;border:1px solid var(--line);width:100%}
th,td{padding:6px 8px;border-bottom:1px solid #ececf0;text-align:left;vertical-align:top}
th{background:#f3f3f6;font-weight:600;position:sticky;top:0}
table.records{font-size:12.5px}
table.records td:nth-child(1),table.records td:nth-child(2),table.records td:nth-child(5),table.records td:nth-child(9){font-variant-numeric:tabular-nums;text-align:right}
table.records td:nth-child(10){font-variant-numeric:tabular-nums;color:#444}
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
.swatch{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:5px;vertical-align:baseline}
.swatch.none{background:#c8c8cf}
.count{white-space:nowrap;margin-right:8px}
code{font-size:12px;background:#f3f3f6;padding:1px 4px;border-radius:4px;overflow-wrap:anywhere}
`;

/** The whole page. */
export function renderReportHtml(view: ReportView): string {
  const session = view.session ?? "(unknown session)";
  const meta = [
    plural(view.log.length, "record"),
    view.from && view.to ? `${view.from} → ${view.to}` : undefined,
    view.source ? `from ${view.source}` : undefined,
  ].filter(Boolean);
  return `${pageStart(`utility report: ${session}`, CSS)}
<header>
<h1>utility report</h1>
<p class="meta">session <code>${escapeHtml(session)}</code> · ${meta.map(escapeHtml).join(" · ")}</p>
${totalsList(view)}
</header>
<section>
<h2>Decisions, steps and spend</h2>
${chartsFigure(view)}
</section>
<section>
<h2>Spend per scope and task</h2>
${view.spend ? spendTables(view, view.spend) : NO_SPEND}
</section>
<section>
<h2>Per scope</h2>
<div class="scroll">${summaryTable(view)}</div>
</section>
${agentCapsSection(view.agentCaps)}
<section>
<h2>Records</h2>
<div class="scroll">${recordsTable(view)}</div>
</section>
</body>
</html>
`;
}
