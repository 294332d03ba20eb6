// The charts under the U chart, on the same x: each task's steps against its
// step budget (every decision marked, repeats ringed), and what each task
// spent so far against its token and cost budgets.
import { amountAxis, type Axis } from "./axes.js";
import { formatUsd } from "../engine/prices.js";
import {
  ACTION_COLORS,
  compactTokens,
  describeEntry,
  escapeHtml,
  frame,
  LEFT,
  linked,
  NO_REPORT_COLOR,
  PLOT_W,
  r1,
  runRules,
  runsOf,
  svg,
  textWidth,
  tickText,
  tokensText,
  xScale,
  xTicks,
  yTicks,
  yTitle,
  type Run,
  type XScale,
} from "./html-parts.js";
import { cross } from "./html-u-chart.js";
import type { Amount, EntryView, ReportView, TrackView } from "./report-view.js";
import { taskLabel } from "./task-label.js";

interface Box {
  height: number;
  top: number;
  plotH: number;
}

const box = (height: number, top: number, bottom: number): Box => ({ height, top, plotH: height - top - bottom });
const yOfIn = (b: Box, axis: Axis) => (v: number) => r1(b.top + (1 - Math.min(v, axis.max) / axis.max) * b.plotH);

/** The longest of the labels that fits in `width`, if any. */
const fitting = (labels: readonly string[], width: number) => labels.find((l) => textWidth(l, 11) + 8 <= width);

/**
 * A budget's line over one run, labelled at the run's start (what a task
 * spends grows to the right, so its left end is where the label is clear).
 */
function budgetLine(budget: { kind: string; value: number; labels: readonly string[] }, run: Run, scale: XScale, y: number): string[] {
  const { kind, value, labels } = budget;
  const x1 = scale.edge(run.first);
  const x2 = r1(scale.edge(run.last) + scale.slot);
  const line = `<line class="budget" data-budget="${kind}" data-value="${value}" x1="${x1}" x2="${x2}" y1="${y}" y2="${y}"><title>${escapeHtml(`${run.track.title}, ${taskLabel(run.track.task)}: ${labels[0]}`)}</title></line>`;
  const label = fitting(labels, x2 - x1);
  return label ? [line, `<text class="budget-label" x="${r1(x1 + 4)}" y="${r1(y - 4)}">${escapeHtml(label)}</text>`] : [line];
}

// ---- Steps against the step budget ----

const STEPS = box(180, 14, 48);

export function stepsChartSvg(view: ReportView): string {
  const scale = xScale(view.entries.length);
  const runs = runsOf(view);
  const top = Math.max(...view.tracks.filter((t) => t.gated).map((t) => t.maxSteps), ...view.entries.map((e) => e.step), 1);
  const axis = amountAxis(top * 1.1, 5, true);
  const yOf = yOfIn(STEPS, axis);
  const repeats = view.entries.filter((e) => e.repeatOf !== undefined).length;
  const parts = [
    frame(STEPS.top, STEPS.plotH),
    ...yTicks(axis, yOf, String),
    yTitle("steps", STEPS.top, STEPS.plotH),
    ...runRules(runs, scale, STEPS.top, STEPS.top + STEPS.plotH),
    ...runs
      .filter((run) => run.track.gated)
      .flatMap((run) =>
        budgetLine(
          { kind: "steps", value: run.track.maxSteps, labels: [`step budget ${run.track.maxSteps}`, `${run.track.maxSteps}`] },
          run,
          scale,
          yOf(run.track.maxSteps),
        ),
      ),
    ...runs.flatMap((run) => staircase(run, scale, yOf)),
    ...view.entries.map((e) => stepMark(e, view.tracks[e.track]!, scale, yOf(e.step))),
    ...xTicks(scale, STEPS.top + STEPS.plotH + 18),
    `<text class="axis" x="${LEFT + PLOT_W / 2}" y="${STEPS.height - 8}" text-anchor="middle">steps taken in each task (a refused call takes none); dotted: its step budget${repeats ? `; ringed: ${repeats} exact repeat${repeats === 1 ? "" : "s"}` : ""}</text>`,
  ];
  return svg(
    "chart steps-chart",
    `steps of ${view.tracks.length} task${view.tracks.length === 1 ? "" : "s"} against their step budget`,
    STEPS.height,
    parts,
  );
}

function staircase(run: Run, scale: XScale, yOf: (v: number) => number): string[] {
  if (run.entries.length < 2) return [];
  const points = run.entries.map((e) => `${scale.x(e.seq)},${yOf(e.step)}`);
  return [`<polyline class="steps" points="${points.join(" ")}"/>`];
}

function stepMark(e: EntryView, track: TrackView, scale: XScale, y: number): string {
  const x = scale.x(e.seq);
  const color = e.report ? (ACTION_COLORS[e.report.action] ?? "#333") : NO_REPORT_COLOR;
  const stopped = e.decision === "refused" || e.decision === "blocked";
  const shape = stopped
    ? cross(x, y, 4, 2.5)
    : e.kind === "call"
      ? `<circle cx="${x}" cy="${y}" r="3.5" fill="${color}"/>`
      : `<rect x="${r1(x - 4)}" y="${r1(y - 4)}" width="8" height="8" fill="${color}"/>`;
  const ring = e.repeatOf !== undefined ? `<circle class="repeat" cx="${x}" cy="${y}" r="7.5"/>` : "";
  return linked(
    e,
    `<g class="step-mark" data-seq="${e.seq}" data-step="${e.step}" data-decision="${escapeHtml(e.decision)}"${e.repeatOf !== undefined ? ` data-repeat-of="${e.repeatOf}"` : ""}><title>${escapeHtml(describeEntry(e, track))}</title>${ring}${shape}</g>`,
  );
}

// ---- Spend against the token and cost budgets ----

const SPEND = box(170, 22, 48);

interface Measure {
  name: "tokens" | "cost";
  /** `token budget`, `cost budget`. */
  budgetName: string;
  pick: (a: Amount) => number;
  budget: (t: TrackView) => number | undefined;
  /** The session's budget of the same kind, when the user set one. */
  sessionBudget: (view: ReportView) => number | undefined;
  tick: (v: number, axis: Axis) => string;
  text: (v: number) => string;
  short: (v: number) => string;
}

const TOKENS: Measure = {
  name: "tokens",
  budgetName: "token budget",
  pick: (a) => a.tokens,
  budget: (t) => t.budgets?.tokenBudget,
  sessionBudget: (view) => view.sessionBudgets?.budgets.sessionTokenBudget,
  tick: (v) => compactTokens(v),
  text: (v) => `${tokensText(v)} tokens`,
  short: (v) => compactTokens(v),
};
const COST: Measure = {
  name: "cost",
  budgetName: "cost budget",
  pick: (a) => a.costUsd,
  budget: (t) => t.budgets?.costBudgetUsd,
  sessionBudget: (view) => view.sessionBudgets?.budgets.sessionCostBudgetUsd,
  tick: (v, axis) => `$${tickText(v, axis.step, 2)}`,
  text: formatUsd,
  short: formatUsd,
};

/** A budget is drawn to scale when the spend reaches a third of it; a bigger one is named at the top instead, so the spend stays readable. */
const DRAWN_BUDGET_SHARE = 1 / 3;

export function spendChartsSvg(view: ReportView): string[] {
  return [TOKENS, COST].map((m) => spendChartSvg(view, m));
}

function spendChartSvg(view: ReportView, m: Measure): string {
  const scale = xScale(view.entries.length);
  const runs = runsOf(view);
  const spentMax = Math.max(0, ...view.tracks.map((t) => (t.spent ? m.pick(t.spent) : 0)));
  const budgets = view.tracks.map((t) => m.budget(t)).filter((b): b is number => b !== undefined);
  const drawn = (b: number) => spentMax >= b * DRAWN_BUDGET_SHARE;
  const axis = amountAxis(Math.max(spentMax, ...budgets.filter(drawn)) * 1.05, 4);
  const yOf = yOfIn(SPEND, axis);
  const parts = [
    frame(SPEND.top, SPEND.plotH),
    ...yTicks(axis, yOf, (v) => m.tick(v, axis)),
    yTitle(m.name, SPEND.top, SPEND.plotH),
    ...runRules(runs, scale, SPEND.top, SPEND.top + SPEND.plotH),
    ...spendBudgets(runs, scale, yOf, m, drawn),
    ...runs.flatMap((run) => spendLine(run, scale, yOf, m)),
    ...xTicks(scale, SPEND.top + SPEND.plotH + 18),
    `<text class="axis" x="${LEFT + PLOT_W / 2}" y="${SPEND.height - 8}" text-anchor="middle">${escapeHtml(spendCaption(view, m, budgets.length > 0))}</text>`,
  ];
  return svg(`chart spend-chart spend-${m.name}`, `${m.name} each task spent so far`, SPEND.height, parts);
}

/** What the chart draws, the session's total, and the session's own budget (not drawn: it spans every task) when one is set. */
function spendCaption(view: ReportView, m: Measure, budgeted: boolean): string {
  const total = view.spend ? m.text(m.pick({ tokens: view.spend.total.total, costUsd: view.spend.total.costUsd })) : "";
  const cost = m.name === "cost" ? " (estimated)" : "";
  const session = m.sessionBudget(view);
  const ofBudget = session === undefined ? "" : ` of its ${m.budgetName} ${m.short(session)}`;
  const taskBudget = budgeted ? "" : `; no task ${m.budgetName} set`;
  return `${m.name}${cost} each task had spent after each decision; the session: ${total}${ofBudget}${taskBudget}`;
}

function spendBudgets(
  runs: readonly Run[],
  scale: XScale,
  yOf: (v: number) => number,
  m: Measure,
  drawn: (b: number) => boolean,
): string[] {
  const named = new Set<TrackView>();
  return runs.flatMap((run) => {
    const budget = m.budget(run.track);
    if (budget === undefined) return [];
    const spent = run.track.spent ? m.pick(run.track.spent) : 0;
    if (drawn(budget)) {
      const labels = [`${m.budgetName} ${m.short(budget)}`, m.short(budget)];
      return budgetLine({ kind: m.name, value: budget, labels }, run, scale, yOf(budget));
    }
    if (named.has(run.track)) return [];
    named.add(run.track);
    const share = `${Math.round((spent / budget) * 100)}% spent`;
    const width = (run.last - run.first + 1) * scale.slot;
    const text = fitting(
      [`↑ ${m.budgetName} ${m.short(budget)}, far above: ${share}`, `↑ ${m.budgetName} ${m.short(budget)}: ${share}`, `↑ ${share}`],
      width,
    );
    return [
      `<text class="budget-label off-chart" data-budget="${m.name}" data-value="${budget}" x="${r1(scale.edge(run.first) + 4)}" y="${SPEND.top + 13}"><title>${escapeHtml(`${run.track.title}, ${taskLabel(run.track.task)}: ${m.budgetName} ${m.text(budget)}, ${share}; drawn to scale it would flatten the spend`)}</title>${escapeHtml(text ?? "↑")}</text>`,
    ];
  });
}

function spendLine(run: Run, scale: XScale, yOf: (v: number) => number, m: Measure): string[] {
  const points = run.entries.filter((e) => e.taskSpend);
  if (points.length === 0) return [];
  const path = points.map((e) => `${scale.x(e.seq)},${yOf(m.pick(e.taskSpend!))}`);
  const dots = points.map(
    (e) =>
      `<circle class="spend-point" data-seq="${e.seq}" data-${m.name}="${m.pick(e.taskSpend!)}" cx="${scale.x(e.seq)}" cy="${yOf(m.pick(e.taskSpend!))}" r="2.5"><title>${escapeHtml(`after #${e.seq}: ${run.track.title}, ${taskLabel(run.track.task)} had spent ${tokensText(e.taskSpend!.tokens)} tokens, about ${formatUsd(e.taskSpend!.costUsd)}`)}</title></circle>`,
  );
  const line = points.length > 1 ? [`<polyline class="spend" points="${path.join(" ")}"/>`] : [];
  return [...line, ...dots];
}
