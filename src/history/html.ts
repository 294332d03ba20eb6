// The history as one self-contained HTML page (`utility replay --html FILE`):
// inline CSS and SVG, no script, nothing fetched. It lays out a HistoryReport
// and computes nothing but layout. Prompts and descriptions are model or user
// text: everything from the sessions is escaped.
import { escapeHtml, pageStart } from "../summary/html-parts.js";
import type { BudgetEffect, BudgetSetting } from "./budgets.js";
import { SETTING_VALUE, stoppedOf } from "./effect-words.js";
import {
  bytesText,
  grouped,
  identicalText,
  percentText,
  plural,
  shortSession,
  stuckWords,
  subagentLabel,
  taskLabel,
  tokensText,
  usdText,
} from "./labels.js";
import type { HistoryReport, TaskView } from "./report.js";
import { readLine } from "./text.js";

const W = 1000;
const LEFT = 70;
const RIGHT = 210;
const TOP = 14;
const PLOT_H = 260;
const PLOT_W = W - LEFT - RIGHT;

const BUDGET_COLOR = "#7a3b8f";
const BAR_COLOR = "#0072B2";
const OVER_COLOR = "#D55E00";

const r1 = (n: number) => Math.round(n * 10) / 10;
const e = escapeHtml;

/** Powers of ten from below `low` to above `high`: the log axis' ticks. */
function decades(low: number, high: number): number[] {
  const out: number[] = [];
  for (let v = 10 ** Math.floor(Math.log10(Math.max(1, low))); v <= high * 10; v *= 10) {
    out.push(v);
    if (v >= high) break;
  }
  return out;
}

/** Every task's tokens, largest first, on a log scale; the percentiles and the suggested budget as lines. */
function spendChart(report: HistoryReport, tokens: readonly number[]): string {
  const sorted = [...tokens].sort((a, b) => b - a);
  const positive = sorted.filter((v) => v > 0);
  if (positive.length === 0) return `<p class="empty-state">No task reported any token usage: there is nothing to draw.</p>`;
  const budget = report.suggestedBudgets.budgets.token_budget.value;
  const ticks = decades(positive.at(-1)!, Math.max(positive[0]!, budget ?? 0));
  const [low, high] = [ticks[0]!, ticks.at(-1)!];
  const y = (v: number) =>
    r1(TOP + PLOT_H - ((Math.log10(Math.max(v, low)) - Math.log10(low)) / (Math.log10(high) - Math.log10(low))) * PLOT_H);
  const slot = PLOT_W / sorted.length;
  const bars = sorted.map((v, i) => {
    const top = y(v);
    const over = budget !== null && v > budget;
    return `<rect class="task${over ? " over" : ""}" data-tokens="${v}" x="${r1(LEFT + i * slot)}" y="${top}" width="${r1(Math.max(slot - (slot > 3 ? 1 : 0), 0.6))}" height="${r1(TOP + PLOT_H - top)}"><title>${e(`${tokensText(v)} tokens (rank ${i + 1})`)}</title></rect>`;
  });
  const p = report.percentiles.tokens;
  const lines: Array<[string, number, string]> = [
    ["median", p.p50, "pct"],
    ["90th percentile", p.p90, "pct"],
    ["99th percentile", p.p99, "pct"],
  ];
  if (budget !== null) lines.push(["suggested budget", budget, "budget"]);
  const marks = layoutLabels(
    lines.filter(([, v]) => v > 0).map(([label, v, kind]) => ({ label: `${label}: ${tokensText(v)}`, y: y(v), kind })),
  );
  const gridlines = ticks.map(
    (t) =>
      `<line class="grid" x1="${LEFT}" x2="${LEFT + PLOT_W}" y1="${y(t)}" y2="${y(t)}"/><text class="axis" x="${LEFT - 8}" y="${y(t) + 4}" text-anchor="end">${e(tokensText(t))}</text>`,
  );
  const height = TOP + PLOT_H + 36;
  return `<svg class="chart spend-rank" viewBox="0 0 ${W} ${height}" role="img" aria-label="${e(`tokens per task, ${sorted.length} tasks, largest first, on a log scale`)}">
<rect class="plot" x="${LEFT}" y="${TOP}" width="${PLOT_W}" height="${PLOT_H}"/>
${gridlines.join("\n")}
<g class="tasks">${bars.join("")}</g>
${marks.join("\n")}
<text class="axis" x="${LEFT + PLOT_W / 2}" y="${TOP + PLOT_H + 24}" text-anchor="middle">${e(`${plural(sorted.length, "task")}, largest first`)}</text>
<text class="axis" transform="translate(16 ${TOP + PLOT_H / 2}) rotate(-90)" text-anchor="middle">tokens per task (log)</text>
</svg>`;
}

/** Horizontal lines with their labels on the right, the labels moved apart so none overlaps another. */
function layoutLabels(items: Array<{ label: string; y: number; kind: string }>): string[] {
  const sorted = [...items].sort((a, b) => a.y - b.y);
  const placed: number[] = [];
  for (const item of sorted) placed.push(Math.max(item.y + 4, (placed.at(-1) ?? -Infinity) + 15));
  return sorted.map(
    (item, i) =>
      `<line class="${item.kind}" x1="${LEFT}" x2="${LEFT + PLOT_W}" y1="${item.y}" y2="${item.y}"/><text class="${item.kind}-label" x="${LEFT + PLOT_W + 8}" y="${r1(placed[i]!)}">${e(item.label)}</text>`,
  );
}

function totalsList(report: HistoryReport): string {
  const t = report.totals;
  const items: Array<[string, string]> = [
    ["tasks", grouped(t.tasks)],
    ["tool calls", grouped(t.calls)],
    ["subagents", grouped(t.agents)],
    ["tokens", tokensText(t.spend.total)],
    ["cost (est.)", usdText(t.spend.costUsd)],
    ["exact repeats", grouped(t.repeats)],
  ];
  items.push(["identical outcomes", grouped(t.identicalOutcomes)], ["stuck loops", grouped(t.stuckLoops)]);
  return `<ul class="totals">${items.map(([label, value]) => `<li><b>${e(value)}</b>${e(label)}</li>`).join("")}</ul>`;
}

const MEASURES: Array<[keyof HistoryReport["percentiles"], string, (v: number) => string]> = [
  ["tokens", "tokens", tokensText],
  ["costUsd", "dollars (est.)", usdText],
  ["agents", "subagents", String],
  ["calls", "tool calls", (v) => grouped(v)],
];

/** A subagent's own spend (SPEC §16), over every subagent of the tasks. */
const SUBAGENT_MEASURES: Array<[keyof HistoryReport["subagentPercentiles"], string, (v: number) => string]> = [
  ["tokens", "tokens", tokensText],
  ["costUsd", "dollars (est.)", usdText],
  ["calls", "tool calls", (v) => grouped(v)],
];

function percentileTable(report: HistoryReport): string {
  const p = report.percentiles;
  const rows = MEASURES.map(
    ([key, name, show]) =>
      `<tr data-measure="${key}"><th scope="row">${e(name)}</th><td>${e(show(p[key].p50))}</td><td>${e(show(p[key].p90))}</td><td>${e(show(p[key].p99))}</td><td>${e(show(p[key].max))}</td></tr>`,
  );
  const q = report.subagentPercentiles;
  const own = SUBAGENT_MEASURES.filter(() => q.tokens.n > 0).map(
    ([key, name, show]) =>
      `<tr data-measure="subagent-${key}"><th scope="row">${e(name)} per subagent</th><td>${e(show(q[key].p50))}</td><td>${e(show(q[key].p90))}</td><td>${e(show(q[key].p99))}</td><td>${e(show(q[key].max))}</td></tr>`,
  );
  return `<table class="percentiles"><thead><tr><th>per task</th><th>median</th><th>90th</th><th>99th</th><th>largest</th></tr></thead><tbody>${[...rows, ...own].join("")}</tbody></table>`;
}

function whereCell(view: Parameters<typeof taskLabel>[0], all: boolean): string {
  const date = view.startedAt?.slice(0, 10);
  const prompt = view.prompt !== undefined ? `“${e(view.prompt)}”` : `<span class="note">a resumed session: no prompt</span>`;
  const project = all && view.project !== undefined ? `<span class="note">${e(view.project)}</span><br>` : "";
  return `${project}<code title="${e(view.session)}">${e(shortSession(view.session))}</code> task ${view.task}${date ? ` · ${e(date)}` : ""}<br>${prompt}`;
}

function largestTable(report: HistoryReport): string {
  const all = report.read.what !== "project";
  const rows = report.largest.tokens.map((v: TaskView, i) => {
    const subs = v.subagents.map(
      (s) => `<li>${e(subagentLabel(s, v.task))}: ${e(tokensText(s.tokens))} tokens, ${e(usdText(s.costUsd))}</li>`,
    );
    return `<tr id="largest-${i + 1}"><td>${i + 1}</td><td>${e(tokensText(v.tokens))}</td><td>${e(usdText(v.costUsd))}</td><td>${v.calls}</td><td>${v.agents}</td><td>${whereCell(v, all)}${subs.length > 0 ? `<ul class="subagents">${subs.join("")}</ul>` : ""}</td></tr>`;
  });
  return `<table class="largest"><thead><tr><th>#</th><th>tokens</th><th>dollars</th><th>calls</th><th>subagents</th><th>where</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function whatIfTable(report: HistoryReport): string {
  const suggested = (s: BudgetSetting, v: number) => report.suggestedBudgets.budgets[s].value === v;
  const rows = (Object.values(report.whatIf) as BudgetEffect[][]).flat().map((effect) => {
    const top = effect.examples[0];
    return `<tr class="${suggested(effect.setting, effect.value) ? "suggested" : ""}"><td><code>${e(effect.setting)}</code></td><td>${e(SETTING_VALUE[effect.setting](effect.value))}${suggested(effect.setting, effect.value) ? ` <span class="tag">suggested</span>` : ""}</td><td>${e(stoppedOf(effect))}</td><td>${e(tokensText(effect.savedTokens))}</td><td>${e(usdText(effect.savedUsd))}</td><td>${top ? `${e(tokensText(top.savedTokens))} tokens from ${top.subagent ? `${e(subagentLabel(top.subagent, top.task))}, in ` : ""}${whereCell(top, report.read.what !== "project")}` : `<span class="note">none</span>`}</td></tr>`;
  });
  if (rows.length === 0) return `<p class="empty-state">No task spent anything: there is no budget to try.</p>`;
  return `<table class="what-if"><thead><tr><th>setting</th><th>value</th><th>stopped</th><th>tokens saved (at most)</th><th>dollars saved (at most)</th><th>most saved in</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function repeatsSection(report: HistoryReport): string {
  const r = report.repeats;
  const identical = `<p>${e(identicalText(report.totals.identicalOutcomes))}</p>${stuckHtml(report)}`;
  if (r.count === 0)
    return `<p class="empty-state" data-empty="repeats">No exact repeat: no call repeated an identical one with nothing in between that could change its result.</p>${identical}`;
  const most = Math.max(...r.byTool.map((t) => t.count));
  const bars = r.byTool
    .slice(0, 8)
    .map(
      (t) =>
        `<li><span class="tool">${e(t.tool)}</span><span class="bar" style="width:${r1((t.count / most) * 60)}%"></span><span class="n">${t.count}</span></li>`,
    );
  const where = r.most.map((m) => `<li>${plural(m.repeats, "repeat")} in ${e(taskLabel(m))}</li>`);
  return `<p><b>${r.count}</b> calls (${percentText(r.shareOfCalls)} of the calls) repeated an identical call with nothing in between that could change its result, ≈ ${e(tokensText(r.tokens))} tokens of results.</p>
<ul class="by-tool">${bars.join("")}</ul>
${where.length > 0 ? `<h3>Where most</h3><ul>${where.join("")}</ul>` : ""}
${identical}`;
}

function stuckHtml(report: HistoryReport): string {
  const { head, items } = stuckWords(report.stuckLoops);
  return `<p>${e(head)}</p>${items.length > 0 ? `<ul>${items.map((item) => `<li>${e(item)}</li>`).join("")}</ul>` : ""}`;
}

function suggestionsSection(report: HistoryReport): string {
  const s = report.suggestedBudgets;
  const rows = (Object.values(s.budgets) as Array<(typeof s.budgets)[BudgetSetting]>).map(
    (b) =>
      `<tr data-setting="${b.setting}"><td><code>${e(b.setting)}</code></td><td class="value">${b.value === null ? `<span class="note">leave unset</span>` : e(String(b.value))}</td><td>${e(b.derivation)}${b.effect ? `<br><span class="note">${e(b.effect.stopped === 0 ? `would have stopped no ${b.effect.of === "subagents" ? "subagent" : "task"} in these sessions` : `would have stopped ${stoppedOf(b.effect)}, saving up to ${tokensText(b.effect.savedTokens)} tokens (${usdText(b.effect.savedUsd)})`)}</span>` : ""}</td></tr>`,
  );
  const command = s.command
    ? `<p>Set them (then restart Claude Code):</p><pre class="command"><code>${e(s.command)}</code></pre>`
    : `<p class="empty-state">Nothing to set: no task spent anything.</p>`;
  return `<table class="suggested"><thead><tr><th>setting</th><th>value</th><th>how</th></tr></thead><tbody>${rows.join("")}</tbody></table>${command}`;
}

const CSS = `
:root{color-scheme:light;--ink:#1d1d1f;--muted:#6e6e73;--line:#d2d2d7;--bg:#fbfbfd}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px 48px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg);max-width:1180px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:16px;margin:28px 0 10px}
h3{font-size:14px;margin:14px 0 6px}
.meta{color:var(--muted);margin:0}
.totals{display:flex;gap:12px;flex-wrap:wrap;margin:16px 0 0;padding:0;list-style:none}
.totals li{background:#fff;border:1px solid var(--line);border-radius:8px;padding:8px 14px}
.totals b{display:block;font-size:20px}
figure{margin:0;background:#fff;border:1px solid var(--line);border-radius:10px;padding:12px}
svg.chart{display:block;width:100%;height:auto;max-width:${W}px}
svg.chart text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;fill:#444}
svg.chart .plot{fill:#fcfcfd;stroke:var(--line)}
svg.chart .grid{stroke:#ececf0}
svg.chart .task{fill:${BAR_COLOR}}
svg.chart .task.over{fill:${OVER_COLOR}}
svg.chart .pct{stroke:#6e6e73;stroke-width:1.2;stroke-dasharray:6 4}
svg.chart .pct-label{fill:#444}
svg.chart .budget{stroke:${BUDGET_COLOR};stroke-width:2;stroke-dasharray:2 3}
svg.chart .budget-label{fill:${BUDGET_COLOR};font-weight:600}
svg.chart .axis{fill:var(--muted)}
.legend{display:flex;gap:18px;list-style:none;margin:8px 0 0;padding:0 8px;color:#333;font-size:13px}
.legend i{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:-1px}
table{border-collapse:collapse;background:#fff;border:1px solid var(--line);width:100%;margin-top:10px}
th,td{padding:6px 10px;border-bottom:1px solid #ececf0;text-align:left;vertical-align:top}
th{background:#f3f3f6;font-weight:600}
table.percentiles td,table.largest td:nth-child(-n+5),table.what-if td:nth-child(n+3):nth-child(-n+5){font-variant-numeric:tabular-nums;text-align:right;white-space:nowrap}
table.percentiles{width:auto}
table.percentiles td{min-width:7em}
tr.suggested td{background:#f6effa}
.tag{font-size:11px;color:#fff;background:${BUDGET_COLOR};border-radius:4px;padding:1px 5px;margin-left:4px}
ul.subagents{margin:4px 0 0;padding-left:1.2em;color:#333;font-size:13px}
.by-tool{list-style:none;padding:0;margin:8px 0;max-width:640px}
.by-tool li{display:flex;align-items:center;gap:8px;margin:3px 0}
.by-tool .tool{width:9em;text-align:right;color:#333}
.by-tool .bar{display:inline-block;height:12px;background:${BAR_COLOR};border-radius:2px}
.by-tool .n{font-variant-numeric:tabular-nums}
td.value{font-variant-numeric:tabular-nums;font-weight:600;white-space:nowrap}
pre.command{background:#1d1d1f;color:#f5f5f7;padding:12px 14px;border-radius:8px;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
pre.command code{background:none;color:inherit;font-size:13px}
.note{color:var(--muted)}
.empty-state{margin:10px 4px;padding:10px 14px;background:#f3f3f6;border-radius:8px;color:#333;max-width:60em}
code{font-size:12px;background:#f3f3f6;padding:1px 4px;border-radius:4px;overflow-wrap:anywhere}
footer{margin-top:28px;color:var(--muted);font-size:12px}
`;

/** The whole page. */
export function renderHistoryHtml(report: HistoryReport): string {
  const tokens = report.tasks.map((t) => t.tokens);
  const title = readLine(report).replace(/^utility replay: /, "");
  const over = report.suggestedBudgets.budgets.token_budget.value;
  const body =
    report.totals.tasks === 0
      ? `<p class="empty-state" data-empty="tasks">No task found in these sessions: there is nothing to show.</p>`
      : `<section>
<h2>Spend per task</h2>
<figure>${spendChart(report, tokens)}
<ul class="legend"><li><i style="background:${BAR_COLOR}"></i>a task's tokens (its subagents included)</li>${over !== null ? `<li><i style="background:${OVER_COLOR}"></i>over the suggested token_budget</li>` : ""}</ul></figure>
${percentileTable(report)}
</section>
<section>
<h2>The largest tasks</h2>
${largestTable(report)}
</section>
<section>
<h2>What budgets would have done</h2>
<p class="note">A budget refuses a task's next tool call once the task has spent it, and the model is told to respond or stop; what it saves is at most what the task spent after that call. <code>max_agents</code> keeps the subagents past it from starting.</p>
${whatIfTable(report)}
</section>
<section>
<h2>Exact repeats</h2>
${repeatsSection(report)}
</section>
<section>
<h2>Suggested settings</h2>
${suggestionsSection(report)}
</section>`;
  return `${pageStart(`utility replay: ${title}`, CSS)}
<header>
<h1>utility replay</h1>
<p class="meta">${e(title)}</p>
${report.totals.tasks > 0 ? totalsList(report) : ""}
</header>
${body}
<footer>
<p>Cost estimated at the prices of ${e(report.pricesDate)}. Percentiles by nearest rank. ${e(bytesText(report.read.bytes))} read.</p>
<p>estimate: ${e(report.tokenEstimate)}</p>
<p>policy: ${e(report.policy)}</p>
</footer>
</body>
</html>
`;
}
