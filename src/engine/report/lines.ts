// What a report line looks like: a `Label: value` line, a Candidates row, the
// `name=value` pairs of a Breakdown or a row. Each is read in one pass by the
// scanners here and in ./scan.ts, never by a backtracking pattern: this text
// is the model's, and its length is the model's choice.
import { hasLineTerminator, isDecor, isSpace, skipDecorThenSpace, skipWhile } from "./scan.js";

const LABELS = ["action", "utility", "breakdown", "rationale", "candidates"] as const;
export type Label = (typeof LABELS)[number];

/** Strips what Markdown and chat put around a line: CR, quote marks `>`, list bullets. */
export function normalizeLine(raw: string): string {
  return raw
    .replace(/\r$/, "")
    .trim()
    .replace(/^(?:>\s*)+/, "")
    .replace(/^(?:[-*+•]|\d+[.)])\s+/, "")
    .trim();
}

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
