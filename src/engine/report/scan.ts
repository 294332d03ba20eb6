/**
 * Character-level scanning for the report parser. Every function here walks
 * its input once, left to right, with no backtracking: the parser reads the
 * model's own text, and a regular expression with overlapping quantifiers
 * (`\s*[*_`]*\s*:`, a lazy name before a run that can also take its
 * characters, a trim anchored at `$`) backtracks quadratically on a long run
 * of one character, which kept the gate busy past Claude Code's timeout.
 */

const SPACE = /\s/;

/** JavaScript's `\s`: spaces, tabs, line and paragraph separators, NBSP and the other Unicode spaces. */
export function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && SPACE.test(ch);
}

/** The Markdown decoration a label or value may wear: bold, italics, code ticks. */
export function isDecor(ch: string | undefined): boolean {
  return ch === "*" || ch === "_" || ch === "`";
}

/** What `.` in a regular expression refuses: a line with one of these in it is not one report line. */
export function isLineTerminator(ch: string | undefined): boolean {
  return ch === "\n" || ch === "\r" || ch === "\u2028" || ch === "\u2029";
}

export function hasLineTerminator(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isLineTerminator(text[i])) return true;
  return false;
}

/** The first index at or after `from` whose character fails `test`. */
export function skipWhile(text: string, from: number, test: (ch: string | undefined) => boolean): number {
  let i = from;
  while (i < text.length && test(text[i])) i++;
  return i;
}

/** `[*_`\s]*` at both ends removed. */
export function stripDecorAndSpace(text: string): string {
  const keep = (ch: string | undefined) => isDecor(ch) || isSpace(ch);
  const start = skipWhile(text, 0, keep);
  let end = text.length;
  while (end > start && keep(text[end - 1])) end--;
  return text.slice(start, end);
}

/** `[*_`]*\s*` from `from`: where decoration and the spaces after it end. */
export function skipDecorThenSpace(text: string, from: number): number {
  return skipWhile(text, skipWhile(text, from, isDecor), isSpace);
}
