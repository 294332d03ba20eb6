// The U chart: every decision in log order, its report's U where it has one,
// the floor of gated stretches, refusals marked with their rule.
import { uAxis } from "./axes.js";
import {
  ACTION_COLORS,
  describeEntry,
  escapeHtml,
  frame,
  LEFT,
  linked,
  minus,
  NO_REPORT_COLOR,
  PLOT_W,
  r1,
  REFUSED_COLOR,
  runRules,
  runsOf,
  svg,
  textWidth,
  tickText,
  xScale,
  xTicks,
  yTicks,
  yTitle,
  type Run,
  type XScale,
} from "./html-parts.js";
import type { EntryView, ReportView } from "./report-view.js";
import { taskLabel } from "./task-label.js";

const H = 350;
const TOP = 34;
const BOTTOM = 64;
const PLOT_H = H - TOP - BOTTOM;
const RUG_Y = TOP + PLOT_H + 14;

/** A floor drawn over consecutive gated decisions that share it. */
interface FloorRun {
  first: number;
  last: number;
  floor: number;
}

function floorRuns(entries: readonly EntryView[]): FloorRun[] {
  const runs: FloorRun[] = [];
  for (const e of entries) {
    const last = runs.at(-1);
    if (!e.gated) continue;
    if (last && last.floor === e.floor && last.last === e.seq - 1) last.last = e.seq;
    else runs.push({ first: e.seq, last: e.seq, floor: e.floor });
  }
  return runs;
}

const isStopped = (e: EntryView) => e.decision === "refused" || e.decision === "blocked";

/** The U chart, or undefined when no decision carries a report (there is no U to draw). */
export function uChartSvg(view: ReportView): string | undefined {
  const reported = view.entries.filter((e) => e.report);
  if (reported.length === 0) return undefined;
  const floors = floorRuns(view.entries);
  const axis = uAxis(
    reported.map((e) => e.report!.utility),
    floors.map((f) => f.floor),
  );
  const yOf = (u: number) => r1(TOP + ((axis.max - Math.min(axis.max, Math.max(axis.min, u))) / (axis.max - axis.min)) * PLOT_H);
  const scale = xScale(view.entries.length);
  const runs = runsOf(view);
  const parts = [
    frame(TOP, PLOT_H),
    ...yTicks(axis, yOf, (u) => tickText(u, axis.step), true),
    yTitle("U", TOP, PLOT_H),
    ...runRules(runs, scale, TOP, TOP + PLOT_H),
    ...runLabels(runs, scale),
    ...floors.flatMap((f) => floorLine(f, scale, yOf)),
    ...traces(runs, scale, yOf),
    ...view.entries.filter((e) => !e.report).map((e) => rugMark(e, view, scale)),
    ...reported.map((e) => mark(e, view, scale, yOf(e.report!.utility))),
    ...ruleLabels(reported.filter(isStopped), scale, yOf, markRadius(view.entries.length) + 2),
    ...rugRuleLabels(
      view.entries.filter((e) => !e.report && isStopped(e)),
      scale,
    ),
    `<text class="rug-label" x="${LEFT - 8}" y="${RUG_Y + 4}" text-anchor="end">no report</text>`,
    ...xTicks(scale, RUG_Y + 24),
    `<text class="axis" x="${LEFT + PLOT_W / 2}" y="${H - 10}" text-anchor="middle">decisions in log order: tool calls, and ends of turns with their final message's report</text>`,
  ];
  const refused = view.entries.filter(isStopped).length;
  const label = `U of ${reported.length} reported decision${reported.length === 1 ? "" : "s"} of ${view.entries.length}, from ${minus(String(Math.min(...reported.map((e) => e.report!.utility))))} to ${minus(String(Math.max(...reported.map((e) => e.report!.utility))))}${floors.length ? `; floor ${[...new Set(floors.map((f) => minus(String(f.floor))))].join(", ")}` : ""}; ${refused} refused or blocked`;
  return svg("chart u-chart", label, H, parts);
}

/** Above each run: whose task it is, in the longest form that fits. */
function runLabels(runs: readonly Run[], scale: XScale): string[] {
  return runs.flatMap((run) => {
    const width = (run.last - run.first + 1) * scale.slot;
    // No abbreviation a reader would have to decode ("t6"): a run too narrow for its task's name goes unlabelled.
    const label = [`${run.track.short} · ${taskLabel(run.track.task)}`, taskLabel(run.track.task), run.track.short].find(
      (l) => textWidth(l, 11) + 8 <= width,
    );
    return label ? [`<text class="segment-label" x="${r1(scale.edge(run.first) + 4)}" y="${TOP - 8}">${escapeHtml(label)}</text>`] : [];
  });
}

function floorLine(f: FloorRun, scale: XScale, yOf: (u: number) => number): string[] {
  const x1 = scale.edge(f.first);
  const x2 = r1(scale.edge(f.last) + scale.slot);
  const y = yOf(f.floor);
  const label = `floor ${tickText(f.floor, 0.01)}`;
  const line = `<line class="floor" data-floor="${f.floor}" x1="${x1}" x2="${x2}" y1="${y}" y2="${y}"><title>${escapeHtml(`the floor: a gated call whose U is below ${minus(String(f.floor))} is refused unless its Gain is high`)}</title></line>`;
  return textWidth(label) + 8 <= x2 - x1
    ? [line, `<text class="floor-label" x="${r1(x2 - 4)}" y="${r1(y - 5)}" text-anchor="end">${label}</text>`]
    : [line];
}

/** A faint line through the U of the decisions that went ahead, per run. */
function traces(runs: readonly Run[], scale: XScale, yOf: (u: number) => number): string[] {
  return runs.flatMap((run) => {
    const points = run.entries.filter((e) => e.report && !isStopped(e)).map((e) => `${scale.x(e.seq)},${yOf(e.report!.utility)}`);
    return points.length > 1 ? [`<polyline class="trace" points="${points.join(" ")}"/>`] : [];
  });
}

function dataAttrs(e: EntryView, view: ReportView): string {
  const track = view.tracks[e.track]!;
  return [
    `data-seq="${e.seq}"`,
    `data-step="${e.step}"`,
    `data-kind="${e.kind}"`,
    `data-decision="${escapeHtml(e.decision)}"`,
    ...(e.rule ? [`data-rule="${escapeHtml(e.rule)}"`] : []),
    `data-scope="${escapeHtml(track.scope)}"`,
    `data-task="${track.task}"`,
    ...(e.report ? [`data-action="${escapeHtml(e.report.action)}"`, `data-u="${e.report.utility}"`] : []),
  ].join(" ");
}

const markRadius = (n: number) => (n > 120 ? 3.5 : n > 60 ? 5 : 7);

/** A call is a circle, an end of turn a square; refused or blocked, a ring in the action's colour with a cross. */
function mark(e: EntryView, view: ReportView, scale: XScale, y: number): string {
  const radius = markRadius(view.entries.length);
  const x = scale.x(e.seq);
  const color = ACTION_COLORS[e.report!.action] ?? "#333";
  const stopped = isStopped(e);
  const title = `<title>${escapeHtml(describeEntry(e, view.tracks[e.track]!))}</title>`;
  const rr = stopped ? radius + 2 : radius;
  const shape =
    e.kind === "call"
      ? `<circle cx="${x}" cy="${y}" r="${rr}"`
      : `<rect x="${r1(x - rr)}" y="${r1(y - rr)}" width="${2 * rr}" height="${2 * rr}" rx="1.5"`;
  const body = stopped
    ? `${shape} fill="#fff" stroke="${color}" stroke-width="2.5"/>${cross(x, y, radius * 0.75, 3)}`
    : `${shape} fill="${color}" stroke="#fff" stroke-width="1.5"/>`;
  return linked(e, `<g class="mark${stopped ? " refused" : ""}" ${dataAttrs(e, view)}>${title}${body}</g>`);
}

export function cross(x: number, y: number, k: number, width: number): string {
  const a = r1(x - k);
  const b = r1(x + k);
  const c = r1(y - k);
  const d = r1(y + k);
  return `<path d="M${a},${c}L${b},${d}M${a},${d}L${b},${c}" stroke="${REFUSED_COLOR}" stroke-width="${width}" stroke-linecap="round"/>`;
}

/** A decision without a report (no U): a tick on the rug below the plot; an end of turn a small square. */
function rugMark(e: EntryView, view: ReportView, scale: XScale): string {
  const x = scale.x(e.seq);
  const stopped = isStopped(e);
  const color = stopped ? REFUSED_COLOR : NO_REPORT_COLOR;
  const title = `<title>${escapeHtml(describeEntry(e, view.tracks[e.track]!))}</title>`;
  const shape =
    e.kind === "call"
      ? `<line x1="${x}" x2="${x}" y1="${RUG_Y - 7}" y2="${RUG_Y + 7}" stroke="${color}" stroke-width="${stopped ? 3 : 2}"/>`
      : `<rect x="${r1(x - 4)}" y="${RUG_Y - 4}" width="8" height="8" fill="#fff" stroke="${color}" stroke-width="2"/>`;
  return linked(
    e,
    `<g class="rug${stopped ? " refused" : ""}" data-rug="${escapeHtml(e.decision)}" data-seq="${e.seq}" data-kind="${e.kind}"${e.rule ? ` data-rule="${escapeHtml(e.rule)}"` : ""}>${title}${shape}</g>`,
  );
}

const ruleText = (e: EntryView) => e.rule ?? (e.decision === "blocked" ? "stop blocked" : e.decision);

/** The rule of a refused call without a report, upright in its slot, rising from the plot's foot (the slot holds no mark). */
function rugRuleLabels(stopped: readonly EntryView[], scale: XScale): string[] {
  if (scale.slot < 11) return [];
  return stopped.map(
    (e) =>
      `<text class="rule-label" transform="translate(${r1(scale.x(e.seq) + 4)} ${TOP + PLOT_H - 6}) rotate(-90)">${escapeHtml(ruleText(e))}</text>`,
  );
}

/**
 * The rule of each refused mark (or "stop blocked"), written upright in its own
 * slot, above the mark or below it where there is room: one decision per slot,
 * so labels never run into each other. Too narrow a slot: the list below says it.
 */
function ruleLabels(stopped: readonly EntryView[], scale: XScale, yOf: (u: number) => number, radius: number): string[] {
  if (scale.slot < 11) return [];
  return stopped.flatMap((e) => {
    const text = ruleText(e);
    const length = textWidth(text, 11);
    const y = yOf(e.report!.utility);
    const x = r1(scale.x(e.seq) + 4);
    const up = y - radius - 6 - TOP;
    const down = TOP + PLOT_H - (y + radius + 6);
    if (Math.max(up, down) < length) return [];
    const [anchorY, anchor] = up >= length ? [y - radius - 6, "start"] : [y + radius + 6, "end"];
    return [
      `<text class="rule-label" transform="translate(${x} ${r1(anchorY)}) rotate(-90)" text-anchor="${anchor}">${escapeHtml(text)}</text>`,
    ];
  });
}
