// The human form of a replay: a short table per file, then the repeats (and refusals with --gated).
import { canonicalJson } from "../engine/redundancy.js";
import type { FileReplay, ReplayReport, ReplaySpend, ScopeReplay } from "./types.js";
import { formatUsd } from "../engine/prices.js";
import { taskLabel } from "../summary/task-label.js";

const MAX_REFUSALS_SHOWN = 5;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function scopeLabel(scope: ScopeReplay): string {
  if (scope.scope === "main") return "main";
  const name = scope.agentId !== undefined ? `agent ${scope.agentId}` : `subagent ${scope.id.replace(/^sidechain:/, "#")}`;
  const what = scope.spawnedBy?.description ? ` (${clip(scope.spawnedBy.description, 28)})` : "";
  return `${name}${what}`;
}

function table(rows: string[][], rightAligned: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? "").length)));
  return rows.map((row) =>
    row
      .map((cell, col) => (rightAligned.has(col) ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!)))
      .join("  ")
      .trimEnd(),
  );
}

function byRule(scope: ScopeReplay): string {
  const entries = Object.entries(scope.gate?.byRule ?? {}).sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? "-" : entries.map(([rule, n]) => `${rule} ${n}`).join(", ");
}

function fileLines(file: FileReplay, gated: boolean): string[] {
  const out: string[] = [];
  const role = file.role === "subagent" ? `subagent file${file.subagentOf ? " (found beside the session file)" : ""}` : "session";
  out.push(`${file.path}`);
  out.push(`  ${role}, ${file.lines} lines, ${file.calls} tool calls, ${file.scopes.length} scope${file.scopes.length === 1 ? "" : "s"}`);
  const header = ["scope", "lines", "calls", "repeats", "~tokens", "identical", "stuck", ...(gated ? ["refused", "why"] : [])];
  const rows = file.scopes.map((scope) => [
    scopeLabel(scope),
    `${scope.firstLine}-${scope.lastLine}`,
    String(scope.calls),
    String(scope.repeats.length),
    String(scope.repeatTokens),
    String(scope.identicalOutcomes.length),
    String(scope.stuckLoops.length),
    ...(gated ? [String(scope.gate?.refused ?? 0), byRule(scope)] : []),
  ]);
  out.push(...table([header, ...rows], new Set([2, 3, 4, 5, 6, ...(gated ? [7] : [])])).map((line) => `  ${line}`));
  for (const scope of file.scopes) {
    out.push(...repeatLines(scope), ...noProgressLines(scope));
    if (gated && scope.gate) out.push(...refusalLines(scope, scope.gate));
  }
  for (const spend of file.spend) out.push(`  spend ${spendScopeLabel(spend.scope)}: ${describeReplaySpend(spend)}`);
  return out;
}

function repeatLines(scope: ScopeReplay): string[] {
  return scope.repeats.flatMap((r) => [
    `  repeat in ${scopeLabel(scope)}: line ${r.repeat.line} (call ${r.repeat.index}, ${taskLabel(r.repeat.task)} step ${r.repeat.step}) ${r.tool} ${clip(canonicalJson(r.input), 70)}`,
    `    first ran at line ${r.first.line} (call ${r.first.index}, ${taskLabel(r.first.task)} step ${r.first.step}); result ${r.resultBytes} bytes ≈ ${r.tokens} tokens`,
  ]);
}

/** SPEC §13: each identical outcome and each stuck loop, one line. */
function noProgressLines(scope: ScopeReplay): string[] {
  return [
    ...scope.identicalOutcomes.map(
      (f) =>
        `  identical outcome in ${scopeLabel(scope)}: line ${f.call.line} ${f.tool} ${clip(canonicalJson(f.input), 60)} returned what it returned at line ${f.of.line} (${f.resultBytes} bytes)${f.retry ? ", a retry of that failed run" : ""}`,
    ),
    ...scope.stuckLoops.map(
      (f) =>
        `  stuck loop in ${scopeLabel(scope)}: line ${f.call.line} ${f.tool} ${clip(canonicalJson(f.input), 60)} after ${f.runs.length} runs with one result (lines ${f.runs.map((r) => r.line).join(", ")})${f.refused ? ", refused" : ""}`,
    ),
  ];
}

/** What the replayed gate would refuse: the first few reasons, calls without a report counted in one line. */
function refusalLines(scope: ScopeReplay, gate: NonNullable<ScopeReplay["gate"]>): string[] {
  const out: string[] = [];
  const shown = gate.refusals.filter((f) => f.rule !== "no_report").slice(0, MAX_REFUSALS_SHOWN);
  for (const f of shown)
    out.push(`  would refuse in ${scopeLabel(scope)}: line ${f.call.line} ${f.tool} [${f.rule}] ${clip(f.reason, 110)}`);
  const noReport = gate.byRule.no_report ?? 0;
  if (noReport > 0) {
    const first = gate.refusals.find((f) => f.rule === "no_report");
    out.push(
      `  would refuse in ${scopeLabel(scope)}: ${noReport} call${noReport === 1 ? "" : "s"} with no action report before them (first at line ${first?.call.line})`,
    );
  }
  const hidden = gate.refusals.filter((f) => f.rule !== "no_report").length - shown.length;
  if (hidden > 0) out.push(`  … ${hidden} more refusals in ${scopeLabel(scope)} (see --json)`);
  return out;
}

function spendScopeLabel(scope: string): string {
  if (scope === "main") return "main";
  if (scope === "sidechain") return "subagents (inline, no agent id)";
  return `agent ${scope.replace(/^agent:/, "")}`;
}

const n = (v: number) => v.toLocaleString("en-US");
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

export function describeReplaySpend(s: Omit<ReplaySpend, "scope">): string {
  const t = s.tokens;
  return `${n(s.total)} tokens in ${n(s.messages)} message${s.messages === 1 ? "" : "s"} (input ${n(t.input)}, output ${n(t.output)}, cache writes ${n(t.cacheCreation)}, cache reads ${n(t.cacheRead)}), about ${formatUsd(s.costUsd)}`;
}

/** The replay report for people. */
export function renderReplayText(report: ReplayReport): string {
  const out: string[] = [];
  const anyGate = report.gated || report.files.some((file) => file.scopes.some((scope) => scope.gate !== undefined));
  for (const file of report.files) {
    out.push(...fileLines(file, anyGate), "");
  }
  const t = report.totals;
  out.push(
    `total: ${plural(t.files, "file")}, ${plural(t.scopes, "scope")}, ${t.calls} tool calls, ${plural(t.repeats, "exact repeat")} ≈ ${t.repeatTokens} tokens, ${plural(t.identicalOutcomes, "identical outcome")}, ${plural(t.stuckLoops, "stuck loop")}`,
  );
  out.push(`spend: ${describeReplaySpend(t.spend)} at the prices of ${t.pricesDate}; each message counted once`);
  if (report.gated)
    out.push(
      `every scope gated (default config): would refuse ${t.refused ?? 0}, let ${t.passed ?? 0} through (neutral tools are never checked)`,
    );
  else if (anyGate)
    out.push(`gated scopes (by a skill or /utility on, as the hooks find them): refused ${t.refused ?? 0}, let ${t.passed ?? 0} through`);
  out.push(`estimate: ${report.tokenEstimate}`);
  out.push(`policy: ${report.policy}`);
  return `${out.join("\n")}\n`;
}
