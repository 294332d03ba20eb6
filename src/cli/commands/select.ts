import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as z from "zod/mini";
import {
  ActionSchema,
  DECISION_SCOPES,
  DecisionScopeSchema,
  LambdasSchema,
  actionsOf,
  type Action,
  type Scope,
} from "../../engine/vocabulary.js";
import { DEFAULT_CONFIG } from "../../engine/defaults.js";
import { problemsFromIssues } from "../../engine/problem.js";
import { checkReport } from "../../engine/report/check.js";
import { parseCandidateTable, parseLastReport } from "../../engine/report/parse.js";
import { ConfigSchema, SignalsSchema, type Config, type Signals } from "../../engine/signals.js";
import { selectAction } from "../../engine/select.js";
import { checkTermination } from "../../engine/terminate.js";
import { formatUtility, roundUtility } from "../../engine/utility.js";
import { stringOption } from "../args.js";
import type { CommandSpec } from "../command-spec.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";
import { parseLambdas } from "./score.js";
import { fileErrorText } from "../../state/file-error.js";

/**
 * `utility select FILE|-`: a candidate table → a*, every candidate's U and the
 * termination verdict. The table is one of (README, "The CLI"):
 * - plain text: a `Candidates:` line, then one row per candidate
 *   (`- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0`);
 * - a long-form report (the same table followed by Action, Utility,
 *   Breakdown, Rationale): its own claims are checked too (exit 1 when wrong);
 * - JSON: a list of `{action, gain, stepCost, uncertainty, redundancy}`, or an
 *   object `{candidates: [...], scope?, step?, maxSteps?, floor?, lambdas?}`.
 */
const ARGS = `FILE|- [--scope ${DECISION_SCOPES.join("|")}] [--step N] [--max-steps N] [--floor N] [--lambdas ${DEFAULT_CONFIG.lambdas.join(",")}] [--json]`;

const CandidateInput = z.object({ ...SignalsSchema.shape, action: ActionSchema });

/** The JSON form: an object with the candidates and optional settings, or just the list of candidates. */
export const SelectInputSchema = z.object({
  candidates: z.array(CandidateInput),
  scope: z.optional(DecisionScopeSchema),
  step: z.optional(z.int().check(z.minimum(0))),
  maxSteps: z.optional(z.int().check(z.minimum(1))),
  floor: z.optional(z.number()),
  lambdas: z.optional(LambdasSchema),
});

interface Table {
  candidates: Array<{ action: Action; signals: Signals }>;
  settings: { scope?: Scope; step?: number; maxSteps?: number; floor?: number; lambdas?: Config["lambdas"] };
  /** The long report the table came from, when it was given as text. */
  reportText?: string;
}

function readSource(path: string, io: CliIo): string {
  if (path === "-") return io.readStdin();
  try {
    return readFileSync(resolve(io.cwd, path), "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${fileErrorText(error)}.`);
  }
}

function tableFromJson(text: string, source: string): Table {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source} is not valid JSON: ${(error as Error).message}.`);
  }
  const parsed = SelectInputSchema.safeParse(Array.isArray(data) ? { candidates: data } : data, { reportInput: true });
  if (!parsed.success) throw new UsageError(`${source}: ${problemsFromIssues(parsed.error.issues, "candidates")[0]!.message}`);
  const { candidates, ...settings } = parsed.data;
  return { candidates: candidates.map(({ action, ...signals }) => ({ action, signals })), settings };
}

function tableFromText(text: string, source: string): Table {
  const report = parseLastReport(text);
  if (!report) return plainTable(text, source);
  if (!report.ok) throw new UsageError(`${source}: ${report.problems[0]!.message}`);
  if (!report.value.candidates) throw new UsageError(`${source}: the report has no Candidates table; select needs one row per candidate.`);
  return { candidates: report.value.candidates, settings: {}, reportText: text };
}

/** Only `Candidates:` and its rows. */
function plainTable(text: string, source: string): Table {
  const table = parseCandidateTable(text);
  if (!table)
    throw new UsageError(
      `${source} holds no candidate table: give a \`Candidates:\` line and one row per candidate, a long report, or JSON.`,
    );
  if (!table.ok) throw new UsageError(`${source}: ${table.problems[0]!.message}`);
  return { candidates: table.value.map(({ action, signals }) => ({ action, signals })), settings: {} };
}

function integer(raw: string | undefined, name: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`--${name} is "${raw}"; expected a whole number ≥ ${min}.`);
  return Number(raw);
}

function settingsFrom(values: Record<string, string | boolean | undefined>, table: Table): { scope: Scope; step: number; config: Config } {
  const scope = DecisionScopeSchema.safeParse(values.scope ?? table.settings.scope ?? "self");
  if (!scope.success) throw new UsageError(`--scope is "${String(values.scope)}"; expected one of ${DECISION_SCOPES.join(", ")}.`);
  const floor = values.floor === undefined ? table.settings.floor : floorOf(String(values.floor));
  const config = ConfigSchema.safeParse(
    {
      lambdas: values.lambdas !== undefined ? parseLambdas(values.lambdas as string) : table.settings.lambdas,
      floor,
      maxSteps: integer(stringOption(values.maxSteps), "max-steps", 1) ?? table.settings.maxSteps,
    },
    { reportInput: true },
  );
  if (!config.success) throw new UsageError(problemsFromIssues(config.error.issues, "config")[0]!.message);
  const step = integer(stringOption(values.step), "step", 0) ?? table.settings.step ?? 0;
  return { scope: scope.data, step, config: config.data };
}

function floorOf(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value))
    throw new UsageError(`--floor is "${raw}"; expected a number in [-2.3, 1.0] (e.g. --floor -1).`);
  return value;
}

function runSelect({ values, positionals }: Parsed, io: CliIo): number {
  const source = positionals[0]!;
  const text = readSource(source, io);
  const table = /^\s*[[{]/.test(text) ? tableFromJson(text, source) : tableFromText(text, source);
  if (table.candidates.length === 0) throw new UsageError(`${source} has no candidates.`);
  const { scope, step, config } = settingsFrom(values, table);
  const outside = table.candidates.find((c) => !actionsOf(scope).includes(c.action));
  if (outside)
    throw new UsageError(
      `candidate ${outside.action} is not available in ${scope} scope; the actions there are ${actionsOf(scope).join(", ")}.`,
    );

  const selection = selectAction(table.candidates, config.lambdas);
  const termination = checkTermination({ selected: selection.best.action, considered: selection.ranked, step, config });
  const reportCheck = table.reportText ? checkReportText(table.reportText, { scope, step, config }) : undefined;

  const result = { selection, scope, step, config, termination, reportCheck };
  if (values.json) printSelectJson(io, result);
  else printSelectText(io, result);
  return reportCheck && !reportCheck.ok ? 1 : 0;
}

interface SelectResult {
  selection: ReturnType<typeof selectAction>;
  scope: Scope;
  step: number;
  config: Config;
  termination: ReturnType<typeof checkTermination>;
  reportCheck: ReturnType<typeof checkReportText> | undefined;
}

function printSelectJson(io: CliIo, { selection, scope, step, config, termination, reportCheck }: SelectResult): void {
  const candidates = selection.ranked.map((c) => ({
    action: c.action,
    utility: roundUtility(c.utility),
    unrounded: c.utility,
    ...c.signals,
  }));
  printJson(io, {
    selected: selection.best.action,
    utility: roundUtility(selection.best.utility),
    scope,
    step,
    config,
    candidates,
    termination,
    ...(reportCheck ? { reportCheck } : {}),
  });
}

function printSelectText(io: CliIo, { selection, termination, reportCheck }: SelectResult): void {
  io.stdout(`a* = ${selection.best.action} (U = ${formatUtility(selection.best.utility)})\n`);
  for (const c of selection.ranked) io.stdout(`  ${c.action.padEnd(9)} U = ${formatUtility(c.utility).padStart(5)}\n`);
  io.stdout(`${termination.terminate ? "terminate" : "continue"}: ${termination.reason}\n`);
  if (reportCheck) io.stdout(reportCheck.ok ? "report: consistent with the engine\n" : `report: ${reportCheck.message}\n`);
}

/** A long report's own claims, checked as the gate would (ending actions aside: select may pick respond or stop). */
function checkReportText(
  text: string,
  ctx: { scope: Scope; step: number; config: Config },
): { ok: true } | { ok: false; rule: string; message: string } {
  const parsed = parseLastReport(text)!;
  if (!parsed.ok) return { ok: false, rule: "malformed", message: parsed.problems[0]!.message };
  const outcome = checkReport(parsed.value, ctx);
  if (
    outcome.ok ||
    outcome.refusal.rule === "loop_ended" ||
    outcome.refusal.rule === "budget_spent" ||
    outcome.refusal.rule === "below_floor"
  ) {
    return { ok: true };
  }
  return { ok: false, rule: outcome.refusal.rule, message: outcome.refusal.message };
}

export const SELECT: CommandSpec = {
  name: "select",
  summary: "a candidate table (text or JSON) -> the best action, every candidate's Utility, and whether to stop",
  usage: ARGS,
  arguments: ["<file>", "the table: a file, or - for standard input"],
  options: [
    ["--scope <scope>", "self, subagent or dispatch (default self)"],
    ["--step <n>", "the step about to be taken (default 0)"],
    ["--max-steps <n>", "the step budget (default 10)"],
    ["--floor <n>", "the floor, in [-2.3, 1.0] (default -0.5)"],
    ["--lambdas <l1,l2,l3>", `the three weights (default ${DEFAULT_CONFIG.lambdas.join(",")})`],
    ["--json", "print JSON"],
  ],
  run: runSelect,
};
