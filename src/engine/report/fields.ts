// The values of a report's fields: a number, an action, the four signals of a
// Breakdown or a Candidates row, the Candidates table, a quoted Rationale.
// Strict about meaning: a missing, conflicting, non-numeric or unknown value
// is a problem that names what is wrong.
import { ACTIONS, isAction, type Action } from "../vocabulary.js";
import { fail, ok, problem, showFound, type Problem, type Result } from "../problem.js";
import { SIGNAL_LABELS, SIGNAL_NAMES, type SignalName, type Signals } from "../signals.js";
import { candidateRow, signalPairs } from "./lines.js";
import { stripDecorAndSpace as stripDecor } from "./scan.js";
import type { Candidate } from "./types.js";

const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

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

export function parseAction(raw: string): Result<Action> {
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

export function unquote(text: string): string {
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

export function parseCandidates(rows: string[]): Result<Candidate[]> {
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
