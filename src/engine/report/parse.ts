import { fail, ok, problem, showFound, type Problem, type Result } from "../problem.js";
import { parseAction, parseCandidates, parseNumber, parseSignals, unquote } from "./fields.js";
import { candidateRow, labelLine, normalizeLine, type Label } from "./lines.js";
import { stripDecorAndSpace as stripDecor } from "./scan.js";
import type { Candidate, Report } from "./types.js";

/**
 * Reads action reports out of free text. Tolerant of what models do to text
 * (prose around it, fences, bullets, bold labels, CRLF, unquoted or wrapped
 * rationales); strict about meaning (missing, conflicting, non-numeric or
 * unknown values are errors that name what is wrong). What a report line
 * looks like is ./lines.ts; what each field's value may be, ./fields.ts.
 */

const FENCE = /^(```|~~~)/;

interface Block {
  fields: Partial<Record<Exclude<Label, "candidates">, string>>;
  candidates?: string[];
  problems: Problem[];
  /** The field a wrapped line continues, if any. */
  open?: "rationale";
}

function setField(block: Block, label: Exclude<Label, "candidates">, value: string): void {
  const previous = block.fields[label];
  const name = label[0]!.toUpperCase() + label.slice(1);
  if (previous !== undefined && previous.trim() !== value.trim()) {
    block.problems.push(
      problem(
        name,
        `${showFound(previous.trim())} and ${showFound(value.trim())}`,
        "one value",
        `The report gives ${name} twice with different values (${showFound(previous.trim())} and ${showFound(value.trim())}); give it once.`,
      ),
    );
  }
  block.fields[label] = value;
}

/** Splits text into report blocks: an optional Candidates table, then Action and its fields. */
function scanBlocks(text: string): Block[] {
  const scan: BlockScan = { blocks: [], current: undefined, pendingCandidates: undefined };
  for (const raw of text.split("\n")) scanLine(scan, normalizeLine(raw));
  return scan.blocks;
}

/** scanBlocks' state between lines. */
interface BlockScan {
  blocks: Block[];
  current: Block | undefined;
  pendingCandidates: string[] | undefined;
}

function scanLine(scan: BlockScan, line: string): void {
  if (FENCE.test(line) || line === "") {
    if (scan.current) scan.current.open = undefined;
    return;
  }
  const labelled = labelLine(line);
  if (labelled) {
    scanLabelled(scan, labelled.label, labelled.value);
    return;
  }
  if (scan.pendingCandidates && candidateRow(line)) {
    scan.pendingCandidates.push(line);
    return;
  }
  const current = scan.current;
  if (current?.open === "rationale") {
    current.fields.rationale = `${current.fields.rationale ?? ""} ${line}`;
  }
}

function scanLabelled(scan: BlockScan, label: Label, value: string): void {
  if (label === "candidates") {
    scan.pendingCandidates = [];
    scan.current = undefined;
    return;
  }
  if (label === "action") {
    scan.current = { fields: {}, problems: [], ...(scan.pendingCandidates ? { candidates: scan.pendingCandidates } : {}) };
    scan.pendingCandidates = undefined;
    scan.blocks.push(scan.current);
  }
  const current = scan.current;
  if (!current) return; // a stray "Utility:" in prose belongs to no report
  setField(current, label, value);
  current.open = label === "rationale" ? "rationale" : undefined;
}

function buildReport(block: Block): Result<Report> {
  const problems: Problem[] = [...block.problems];
  const { action, utility, breakdown, rationale } = block.fields;
  const need = (value: string | undefined, name: string, example: string) => {
    if (value === undefined || stripDecor(value) === "") {
      problems.push(problem(name, "nothing", example, `The report has no ${name} line; add \`${name}: ${example}\`.`));
      return false;
    }
    return true;
  };
  const parsedAction = need(action, "Action", "tool_call") ? parseAction(action!) : undefined;
  const parsedUtility = need(utility, "Utility", "0.28") ? parseNumber("Utility", utility!) : undefined;
  const parsedSignals = need(breakdown, "Breakdown", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0")
    ? parseSignals(breakdown!, "Breakdown", false)
    : undefined;
  const text = rationaleText(rationale, problems);
  const parsedCandidates = block.candidates ? parseCandidates(block.candidates) : undefined;
  for (const part of [parsedAction, parsedUtility, parsedSignals, parsedCandidates]) {
    if (part && !part.ok) problems.push(...part.problems);
  }
  if (problems.length > 0) return fail(...problems);
  return ok({
    action: valueOf(parsedAction),
    utility: valueOf(parsedUtility),
    signals: valueOf(parsedSignals).signals,
    rationale: text,
    ...(parsedCandidates ? { candidates: valueOf(parsedCandidates) } : {}),
  });
}

/** The Rationale as one line, unquoted; a missing or empty one adds its problem. */
function rationaleText(rationale: string | undefined, problems: Problem[]): string {
  const text = rationale === undefined ? "" : unquote(rationale.replace(/\s+/g, " "));
  if (rationale !== undefined && text === "") {
    problems.push(problem("Rationale", "an empty line", "one sentence", "The Rationale is empty; say in one sentence why this action."));
  } else if (rationale === undefined || stripDecor(rationale) === "") {
    problems.push(
      problem("Rationale", "nothing", RATIONALE_EXAMPLE, `The report has no Rationale line; add \`Rationale: ${RATIONALE_EXAMPLE}\`.`),
    );
  }
  return text;
}

const RATIONALE_EXAMPLE = '"one sentence on why this action"';

/** The value of a part already known to have parsed. */
function valueOf<T>(result: Result<T> | undefined): T {
  if (!result?.ok) throw new Error("internal: valueOf on a failed part");
  return result.value;
}

/** Every report in the text, in order; each parsed or with its problems. */
export function parseReports(text: string): Array<Result<Report>> {
  return scanBlocks(text).map(buildReport);
}

/** The report that counts: the last one in the text, or undefined when there is none. */
export function parseLastReport(text: string): Result<Report> | undefined {
  const last = scanBlocks(text).at(-1);
  return last && buildReport(last);
}

/**
 * A bare candidate table, as `utility select` reads it: a `Candidates:` line
 * and one row per candidate below it, nothing else required (no Action line).
 * A line below the table that is not a row is an error naming it. Undefined
 * when the text has no `Candidates:` line.
 */
export function parseCandidateTable(text: string): Result<Candidate[]> | undefined {
  let rows: string[] | undefined;
  const strays: Problem[] = [];
  for (const raw of text.split("\n")) {
    const line = normalizeLine(raw);
    if (FENCE.test(line) || line === "") continue;
    if (labelLine(line)?.label === "candidates") rows = [];
    else if (rows && candidateRow(line)) rows.push(line);
    else if (rows)
      strays.push(
        problem(
          "Candidates",
          showFound(line),
          "a row like `- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0`",
          `In Candidates, ${showFound(line)} is not a candidate row; write \`- <action>: Gain=… StepCost=… Uncertainty=… Redundancy=…\`.`,
        ),
      );
  }
  if (!rows) return undefined;
  const parsed = parseCandidates(rows);
  if (strays.length > 0) return fail(...strays, ...(parsed.ok ? [] : parsed.problems));
  return parsed;
}
