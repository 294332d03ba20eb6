import { ACTIONS, isAction, type Action } from "../vocabulary.js";
import { fail, ok, problem, showFound, type Problem, type Result } from "../problem.js";
import { SIGNAL_LABELS, SIGNAL_NAMES, type SignalName, type Signals } from "../signals.js";
import { hasLineTerminator, isDecor, isSpace, skipDecorThenSpace, skipWhile, stripDecorAndSpace } from "./scan.js";
import type { Candidate, Report } from "./types.js";

/**
 * Reads action reports out of free text. Tolerant of what models do to text
 * (prose around it, fences, bullets, bold labels, CRLF, unquoted or wrapped
 * rationales); strict about meaning (missing, conflicting, non-numeric or
 * unknown values are errors that name what is wrong).
 */

const LABELS = ["action", "utility", "breakdown", "rationale", "candidates"] as const;
type Label = (typeof LABELS)[number];

// Every line and field is read by the scanners below (and ./scan.ts), one pass each, never by a
// backtracking pattern: this text is the model's, and its length is the model's choice.
const FENCE = /^(```|~~~)/;
const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

interface Block {
  fields: Partial<Record<Exclude<Label, "candidates">, string>>;
  candidates?: string[];
  problems: Problem[];
  /** The field a wrapped line continues, if any. */
  open?: "rationale";
}

/** Strips what Markdown and chat put around a line: CR, quote marks `>`, list bullets. */
export function normalizeLine(raw: string): string {
  return raw
    .replace(/\r$/, "")
    .trim()
    .replace(/^(?:>\s*)+/, "")
    .replace(/^(?:[-*+•]|\d+[.)])\s+/, "")
    .trim();
}

const stripDecor = stripDecorAndSpace;

/** ASCII letters compared without case, as the `i` flag does: no other character folds to one. */
function sameLetter(ch: string | undefined, lower: string): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  return ch === lower || (code >= 65 && code <= 90 && String.fromCharCode(code + 32) === lower);
}

function labelAt(line: string, at: number): Label | undefined {
  return LABELS.find((label) => [...label].every((letter, k) => sameLetter(line[at + k], letter)));
}

/**
 * `Label: value` with Markdown decoration around the label and the value
 * (`**Action:** tool_call`, `_Utility_ : 0.28`): the label, and the value
 * with its leading decoration removed. A value holding a line terminator is
 * no report line.
 */
export function labelLine(line: string): { label: Label; value: string } | undefined {
  const start = skipDecorThenSpace(line, 0);
  const label = labelAt(line, start);
  if (!label) return undefined;
  const colon = skipDecorThenSpace(line, skipWhile(line, start + label.length, isSpace));
  if (line[colon] !== ":") return undefined;
  const value = line.slice(skipDecorThenSpace(line, skipWhile(line, colon + 1, isSpace)));
  return hasLineTerminator(value) ? undefined : { label, value };
}

const NAME_FIRST_EXCLUDED = new Set([":", "=", "*", "_", "`"]);
const NAME_EXCLUDED = new Set([":", "=", "*", "`"]);

/**
 * A Candidates row, `- name: Gain=… StepCost=…`: the row's name and the
 * signals after its colon. A row's name starts with any visible character, not
 * only a letter: a row disguised by a leading invisible or look-alike
 * character (U+202E, U+200B…) is an unknown action, never a line to skip.
 * Underscores inside the name stay (tool_call); trailing ones are decoration.
 */
export function candidateRow(line: string): { name: string; rest: string } | undefined {
  const start = skipWhile(line, 0, isDecor);
  const first = line[start];
  if (first === undefined || isSpace(first) || NAME_FIRST_EXCLUDED.has(first)) return undefined;
  const runEnd = skipWhile(line, start + 1, (ch) => !isSpace(ch) && !NAME_EXCLUDED.has(ch!));
  let nameEnd = runEnd;
  while (nameEnd > start + 1 && line[nameEnd - 1] === "_") nameEnd--;
  const colon = skipDecorThenSpace(line, runEnd);
  if (line[colon] !== ":") return undefined;
  const rest = line.slice(skipWhile(line, colon + 1, isSpace));
  if (!rest.includes("=") || hasLineTerminator(rest)) return undefined;
  return { name: line.slice(start, nameEnd), rest };
}

const PAIR_NAME_EXCLUDED = new Set(["=", ",", ";", ":", "|"]);
const PAIR_VALUE_EXCLUDED = new Set([",", ";", "|"]);
const isPairNameChar = (ch: string | undefined) => ch !== undefined && !isSpace(ch) && !PAIR_NAME_EXCLUDED.has(ch);
const isPairValueChar = (ch: string | undefined) => ch !== undefined && !isSpace(ch) && !PAIR_VALUE_EXCLUDED.has(ch);

/**
 * Every `name=value` (or `name: value`) pair in a Breakdown or a row, in one
 * pass. A name that is not followed by `=` or `:` and a value is skipped
 * whole: no later start inside it could match either.
 */
export function signalPairs(text: string): Array<[name: string, raw: string]> {
  const pairs: Array<[string, string]> = [];
  let i = 0;
  while (i < text.length) {
    if (!isPairNameChar(text[i])) {
      i++;
      continue;
    }
    const nameEnd = skipWhile(text, i, isPairNameChar);
    const sign = skipWhile(text, nameEnd, isSpace);
    if (text[sign] === "=" || text[sign] === ":") {
      const valueStart = skipWhile(text, sign + 1, isSpace);
      const valueEnd = skipWhile(text, valueStart, isPairValueChar);
      if (valueEnd > valueStart) {
        pairs.push([text.slice(i, nameEnd), text.slice(valueStart, valueEnd)]);
        i = valueEnd;
        continue;
      }
    }
    i = nameEnd;
  }
  return pairs;
}

/** Parses a number the way a report writes it: a plain decimal, Unicode minus allowed. */
export function parseNumber(field: string, raw: string): Result<number> {
  const text = stripDecor(raw).replace(/\u2212/g, "-");
  if (!PLAIN_DECIMAL.test(text)) {
    return fail(
      problem(
        field,
        showFound(raw),
        "a plain decimal number such as 0.7",
        `${field} is ${showFound(raw)}, which is not a plain decimal number; write it like 0.7.`,
      ),
    );
  }
  const value = Number(text);
  return ok(value === 0 ? 0 : value);
}

function parseAction(raw: string): Result<Action> {
  const text = stripDecor(raw);
  if (isAction(text)) return ok(text);
  const lower = text.toLowerCase();
  const hint = isAction(lower) ? ` (action ids are lower case: ${lower})` : "";
  return fail({
    ...problem(
      "Action",
      showFound(text),
      `one of ${ACTIONS.join(", ")}`,
      `Action ${showFound(text)} is not an action${hint}; use one of ${ACTIONS.join(", ")}.`,
    ),
    kind: "unknown_action",
  });
}

function signalKey(name: string): SignalName | "utility" | undefined {
  const key = name.toLowerCase().replace(/[^a-z]/g, "");
  if (key === "u" || key === "utility") return "utility";
  return SIGNAL_NAMES.find((s) => s.toLowerCase() === key);
}

interface SignalsParse {
  signals: Signals;
  utility?: number;
}

/** Reads `Gain=0.7 StepCost=0.12 …` in any order; `where` names the line in messages. */
export function parseSignals(text: string, where: string, allowUtility: boolean): Result<SignalsParse> {
  const read: SignalsRead = { where, allowUtility, problems: [], values: {} };
  for (const [name, raw] of signalPairs(text)) readSignalPair(read, name!, raw!);
  const { problems, values } = read;
  checkSignalsPresent(read);
  checkSignalsInRange(read);
  if (problems.length > 0) return fail(...problems);
  const signals = { gain: values.gain!, stepCost: values.stepCost!, uncertainty: values.uncertainty!, redundancy: values.redundancy! };
  return ok(values.utility === undefined ? { signals } : { signals, utility: values.utility });
}

/** One parseSignals call's inputs and what it has read so far (one object per call, none per pair). */
interface SignalsRead {
  where: string;
  allowUtility: boolean;
  problems: Problem[];
  values: Partial<Record<SignalName | "utility", number>>;
}

function readSignalPair(read: SignalsRead, name: string, raw: string): void {
  const { where, problems, values } = read;
  const key = signalKey(name);
  if (!key || (key === "utility" && !read.allowUtility)) {
    problems.push(
      problem(
        `${where} ${stripDecor(name)}`,
        showFound(name),
        `only ${SIGNAL_NAMES.map((s) => SIGNAL_LABELS[s]).join(", ")}`,
        `${where} has an unknown field ${showFound(stripDecor(name))}; it takes Gain, StepCost, Uncertainty and Redundancy.`,
      ),
    );
    return;
  }
  const label = key === "utility" ? "U" : SIGNAL_LABELS[key];
  const parsed = parseNumber(`${where} ${label}`, raw);
  if (!parsed.ok) {
    problems.push(...parsed.problems);
    return;
  }
  const previous = values[key];
  if (previous !== undefined && previous !== parsed.value) {
    problems.push(
      problem(
        `${where} ${label}`,
        `${previous} and ${parsed.value}`,
        "one value",
        `${where} gives ${label} twice with different values (${previous} and ${parsed.value}); give it once.`,
      ),
    );
  }
  values[key] = parsed.value;
}

function checkSignalsPresent({ where, problems, values }: SignalsRead): void {
  for (const name of SIGNAL_NAMES) {
    if (values[name] === undefined && !problems.some((p) => p.field === `${where} ${SIGNAL_LABELS[name]}`)) {
      problems.push(
        problem(
          `${where} ${SIGNAL_LABELS[name]}`,
          "nothing",
          "a number in [0, 1]",
          `${where} is missing ${SIGNAL_LABELS[name]}; all four fields are required: Gain=… StepCost=… Uncertainty=… Redundancy=…`,
        ),
      );
    }
  }
}

function checkSignalsInRange({ where, problems, values }: SignalsRead): void {
  for (const name of SIGNAL_NAMES) {
    const value = values[name];
    if (value !== undefined && (value < 0 || value > 1)) {
      problems.push(
        problem(
          `${where} ${SIGNAL_LABELS[name]}`,
          String(value),
          "a number in [0, 1]",
          `${SIGNAL_LABELS[name]} is ${value} in ${where}; every signal must lie in [0, 1].`,
        ),
      );
    }
  }
}

function unquote(text: string): string {
  const t = text.trim();
  const pairs: Array<[string, string]> = [
    ['"', '"'],
    ["\u201c", "\u201d"],
    ["'", "'"],
    ["\u2018", "\u2019"],
  ];
  for (const [open, close] of pairs) {
    if (t.length >= 2 && t.startsWith(open) && t.endsWith(close)) return t.slice(open.length, -close.length).trim();
  }
  return t
    .replace(/^["\u201c]/, "")
    .replace(/["\u201d]$/, "")
    .trim();
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

function parseCandidates(rows: string[]): Result<Candidate[]> {
  const problems: Problem[] = [];
  const candidates: Candidate[] = [];
  for (const row of rows) {
    const { name, rest } = candidateRow(row)!;
    const action = parseAction(name!);
    if (!action.ok) {
      problems.push(...action.problems.map((p) => ({ ...p, field: "Candidates", message: `In Candidates, ${p.message}` })));
      continue;
    }
    if (candidates.some((c) => c.action === action.value)) {
      problems.push(
        problem(
          "Candidates",
          `${action.value} twice`,
          "one row per action",
          `Candidates lists ${action.value} twice; give each action one row.`,
        ),
      );
      continue;
    }
    const signals = parseSignals(rest!, `Candidates row ${action.value}`, true);
    if (!signals.ok) {
      problems.push(...signals.problems);
      continue;
    }
    const { utility, signals: s } = signals.value;
    candidates.push(utility === undefined ? { action: action.value, signals: s } : { action: action.value, signals: s, utility });
  }
  if (rows.length === 0) {
    problems.push(
      problem(
        "Candidates",
        "no rows",
        "one row per candidate action",
        "Candidates has no rows; write one line per action like `- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0`.",
      ),
    );
  }
  return problems.length > 0 ? fail(...problems) : ok(candidates);
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
