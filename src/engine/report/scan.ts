/**
 * Character-level scanning for the report parser. Every function here walks
 * its input once, left to right, with no backtracking: the parser reads the
 * model's own text, and a regular expression with overlapping quantifiers
 * (`\s*[*_`]*\s*:`, a lazy name before a run that can also take its
 * characters, a trim anchored at `$`) backtracks quadratically on a long run
 * of one character, which kept the gate busy past Claude Code's timeout.
 */

/** JavaScript's `\s` beyond ASCII: NBSP, Ogham, the U+2000 spaces, line and paragraph separators, BOM… */
const UNICODE_SPACES = new Set([0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);

/** JavaScript's `\s` (tab, LF, VT, FF, CR, space and the Unicode spaces), by code, with no pattern per character. */
export function isSpace(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return (code >= 0x2000 && code <= 0x200a) || UNICODE_SPACES.has(code);
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
