// The HTML report's tables: spend per scope, task and step; the per-scope
// summary; every record. Everything from the log is escaped (model text).
import { formatUsd } from "../engine/prices.js";
import type { LogRecord } from "../log/record.js";
import { ACTION_COLORS, escapeHtml, minus, tokensText } from "./html-parts.js";
import { scopeCell } from "./log-table.js";
import type { ReportView, ScopeView } from "./report-view.js";
import type { SessionSpend } from "./spend.js";
import { NO_REPORT } from "./summarize.js";
import { taskLabel } from "./task-label.js";

interface Row {
  cells: string[];
  className?: string | undefined;
  id?: string;
}

export function table(className: string, head: readonly string[], rows: readonly Row[]): string {
  const thead = `<thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("")}</tr></thead>`;
  const body = rows
    .map(
      (row) =>
        `<tr${row.id ? ` id="${row.id}"` : ""}${row.className ? ` class="${row.className}"` : ""}>${row.cells.map((c) => `<td>${c}</td>`).join("")}</tr>`,
    )
    .join("");
  return `<table class="${className}">${thead}<tbody>${body}</tbody></table>`;
}

// ---- Spend (SPEC §12) ----

function tokenCells(t: {
  tokens: { input: number; output: number; cacheCreation: number; cacheRead: number };
  total: number;
  costUsd: number;
}): string[] {
  return [t.tokens.input, t.tokens.output, t.tokens.cacheCreation, t.tokens.cacheRead, t.total]
    .map(tokensText)
    .concat(formatUsd(t.costUsd));
}

export function spendTables(view: Pick<ReportView, "log" | "entries" | "scopes">, spend: SessionSpend): string {
  const titles = new Map(view.scopes.map((s) => [s.key, s.title]));
  const seqOf = new Map(view.entries.map((e) => [e.record - 1, e.seq]));
  const head = ["scope", "task", "input", "output", "cache writes", "cache reads", "tokens", "cost (est.)"];
  const rows: Row[] = spend.scopes.flatMap((s) => [
    ...s.tasks.map((t) => ({ cells: [escapeHtml(titles.get(s.key) ?? s.key), String(t.task), ...tokenCells(t)] })),
    ...(s.tasks.length > 1
      ? [{ cells: [escapeHtml(titles.get(s.key) ?? s.key), "all", ...tokenCells(s.total)], className: "subtotal" }]
      : []),
  ]);
  rows.push({ cells: ["session", "all", ...tokenCells(spend.total)], className: "subtotal" });
  const stepHead = [
    "record",
    "chart",
    "scope",
    "task · step",
    "call",
    "tokens",
    "cost (est.)",
    "session tokens so far",
    "session cost so far",
  ];
  const stepRows = spend.steps.map((s) => ({
    cells: [
      `<a href="#r${s.index + 1}">${s.index + 1}</a>`,
      seqOf.has(s.index) ? `#${seqOf.get(s.index)}` : "",
      escapeHtml(titles.get(s.scope) ?? s.scope),
      `${s.task} · ${s.step}`,
      s.tool !== undefined ? escapeHtml(s.tool) : `<span class="event">${escapeHtml(view.log[s.index]?.event ?? "")}</span>`,
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

// ---- Per scope ----

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

function noProgressCell(s: ScopeView): string {
  if (!s.noProgress) return "not counted";
  const { identicalOutcomes, stuckLoops, stuckRefused } = s.noProgress;
  return `${identicalOutcomes} identical, ${stuckLoops} stuck${stuckRefused ? ` (${stuckRefused} refused)` : ""}`;
}

export function summaryTable(view: ReportView): string {
  const counted = view.scopes.some((s) => s.noProgress);
  const head = [
    "scope",
    "gating",
    "steps",
    "steps by action",
    "refused",
    "refusals by rule",
    "overrides",
    "repeats caught",
    ...(counted ? ["identical outcomes · stuck loops"] : []),
    "budget used",
    "tasks",
  ];
  const rows = view.scopes.map((s) => {
    const budget = s.budget ? `${s.budget.steps} / ${s.budget.maxSteps}${s.tasks.length > 1 ? ` (${taskLabel(s.budget.task)})` : ""}` : "–";
    const overrides =
      s.overrides.length === 0
        ? "0"
        : s.overrides.map((o) => `${taskLabel(o.task)} step ${o.step}: ${escapeHtml(o.action)} Gain ${o.gain}`).join("<br>");
    const tasks = s.tasks
      .map((t) => `${t.task}: ${t.gated ? `${t.steps}/${t.maxSteps}` : t.steps}${t.refusals ? `, ${t.refusals} refused` : ""}`)
      .join("<br>");
    return [
      escapeHtml(s.title),
      s.gatedBy.length ? `gated by ${s.gatedBy.map((g) => `<code>${escapeHtml(g)}</code>`).join(", ")}` : "not gated",
      String(s.steps),
      countsCell(s.stepsByAction),
      String(s.refusals),
      countsCell(s.refusalsByRule),
      overrides,
      `${s.repeats}${s.repeats ? ` (${s.repeatsRefused} refused)` : ""}`,
      ...(counted ? [noProgressCell(s)] : []),
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

// ---- Records ----

/** Every record; a decision drawn on the charts names its number there. */
export function recordsTable(view: Pick<ReportView, "log" | "entries">): string {
  const head = [
    "#",
    "chart",
    "time",
    "scope",
    "task · step",
    "call / event",
    "decision",
    "action",
    "U",
    "G · SC · Unc · Red",
    "rationale / reason",
  ];
  const seqOf = new Map(view.entries.map((e) => [e.record, e.seq]));
  return table(
    "records",
    head,
    view.log.map((record, i) => recordRow(record, i, seqOf.get(i + 1))),
  );
}

function recordRow(record: LogRecord, i: number, seq: number | undefined): Row {
  const r = record.report;
  const notes = [
    record.rule ? `<span class="rule">${escapeHtml(record.rule)}</span>` : "",
    record.repeat ? `<span class="note">repeat of step ${record.repeat.ofStep}</span>` : "",
  ].filter(Boolean);
  const what = record.event === "PreToolUse" ? escapeHtml(record.tool ?? "?") : `<span class="event">${escapeHtml(record.event)}</span>`;
  const text = [r?.rationale, record.reason].filter((t): t is string => t !== undefined && t !== "");
  return {
    id: `r${i + 1}`,
    cells: [
      String(i + 1),
      seq !== undefined ? `#${seq}` : "",
      escapeHtml(/T(\d\d:\d\d:\d\d)/.exec(record.time)?.[1] ?? record.time),
      escapeHtml(scopeCell(record)),
      `${record.task} · ${record.gated ? `${record.step}/${record.maxSteps}` : record.step}`,
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
    minus(r.utility.toFixed(2)),
    [r.gain, r.stepCost, r.uncertainty, r.redundancy].map((v) => escapeHtml(v)).join(" · "),
  ];
}
