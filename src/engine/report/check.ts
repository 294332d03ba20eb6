import { actionsOf, ENDING_ACTIONS, isEndingAction, type RuleId, type Scope } from "../vocabulary.js";
import type { Config, Signals } from "../signals.js";
import type { Lambdas } from "../vocabulary.js";
import { score, selectAction, type Scored, type Selection } from "../select.js";
import { checkTermination, type Termination } from "../terminate.js";
import { formatUtility, roundUtility, sameValue, utility } from "../utility.js";
import { TIE_BREAK_ORDER } from "../defaults.js";
import { formatSignal } from "./format.js";
import { checkStepBudget } from "../budget.js";
import type { Report } from "./types.js";

export interface Refusal {
  rule: RuleId;
  message: string;
}

export interface CheckContext {
  scope: Scope;
  /** Steps already taken in this task. */
  step: number;
  config: Config;
}

export interface Evaluation {
  report: Report;
  /** U of the selected action, unrounded. */
  utility: number;
  /** Present in the long form. */
  selection?: Selection;
  termination: Termination;
}

export type CheckOutcome = { ok: true; evaluation: Evaluation } | { ok: false; refusal: Refusal };

const refuse = (rule: RuleId, message: string): CheckOutcome => ({ ok: false, refusal: { rule, message } });

/** `0.7 − 1·0.12 − 0.5·0.6 − 0.8·0.0`: the arithmetic spelled out, so the model can see its slip. */
export function showArithmetic(signals: Signals, lambdas: Lambdas): string {
  const [l1, l2, l3] = lambdas.map(formatSignal);
  const s = (v: number) => formatSignal(v);
  return `${s(signals.gain)} − ${l1}·${s(signals.stepCost)} − ${l2}·${s(signals.uncertainty)} − ${l3}·${s(signals.redundancy)}`;
}

function checkScope(report: Report, scope: Scope): CheckOutcome | undefined {
  const allowed = actionsOf(scope);
  const used = [report.action, ...(report.candidates ?? []).map((c) => c.action)];
  const outside = used.find((a) => !allowed.includes(a));
  if (!outside) return undefined;
  return refuse(
    "unknown_action",
    `Action ${outside} is not available in ${scope} scope; the actions here are ${allowed.join(", ")}. Rescore with those only.`,
  );
}

function checkArithmetic(report: Report, lambdas: Lambdas): CheckOutcome | undefined {
  const expected = roundUtility(utility(report.signals, lambdas));
  if (!sameValue(report.utility, expected)) {
    return refuse(
      "utility_mismatch",
      `Utility ${report.utility} does not match the Breakdown: ${showArithmetic(report.signals, lambdas)} = ${formatUtility(expected)}. Write Utility: ${formatUtility(expected)}.`,
    );
  }
  for (const row of report.candidates ?? []) {
    if (row.utility === undefined) continue;
    const rowExpected = roundUtility(utility(row.signals, lambdas));
    if (!sameValue(row.utility, rowExpected)) {
      return refuse(
        "utility_mismatch",
        `Candidates row ${row.action} gives U=${row.utility}, but ${showArithmetic(row.signals, lambdas)} = ${formatUtility(rowExpected)}.`,
      );
    }
  }
  return undefined;
}

function sameSignals(a: Signals, b: Signals): boolean {
  return (
    sameValue(a.gain, b.gain) &&
    sameValue(a.stepCost, b.stepCost) &&
    sameValue(a.uncertainty, b.uncertainty) &&
    sameValue(a.redundancy, b.redundancy)
  );
}

function checkTable(report: Report, lambdas: Lambdas): CheckOutcome | Selection | undefined {
  if (!report.candidates) return undefined;
  const row = report.candidates.find((c) => c.action === report.action);
  if (!row) {
    return refuse("malformed", `Action ${report.action} has no row in Candidates; the Action must be one of the scored candidates.`);
  }
  if (!sameSignals(row.signals, report.signals)) {
    return refuse(
      "malformed",
      `The Breakdown of ${report.action} differs from its Candidates row; copy the row's four values into the Breakdown.`,
    );
  }
  const selection = selectAction(report.candidates, lambdas);
  if (selection.best.action !== report.action) {
    const chosen = selection.ranked.find((c) => c.action === report.action)!;
    const tie = sameValue(chosen.utility, selection.best.utility) ? ` (a tie goes to ${TIE_BREAK_ORDER.join(", ")} in that order)` : "";
    return refuse(
      "not_argmax",
      `Action ${report.action} is not the argmax of Candidates: ${selection.best.action} has U = ${formatUtility(selection.best.utility)} against ${formatUtility(chosen.utility)}${tie}. Under the gate the best action is mandatory: take ${selection.best.action}, or rescore.`,
    );
  }
  return selection;
}

/** True when the Rationale names the override and one of the Gain values that justify it. */
export function rationaleDocumentsOverride(rationale: string, gains: readonly number[]): boolean {
  if (!/overrid/i.test(rationale)) return false;
  const numbers = [...rationale.matchAll(/(?<![\d.])\d*\.?\d+/g)].map((m) => Number(m[0]));
  return numbers.some((n) => gains.some((g) => sameValue(n, g)));
}

function checkEnding(report: Report, evaluation: Evaluation, ctx: CheckContext): CheckOutcome | undefined {
  const { termination } = evaluation;
  const steps = termination.rule === "budget" ? checkStepBudget(ctx.step, ctx.config.maxSteps) : undefined;
  if (steps) return refuse(steps.rule, steps.reason);
  if (isEndingAction(report.action)) {
    return refuse(
      "loop_ended",
      `The report selected ${report.action}, which ends the loop and takes no tool call. Write your answer now, or write a new report whose Action fits this tool.`,
    );
  }
  if (termination.rule === "floor") {
    return refuse(
      "below_floor",
      `U = ${formatUtility(evaluation.utility)} is below the floor ${ctx.config.floor} and no candidate has Gain ≥ ${ctx.config.highGainThreshold}: the loop terminates here. Respond with what you have, or stop.`,
    );
  }
  if (termination.override) {
    // Judged on a table with a stop row only: the short form cannot show that a* beats stop, so the form chosen would decide.
    if (!evaluation.selection?.ranked.some((c) => c.action === "stop")) {
      return refuse(
        "override_undocumented",
        `U = ${formatUtility(evaluation.utility)} is below the floor ${ctx.config.floor}; the high-gain override (Gain ${termination.override.gain} ≥ ${ctx.config.highGainThreshold}) is judged on the long form only, so the gate can see that this action beats stop. Write Candidates with a row for each action you could take, stop included, and name the override and the Gain value ${termination.override.gain} in the Rationale; otherwise ${ENDING_ACTIONS.join(" or ")}.`,
      );
    }
    const considered = evaluation.selection?.ranked ?? [];
    const gains =
      considered.length > 0
        ? considered.filter((c) => c.signals.gain >= ctx.config.highGainThreshold).map((c) => c.signals.gain)
        : [report.signals.gain];
    if (!rationaleDocumentsOverride(report.rationale, gains)) {
      return refuse(
        "override_undocumented",
        `Every candidate is below the floor ${ctx.config.floor}; the high-gain override (Gain ${termination.override.gain} ≥ ${ctx.config.highGainThreshold}) lets you go on only if the Rationale says so. Name the override and the Gain value ${termination.override.gain} in the Rationale.`,
      );
    }
  }
  return undefined;
}

/**
 * Checks a parsed report against the engine, for a tool call about to run:
 * scope, arithmetic, argmax, budget, ending actions, floor and override.
 * The gate adds the tool-permission and repeat rules on top.
 */
export function checkReport(report: Report, ctx: CheckContext): CheckOutcome {
  const { lambdas } = ctx.config;
  const early = checkScope(report, ctx.scope) ?? checkArithmetic(report, lambdas);
  if (early) return early;
  const table = checkTable(report, lambdas);
  if (table && "ok" in table) return table;
  const selection = table;
  const selected: Scored = score([{ action: report.action, signals: report.signals }], lambdas)[0]!;
  const considered = selection ? selection.ranked : [selected];
  const termination = checkTermination({ selected: report.action, considered, step: ctx.step, config: ctx.config });
  const evaluation: Evaluation = { report, utility: selected.utility, termination, ...(selection ? { selection } : {}) };
  return checkEnding(report, evaluation, ctx) ?? { ok: true, evaluation };
}
