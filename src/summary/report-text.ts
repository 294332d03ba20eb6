// A session's summary (./summarize.ts) as text: what `utility report` prints
// and `/utility report` shows. Pure.
import type { LogRecord } from "../log/record.js";
import { formatUsd } from "../engine/prices.js";
import type { AgentCapRow, AgentCapsSet } from "./agent-caps.js";
import { NO_OUTCOME } from "./log-table.js";
import { describeSpend, type SessionSpend } from "./spend.js";
import { summarize, type ScopeSummary, type SessionSummary } from "./summarize.js";
import { taskLabel } from "./task-label.js";
import { firstSentence, terminalSafe } from "./text.js";

const byCount = (map: Record<string, number>) => Object.entries(map).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

function counts(map: Record<string, number>): string {
  return byCount(map)
    .map(([name, n]) => `${name} ${n}`)
    .join(", ");
}

export function scopeTitle(s: Pick<ScopeSummary, "agentId" | "agentType" | "scope">): string {
  if (s.agentId === undefined) return `main (${s.scope})`;
  return `subagent ${s.agentId}${s.agentType ? ` (${s.agentType})` : ""}`;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The summary as text: what `utility report` prints and `/utility report` shows. */
export function renderSummaryText(summary: SessionSummary): string {
  const out: string[] = [];
  const span = summary.from && summary.to ? `, ${summary.from} → ${summary.to}` : "";
  out.push(`session ${summary.session ?? "(unknown)"}: ${summary.records} record${summary.records === 1 ? "" : "s"}${span}`);
  if (summary.scopes.length === 0) out.push("  nothing recorded yet");
  for (const s of summary.scopes) out.push(...scopeTextLines(s, summary.spend));
  out.push(...agentCapLines(summary.agentCaps));
  out.push(...totalLines(summary));
  return `${out.map(terminalSafe).join("\n")}\n`;
}

function scopeTextLines(s: ScopeSummary, spend: SessionSpend): string[] {
  const gated = s.gatedBy.length > 0;
  const out = [
    `${scopeTitle(s)}: ${gated ? `gated by ${s.gatedBy.join(", ")}` : "not gated"}`,
    // Steps by the action their report selected: an ungated scope is asked for no report, so it has only a count.
    `  steps ${s.steps}${s.steps > 0 && gated ? `: ${counts(s.stepsByAction)}` : ""}`,
    `  refused ${s.refusals}${s.refusals > 0 ? `: ${counts(s.refusalsByRule)}` : ""}`,
    ...byCount(s.refusalsByRule)
      .filter(([rule]) => s.refusalReasons[rule])
      .map(([rule]) => `    ${rule}, latest: ${clip(firstSentence(s.refusalReasons[rule]!), 150)}`),
    ...(gated || s.overrides.length > 0
      ? [
          `  high-gain overrides (below the floor, let on for their Gain) ${s.overrides.length}${s.overrides.map((o) => `; ${taskLabel(o.task)} step ${o.step}: ${o.action} Gain ${o.gain} (U ${o.utility})`).join("")}`,
        ]
      : []),
    `  repeats caught ${s.repeats}${s.repeats > 0 ? ` (${s.repeatsRefused} refused)` : ""}`,
  ];
  if (s.steps > 0)
    out.push(
      `  outcomes: ran ${s.outcomes.ran}, failed ${s.outcomes.failed}, ${NO_OUTCOME} ${s.outcomes.missing}; results ${s.outcomes.resultBytes} bytes`,
    );
  if (s.stopsBlocked > 0) out.push(`  stops blocked ${s.stopsBlocked}`);
  const tasks = s.tasks.map((t) => `${taskLabel(t.task)} ${stepsOf(t)}${t.refusals > 0 ? ` (${t.refusals} refused)` : ""}`);
  out.push(`  steps: ${tasks.join(", ") || "-"}`);
  for (const o of s.overrides) out.push(`    override rationale: ${clip(o.rationale, 100)}`);
  out.push(...spendLines(spend, s.key));
  return out;
}

/** A task's steps, against its step budget when it was gated (the budget binds a gated task only). */
function stepsOf(t: { steps: number; maxSteps: number; gated: boolean }): string {
  return t.gated ? `${t.steps}/${t.maxSteps}` : String(t.steps);
}

/** Caps per subagent (SPEC §16): shown when any subagent had one or hit one. */
function agentCapLines(rows: readonly AgentCapRow[]): string[] {
  if (!rows.some((r) => r.caps !== undefined || r.hit !== undefined)) return [];
  const lines = ["caps per subagent (each one's own spend):"];
  for (const r of rows) {
    const caps = r.caps ? capsText(r.caps) : "no cap";
    const hit = r.hit ? `; HIT its ${r.hit.cap} cap (${r.hit.refused} call${r.hit.refused === 1 ? "" : "s"} refused)` : "";
    lines.push(
      `  ${scopeTitle({ agentId: r.agentId, agentType: r.agentType, scope: "subagent" })}: ${r.tokens.toLocaleString("en-US")} tokens, ${formatUsd(r.costUsd)}, ${r.toolCalls} tool call${r.toolCalls === 1 ? "" : "s"}; caps: ${caps}${hit}`,
    );
  }
  return lines;
}

/** `tokens 50,000, cost $1.00, tool calls 40`. */
export function capsText(caps: AgentCapsSet): string {
  return [
    ...(caps.tokens !== undefined ? [`tokens ${caps.tokens.toLocaleString("en-US")}`] : []),
    ...(caps.costUsd !== undefined ? [`cost ${formatUsd(caps.costUsd)}`] : []),
    ...(caps.toolCalls !== undefined ? [`tool calls ${caps.toolCalls}`] : []),
  ].join(", ");
}

function totalLines(summary: SessionSummary): string[] {
  const out: string[] = [];
  const t = summary.totals;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (summary.spend.steps.length > 0) {
    out.push(
      `spend: ${describeSpend(summary.spend.total)} at the prices of ${summary.spend.prices.date}${summary.spend.assumedModels.length > 0 ? ` (priced at the dearest rate: ${summary.spend.assumedModels.join(", ")})` : ""}`,
    );
  }
  if (summary.sessionBudgets) out.push(`session, every task and subagent: ${summary.sessionBudgets.text}`);
  out.push(
    `total: ${plural(t.steps, "step")}, ${t.refusals} refused, ${plural(t.overrides, "override")}, ${plural(t.repeats, "repeat")} caught${t.stopsBlocked > 0 ? `, ${plural(t.stopsBlocked, "stop")} blocked` : ""}`,
  );
  return out;
}

function spendLines(spend: SessionSpend, key: string): string[] {
  const scope = spend.scopes.find((s) => s.key === key);
  if (!scope) return [];
  const lines = [`  spend: ${describeSpend(scope.total)}`];
  if (scope.tasks.length > 1) for (const t of scope.tasks) lines.push(`    ${taskLabel(t.task)}: ${describeSpend(t)}`);
  return lines;
}

/** The session report as text, straight from the records (for `/utility report`). */
export function renderReportText(records: readonly LogRecord[]): string {
  return renderSummaryText(summarize(records));
}
