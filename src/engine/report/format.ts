import { formatUtility, utility } from "../utility.js";
import { SIGNAL_LABELS, SIGNAL_NAMES, type Signals } from "../signals.js";
import type { Action, Lambdas } from "../vocabulary.js";
import type { Candidate } from "./types.js";

/** Numbers as the model would write them: no trailing zeros beyond one decimal (0.0, 0.12, 0.7). */
export function formatSignal(value: number): string {
  const text = String(Number(value.toFixed(6)));
  return text.includes(".") ? text : `${text}.0`;
}

export function formatBreakdown(signals: Signals): string {
  return SIGNAL_NAMES.map((name) => `${SIGNAL_LABELS[name]}=${formatSignal(signals[name])}`).join(" ");
}

export interface ReportInput {
  action: Action;
  signals: Signals;
  lambdas: Lambdas;
  rationale?: string;
  candidates?: Candidate[];
}

/** The short form, or the long form when candidates are given (SPEC §4). */
export function formatReport(input: ReportInput): string {
  const lines: string[] = [];
  if (input.candidates) {
    lines.push("Candidates:");
    for (const c of input.candidates) lines.push(`- ${c.action}: ${formatBreakdown(c.signals)}`);
  }
  lines.push(`Action: ${input.action}`);
  lines.push(`Utility: ${formatUtility(utility(input.signals, input.lambdas))}`);
  lines.push(`Breakdown: ${formatBreakdown(input.signals)}`);
  if (input.rationale !== undefined) lines.push(`Rationale: "${input.rationale.replace(/"/g, "'")}"`);
  return lines.join("\n");
}
