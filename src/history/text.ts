// The history for people, as text: what was read, spend per task, the largest
// tasks, what budgets would have done, repeats, and the settings to use. Pure.
import type { BudgetEffect, BudgetSetting } from "./budgets.js";
import { SETTING_VALUE, stoppedLabel, stoppedOf } from "./effect-words.js";
import {
  bytesText,
  grouped,
  identicalText,
  percentText,
  plural,
  stuckWords,
  subagentLabel,
  taskLabel,
  tokensText,
  usdText,
} from "./labels.js";
import type { HistoryReport, TaskView } from "./report.js";

const MEASURES = [
  ["tokens", "tokens", (v: number) => tokensText(v)],
  ["costUsd", "dollars", (v: number) => usdText(v)],
  ["agents", "subagents", (v: number) => String(v)],
  ["calls", "tool calls", (v: number) => grouped(v)],
] as const;

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? "").length)));
  return rows.map((row) =>
    row
      .map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!)))
      .join("   ")
      .trimEnd(),
  );
}

export function readLine(report: HistoryReport): string {
  const r = report.read;
  const what =
    r.what === "project"
      ? `this project's sessions (${r.projects[0] ?? "none"})`
      : r.what === "all"
        ? `the sessions of ${plural(r.projects.length, "project")}`
        : `the sessions in ${r.projects.length === 1 ? r.projects[0] : plural(r.projects.length, "folder")}`;
  const since = r.since ? ` since ${r.since}` : "";
  const period = report.period ? `, tasks from ${report.period.from.slice(0, 10)} to ${report.period.to.slice(0, 10)}` : "";
  return `utility replay: ${what}${since}: ${plural(r.sessions, "session")}, ${plural(r.files, "file")}, ${bytesText(r.bytes)}${period}`;
}

function largestLine(view: TaskView | undefined, measure: string): string {
  return view ? `  the most ${measure}: ${taskLabel(view)}` : `  the most ${measure}: none`;
}

function spendLines(report: HistoryReport): string[] {
  const p = report.percentiles;
  const rows = [
    ["per task", "median", "90th", "99th", "largest"],
    ...MEASURES.map(([key, name, show]) => [name, show(p[key].p50), show(p[key].p90), show(p[key].p99), show(p[key].max)]),
  ];
  return [
    `Spend per task (${plural(report.totals.tasks, "task")}; percentiles by nearest rank):`,
    ...table(rows).map((line) => `  ${line}`),
    ...subagentLines(report),
    largestLine(report.largest.costUsd, "dollars"),
    largestLine(report.largest.agents, "subagents"),
    largestLine(report.largest.calls, "tool calls"),
  ];
}

/** Per subagent, its own spend: what the caps per subagent are sized from. */
function subagentLines(report: HistoryReport): string[] {
  const p = report.subagentPercentiles;
  if (p.tokens.n === 0) return ["  per subagent: no subagent in these tasks"];
  const rows = [
    [`per subagent (${plural(p.tokens.n, "subagent")}, its own)`, "median", "90th", "99th", "largest"],
    ...SUBAGENT_MEASURES.map(([key, name, show]) => [name, show(p[key].p50), show(p[key].p90), show(p[key].p99), show(p[key].max)]),
  ];
  return table(rows).map((line) => `  ${line}`);
}

const SUBAGENT_MEASURES = [
  ["tokens", "tokens", (v: number) => tokensText(v)],
  ["costUsd", "dollars", (v: number) => usdText(v)],
  ["calls", "tool calls", (v: number) => grouped(v)],
] as const;

function taskViewLines(view: TaskView, index: number): string[] {
  const head = `  ${index + 1}. ${tokensText(view.tokens)} tokens, ${usdText(view.costUsd)}, ${plural(view.calls, "tool call")}, ${plural(view.agents, "subagent")}: ${taskLabel(view)}`;
  return [
    head,
    ...view.subagents.map((sub) => `       ${subagentLabel(sub, view.task)}: ${tokensText(sub.tokens)} tokens, ${usdText(sub.costUsd)}`),
  ];
}

function effectLine(effect: BudgetEffect): string {
  const value = `${effect.setting} ${SETTING_VALUE[effect.setting](effect.value)}`;
  if (effect.stopped === 0) return `  ${value}: would have stopped no ${effect.of === "subagents" ? "subagent" : "task"}`;
  const top = effect.examples[0];
  return `  ${value}: would have stopped ${stoppedOf(effect)}, saving up to ${tokensText(effect.savedTokens)} tokens (${usdText(effect.savedUsd)})${top ? `; most from ${stoppedLabel(top)}` : ""}`;
}

function whatIfLines(report: HistoryReport): string[] {
  const effects = (Object.values(report.whatIf) as BudgetEffect[][]).flat();
  if (effects.length === 0) return [];
  return [
    "Budgets that would have stopped the outliers (a budget refuses a task's next tool call once it is spent, a cap per subagent that subagent's next call once it has spent the cap by itself; saved: what the task, or the subagent, spent after that call):",
    ...effects.map(effectLine),
  ];
}

function repeatLines(report: HistoryReport): string[] {
  const r = report.repeats;
  const tools = r.byTool
    .slice(0, 4)
    .map((t) => `${t.tool} ${t.count}`)
    .join(", ");
  const lines = [
    r.count === 0
      ? `Exact repeats: none: no call repeated an identical one with nothing in between that could change its result.`
      : `Exact repeats: ${plural(r.count, "call")} (${percentText(r.shareOfCalls)} of the calls) repeated an identical call with nothing in between that could change its result, ≈ ${tokensText(r.tokens)} tokens of results; most: ${tools}`,
    ...r.most.map((m) => `  ${plural(m.repeats, "repeat")} in ${taskLabel(m)}`),
  ];
  lines.push(identicalText(report.totals.identicalOutcomes), ...stuckLines(report));
  return lines;
}

function stuckLines(report: HistoryReport): string[] {
  const { head, items } = stuckWords(report.stuckLoops);
  return [head, ...items.map((item) => `  ${item}`)];
}

function suggestionLines(report: HistoryReport): string[] {
  const s = report.suggestedBudgets;
  const rows = (Object.values(s.budgets) as Array<(typeof s.budgets)[BudgetSetting]>).map((b) => [
    b.setting,
    b.value === null ? "(leave unset)" : String(b.value),
    b.derivation,
  ]);
  const widths = [0, 1].map((col) => Math.max(...rows.map((row) => row[col]!.length)));
  return [
    "Suggested settings (per task; agent_*: per subagent):",
    ...rows.map((row) => `  ${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`),
    ...(s.command ? ["Set them (then restart Claude Code):", `  ${s.command}`] : ["Nothing to set: no task spent anything."]),
  ];
}

/** The history report for people. */
export function renderHistoryText(report: HistoryReport & { read: { unreadable?: string[] } }): string {
  const t = report.totals;
  const out = [readLine(report)];
  for (const problem of report.read.unreadable ?? []) out.push(`  skipped: ${problem}`);
  if (t.tasks === 0) {
    out.push("No task found in these sessions.", "");
    return out.join("\n");
  }
  out.push(
    `${plural(t.tasks, "task")}, ${plural(t.calls, "tool call")}, ${plural(t.agents, "subagent")}; ${tokensText(t.spend.total)} tokens, about ${usdText(t.spend.costUsd)} at the prices of ${report.pricesDate}`,
    "",
    ...spendLines(report),
    "",
    "The largest tasks by tokens:",
    ...report.largest.tokens.flatMap(taskViewLines),
    "",
    ...whatIfLines(report),
    "",
    ...repeatLines(report),
    "",
    ...suggestionLines(report),
    "",
    `estimate: ${report.tokenEstimate}`,
    `policy: ${report.policy}`,
  );
  return `${out.join("\n")}\n`;
}
