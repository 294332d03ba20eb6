import { actionsOf } from "./vocabulary.js";
import { checkReport, showArithmetic, type Evaluation } from "./report/check.js";
import { parseLastReport } from "./report/parse.js";
import { EPSILON, MAX_REPORT_TEXT_CHARS, STUCK_REDUNDANCY } from "./defaults.js";
import { describeSteps, noProgressReason, stuckHint } from "./no-progress.js";
import { actionPermits, actionPermitsActing, actionsPermitting, describePermits, isOwnTool, type ActsAs } from "./tools.js";
import { formatUtility, roundUtility, utility } from "./utility.js";
import type { Repeat } from "./redundancy.js";
import type { Report } from "./report/types.js";
import { budgetNames } from "./budget.js";
import { checkReportedStepCost, measuredStepCost } from "./measured-step-cost.js";
import { budgetsInForce, checkBudgets, decideWindDown, windDownKind } from "./gate-budgets.js";
import { refused, type GateDecision, type GateInput } from "./gate-input.js";

export type { GateBudget, GateDecision, GateInput } from "./gate-input.js";

/**
 * The PreToolUse decision of SPEC §6, as a pure function. The gate only ever
 * refuses or stays silent: it never answers "allow", so a confident report
 * cannot skip the user's own permission rules.
 */
export { budgetsInForce };

export const REPORT_TEMPLATE = [
  "Action: <respond|retrieve|tool_call|verify|delegate|stop>",
  "Utility: <U rounded to 2 decimals>",
  "Breakdown: Gain=<0..1> StepCost=<0..1> Uncertainty=<0..1> Redundancy=<0..1>",
  'Rationale: "<one sentence>"',
].join("\n");

export function repeatHint(tool: string, repeat: Repeat, current?: number): string {
  return `utility: this ${tool} call is an exact repeat of one that already ran (${describeSteps([repeat.previous], current)}) with nothing in between that could change its result; its result is already in your context.`;
}

/** A call that acts as another action than its tool's (SPEC §6): only that action permits it. */
function checkActing(input: GateInput, actsAs: ActsAs, evaluation: Evaluation): GateDecision | undefined {
  const { action } = evaluation.report;
  if (actionPermitsActing(action, input.tool, actsAs, input.extraTools)) return undefined;
  const fits = actionsOf(input.scope).includes(actsAs.action)
    ? ` Rescore with ${actsAs.action} if it is the best.`
    : ` In ${input.scope} scope no action permits it.`;
  return refused(
    "tool_not_permitted",
    `Action ${action} does not permit this ${input.tool} call: ${actsAs.why}, so it counts as ${actsAs.action}.${fits}`,
    evaluation,
  );
}

function checkPermission(input: GateInput, evaluation: Evaluation): GateDecision | undefined {
  if (input.actsAs) return checkActing(input, input.actsAs, evaluation);
  const { action } = evaluation.report;
  if (actionPermits(action, input.tool, input.extraTools)) return undefined;
  const fitting = actionsPermitting(input.tool, actionsOf(input.scope), input.extraTools);
  const instead = fitting.length > 0 ? ` ${input.tool} fits ${fitting.join(" or ")}: rescore with that action if it is the best.` : "";
  return refused(
    "tool_not_permitted",
    `Action ${action} does not permit ${input.tool}; ${action} permits ${describePermits(action, input.extraTools)}.${instead}`,
    evaluation,
  );
}

function checkRepeat(input: GateInput, evaluation: Evaluation): GateDecision | undefined {
  if (!input.repeat || evaluation.report.signals.redundancy >= 1) return undefined;
  const signals = { ...evaluation.report.signals, redundancy: 1 };
  const u = roundUtility(utility(signals, input.config.lambdas));
  return refused(
    "exact_repeat",
    `This ${input.tool} call is an exact repeat of one that ran at ${describeSteps([input.repeat.previous], input.task)} with nothing in between that could change its result, so Redundancy is 1, not ${evaluation.report.signals.redundancy}. With Redundancy=1: ${showArithmetic(signals, input.config.lambdas)} = ${formatUtility(u)}. Use the result you already have, or rescore.`,
    evaluation,
  );
}

/** SPEC §13: a stuck loop's next run, under the gate, needs a report that expects the same result (Redundancy ≥ 0.9). */
function checkStuck(input: GateInput, evaluation: Evaluation): GateDecision | undefined {
  if (!input.stuck || evaluation.report.signals.redundancy >= STUCK_REDUNDANCY - EPSILON) return undefined;
  const signals = { ...evaluation.report.signals, redundancy: STUCK_REDUNDANCY };
  const u = roundUtility(utility(signals, input.config.lambdas));
  return refused(
    "no_progress",
    `${noProgressReason(input.tool, input.stuck, evaluation.report.signals.redundancy, input.task)} With Redundancy=${STUCK_REDUNDANCY}: ${showArithmetic(signals, input.config.lambdas)} = ${formatUtility(u)}.`,
    evaluation,
  );
}

/**
 * SPEC §14: a call that passed every rule, whose report chose tool_call or
 * delegate with Uncertainty at or above the threshold, falls back to the
 * user: Claude Code asks them, showing the reason. Never "allow".
 */
function withFallback(input: GateInput, evaluation: Evaluation): GateDecision {
  const threshold = input.confirmAboveUncertainty;
  const { action, signals, rationale } = evaluation.report;
  if (threshold === undefined || !CONFIRMED_ACTIONS.includes(action) || signals.uncertainty < threshold - EPSILON)
    return { decision: "passed", evaluation };
  const reason = `utility: this ${input.tool} call's report chose ${action} with Uncertainty=${signals.uncertainty}, at or above ${threshold} (utility_confirm_above_uncertainty), so you decide whether it runs. Its rationale: "${rationale}"`;
  return { decision: "passed", evaluation, fallback: { to: "user", reason } };
}

const CONFIRMED_ACTIONS: readonly string[] = ["tool_call", "delegate"];

function checkStepCost(input: GateInput, evaluation: Evaluation): GateDecision | undefined {
  if (!input.budget || budgetsInForce(input).stepCost !== "computed") return undefined;
  const measured = measuredStepCost({
    scope: input.scope,
    step: input.step,
    maxSteps: input.config.maxSteps,
    spend: input.budget.spend,
    budgets: budgetsInForce(input),
    ...(input.budget.model ? { model: input.budget.model } : {}),
  });
  const under = checkReportedStepCost(
    evaluation.report.signals.stepCost,
    measured,
    budgetNames(input.budget.user, input.budget.gate, input.budget.organization),
  );
  return under ? refused(under.rule, under.reason, evaluation) : undefined;
}

/** What is decided before any report is read, in every scope: the plugin's own tools, planning tools, budgets, and an ungated scope's observation. */
function decideWithoutReport(input: GateInput): GateDecision | undefined {
  if (isOwnTool(input.tool))
    return refused(
      "own_tool",
      `${input.tool} belongs to the utility plugin's own server, which answers Claude Code's hooks; the model may not call it, in any scope.`,
    );
  // Planning and stopping calls are judged by the budgets apart: past a spent one, the wind-down rules decide them.
  const kind = windDownKind(input);
  const elsewhere = kind === "stops" && input.gated ? checkWhatElseRuns(input) : undefined;
  const pastBudget = elsewhere ?? (kind ? decideWindDown(input, kind) : checkBudgets(input));
  if (pastBudget) return pastBudget;
  if (kind === "plans") return { decision: "neutral" };
  // Ungated, a Skill call is judged by its skill only where a budget binds (SPEC §12): one that runs shell or
  // starts agents is then a call like the one it acts as, counted against tool-call and agent budgets (red team 10).
  if (!input.gated) return observed(input);
  return checkBeforeReport(input);
}

/** An ungated scope's call: observed, with a hint when it is an exact repeat or a stuck loop's next run. */
function observed(input: GateInput): GateDecision {
  const hints = [
    ...(input.repeat ? [repeatHint(input.tool, input.repeat, input.task)] : []),
    ...(input.stuck ? [stuckHint(input.tool, input.stuck, input.task)] : []),
  ];
  return hints.length > 0 ? { decision: "observed", hint: hints.join("\n") } : { decision: "observed" };
}

export function decideToolCall(input: GateInput): GateDecision {
  const early = decideWithoutReport(input);
  if (early) return early;
  const parsed = readReport(input);
  if (!parsed.ok) return parsed.refusal;
  const checked = checkReport(parsed.report, { scope: input.scope, step: input.step, config: input.config });
  // The parsed report goes with a refusal that checks it, so the log shows what the model claimed.
  if (!checked.ok) return refused(checked.refusal.rule, checked.refusal.message, undefined, parsed.report);
  return (
    checkStepCost(input, checked.evaluation) ??
    checkPermission(input, checked.evaluation) ??
    checkRepeat(input, checked.evaluation) ??
    checkStuck(input, checked.evaluation) ??
    withFallback(input, checked.evaluation)
  );
}

/** Refusals a gated call gets before its report is read: a protected target, an invalid opt-in, a report too large to read. */
function checkBeforeReport(input: GateInput): GateDecision | undefined {
  return checkWhatElseRuns(input) ?? checkReadable(input);
}

/** What the call would set off besides itself, where gated: hooks registered outside the gate, a protected target. Calls that stop work past a budget get these too. */
function checkWhatElseRuns(input: GateInput): GateDecision | undefined {
  if (input.foreignHooks)
    return refused(
      "foreign_hooks",
      `This ${input.tool} call is refused: ${input.foreignHooks}. Claude Code runs a skill's hooks on its own events, even for calls the gate refuses, so under the utility gate no call can be checked while such hooks are registered. Answer with what you have; the user can start a new session without that skill.`,
    );
  if (input.protectedTarget)
    return refused(
      "protected_target",
      `This ${input.tool} call is refused: ${input.protectedTarget}. Under the utility gate no tool but one known to only read (Read, Grep, Glob) may name the gate's records or Claude Code's configuration, to write, move, delete or link them: leave them as they are, or ask the user.`,
    );
  return undefined;
}

/** Whether the call can be checked at all: an opt-in that can be read, a report text that is not too large. */
function checkReadable(input: GateInput): GateDecision | undefined {
  if (input.optInProblem)
    return refused(
      "optin_invalid",
      `The skill that gates this scope has an invalid opt-in, so no tool call can be checked: ${input.optInProblem}`,
    );
  if (input.reportText !== undefined && input.reportText.length > MAX_REPORT_TEXT_CHARS) {
    return refused(
      "report_too_large",
      `The text before this ${input.tool} call is ${input.reportText.length} characters long, more than the ${MAX_REPORT_TEXT_CHARS} an action report may take, so it is not read. Write the report in a short message before the call:\n${REPORT_TEMPLATE}`,
    );
  }
  return undefined;
}

/** For a call judged by what it can do: what it does, in a refusal. */
function actingNote(input: GateInput): string {
  return input.actsAs ? ` (${input.actsAs.why}, so it counts as ${input.actsAs.action})` : "";
}

type ReadReport = { ok: true; report: Report } | { ok: false; refusal: GateDecision };

/** The last action report before the call, or the refusal for a missing or malformed one. */
function readReport(input: GateInput): ReadReport {
  const parsed = input.reportText === undefined ? undefined : parseLastReport(input.reportText);
  if (!parsed) {
    return {
      ok: false,
      refusal: refused(
        "no_report",
        `No action report before this ${input.tool} call${actingNote(input)}. Under the utility gate, write the report in the same message, before the call:\n${REPORT_TEMPLATE}`,
      ),
    };
  }
  if (parsed.ok) return { ok: true, report: parsed.value };
  const unknown = parsed.problems.find((p) => p.field === "Action" || p.kind === "unknown_action");
  if (unknown)
    return {
      ok: false,
      refusal: refused(
        "unknown_action",
        `${unknown.message} In ${input.scope} scope the actions are ${actionsOf(input.scope).join(", ")}.`,
      ),
    };
  return { ok: false, refusal: refused("malformed", `The action report is malformed: ${parsed.problems.map((p) => p.message).join(" ")}`) };
}
