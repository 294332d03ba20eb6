// What the HTML report's charts share: escaping, colours, the x scale every
// chart uses (one slot per decision), its ticks, and the runs of one task.
import { positionTicks, type Axis } from "./axes.js";
import type { EntryView, ReportView, TrackView } from "./report-view.js";
import { taskLabel } from "./task-label.js";

/** Okabe–Ito colours: told apart with the common colour-vision deficiencies. */
export const ACTION_COLORS: Record<string, string> = {
  retrieve: "#0072B2",
  verify: "#009E73",
  tool_call: "#E69F00",
  delegate: "#CC79A7",
  respond: "#56B4E9",
  stop: "#6b6b6b",
};
export const REFUSED_COLOR = "#D55E00";
export const NO_REPORT_COLOR = "#8a8a93";
export const BUDGET_COLOR = "#7a3b8f";

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export const r1 = (n: number) => Math.round(n * 10) / 10;
export const minus = (s: string) => s.replace(/-/g, "−");
export const tokensText = (n: number) => n.toLocaleString("en-US");

/** A tick label with as many decimals as the step between ticks needs (at least `least`). */
export function tickText(value: number, step: number, least = 0): string {
  const decimals = Number.isInteger(step) ? 0 : Math.min(6, (String(step).split(".")[1] ?? "").length);
  return minus(value.toFixed(Math.max(least, decimals)));
}

/** `12,345`, `48k`, `1.2M`: token ticks that stay short. */
export function compactTokens(n: number): string {
  if (n >= 1e6) return `${r1(n / 1e6)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return tokensText(n);
}

/** Rough width of a label in the charts' 11–12 px font, to decide whether it fits. */
export const textWidth = (text: string, px = 12) => text.length * px * 0.56;

export const W = 1000;
export const LEFT = 64;
export const RIGHT = 24;
export const PLOT_W = W - LEFT - RIGHT;

/** The x scale every chart shares: decision `seq` (from 1) sits in the middle of its slot. */
export interface XScale {
  n: number;
  slot: number;
  x: (seq: number) => number;
  /** The left edge of a slot. */
  edge: (seq: number) => number;
}

export function xScale(n: number): XScale {
  const slot = PLOT_W / Math.max(n, 1);
  return { n, slot, x: (seq) => r1(LEFT + (seq - 0.5) * slot), edge: (seq) => r1(LEFT + (seq - 1) * slot) };
}

/** A run of consecutive decisions of one task: where its lines are drawn and its label goes. */
export interface Run {
  track: TrackView;
  trackIndex: number;
  entries: EntryView[];
  first: number;
  last: number;
}

export function runsOf(view: Pick<ReportView, "entries" | "tracks">): Run[] {
  const runs: Run[] = [];
  for (const entry of view.entries) {
    const last = runs.at(-1);
    if (last && last.trackIndex === entry.track) {
      last.entries.push(entry);
      last.last = entry.seq;
    } else runs.push({ track: view.tracks[entry.track]!, trackIndex: entry.track, entries: [entry], first: entry.seq, last: entry.seq });
  }
  return runs;
}

/** The plot's frame. */
export function frame(top: number, height: number): string {
  return `<rect class="plot" x="${LEFT}" y="${top}" width="${PLOT_W}" height="${height}"/>`;
}

/** Horizontal grid lines and their labels for a y axis. */
export function yTicks(axis: Axis, yOf: (v: number) => number, label: (v: number) => string, zero = false): string[] {
  return axis.ticks.flatMap((v) => {
    const y = r1(yOf(v));
    return [
      `<line class="${zero && v === 0 ? "zero" : "grid"}" x1="${LEFT}" x2="${LEFT + PLOT_W}" y1="${y}" y2="${y}"/>`,
      `<text class="tick" x="${LEFT - 8}" y="${r1(y + 4)}" text-anchor="end">${escapeHtml(label(v))}</text>`,
    ];
  });
}

/** x ticks: one per decision while they fit, else 1 and every 2nd, 5th, 10th…; each number once. */
export function xTicks(scale: XScale, y: number): string[] {
  const maxTicks = Math.max(1, Math.floor(PLOT_W / Math.max(18, textWidth(String(scale.n), 11) + 10)));
  return positionTicks(scale.n, maxTicks).map(
    (seq) => `<text class="tick x-tick" data-tick="${seq}" x="${scale.x(seq)}" y="${y}" text-anchor="middle">${seq}</text>`,
  );
}

/** A dashed rule where one task's run gives way to another's. */
export function runRules(runs: readonly Run[], scale: XScale, top: number, bottom: number): string[] {
  return runs
    .slice(1)
    .map((run) => `<line class="segment" x1="${scale.edge(run.first)}" x2="${scale.edge(run.first)}" y1="${top}" y2="${bottom}"/>`);
}

/** A y-axis title, rotated along the left edge. */
export function yTitle(text: string, top: number, height: number): string {
  return `<text class="axis" transform="translate(16 ${r1(top + height / 2)}) rotate(-90)" text-anchor="middle">${escapeHtml(text)}</text>`;
}

export function svg(className: string, label: string, height: number, parts: readonly string[]): string {
  return `<svg class="${className}" role="img" aria-label="${escapeHtml(label)}" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(label)}</title>${parts.join("")}</svg>`;
}

/** Who a decision belongs to, and where it stands, for a mark's title. */
export function whereText(entry: EntryView, track: TrackView): string {
  return `${track.title} · ${taskLabel(track.task)} · step ${entry.step}${entry.gated ? `/${entry.maxSteps}` : ""}`;
}

/** A decision in words: what it was, how the hook decided, the report it read. */
export function describeEntry(entry: EntryView, track: TrackView): string {
  const what = entry.kind === "call" ? (entry.tool ?? "?") : `end of turn (${entry.event})`;
  const decided = `${entry.decision}${entry.rule ? ` (${entry.rule})` : ""}`;
  const lines = [`#${entry.seq} ${what} · ${decided}`, whereText(entry, track)];
  const r = entry.report;
  if (r)
    lines.push(
      `${r.action}: U = ${r.utility} (Gain ${r.gain}, StepCost ${r.stepCost}, Uncertainty ${r.uncertainty}, Redundancy ${r.redundancy})`,
      r.rationale,
    );
  else lines.push(entry.kind === "call" ? "no report" : "the final message has no report");
  if (entry.repeatOf !== undefined) lines.push(`exact repeat of step ${entry.repeatOf}`);
  if (entry.outcome && entry.outcome !== "ran") lines.push(entry.outcome === "missing" ? "its outcome never arrived" : entry.outcome);
  if (entry.reason) lines.push(entry.reason);
  return lines.join("\n");
}

/** A mark that links to its record's row in the records table (plain fragment link: no script). */
export function linked(entry: EntryView, inner: string): string {
  return `<a href="#r${entry.record}">${inner}</a>`;
}

/**
 * The start of a self-contained page, up to `<body>`: nothing is fetched
 * (the content security policy allows inline styles only).
 */
export function pageStart(title: string, css: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${css}</style>
</head>
<body>`;
}
