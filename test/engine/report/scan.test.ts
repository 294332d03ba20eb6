/**
 * The one-pass scanners read exactly what the regular expressions they
 * replaced read (those backtracked quadratically on long runs of one
 * character): checked on every BMP character for `\s`, and on random short
 * strings over the characters that matter for each pattern.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { candidateRow, labelLine, signalPairs } from "../../../src/engine/report/lines.js";
import { isSpace, stripDecorAndSpace } from "../../../src/engine/report/scan.js";

const OLD_LABEL_LINE = /^[*_`]*\s*(action|utility|breakdown|rationale|candidates)\s*[*_`]*\s*:\s*[*_`]*\s*(.*)$/i;
const OLD_CANDIDATE_ROW = /^[*_`]*([^\s:=*_`][^\s:=*`]*?)[*_`]*\s*:\s*(.*=.*)$/u;
const OLD_PAIRS = /([^\s=,;:|]+)\s*[=:]\s*([^\s,;|]+)/g;
const oldStrip = (v: string) => v.replace(/^[*_`\s]+|[*_`\s]+$/g, "");

/** Short strings over the characters each pattern cares about. */
const chars = (alphabet: string[]) => fc.array(fc.constantFrom(...alphabet), { maxLength: 14 }).map((a) => a.join(""));
const TRICKY = ["*", "_", "`", " ", "\t", ":", "=", "a", "b", "\u2028", "\u2029", "\r", "\u00a0", ",", ";", "|", "1", "."];
const LABELISH = fc
  .tuple(chars(TRICKY), fc.constantFrom("action", "Utility", "BREAKDOWN", "rationale", "candidates", "actio"), chars(TRICKY))
  .map(([a, l, b]) => a + l + b);

describe("the scanners agree with the patterns they replaced", () => {
  it("isSpace is \\s on every BMP character", () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      if (isSpace(ch) !== /\s/.test(ch)) throw new Error(`U+${c.toString(16)}`);
    }
  });

  it("labelLine", () => {
    fc.assert(
      fc.property(LABELISH, (line) => {
        const m = OLD_LABEL_LINE.exec(line);
        expect(labelLine(line)).toEqual(m ? { label: m[1]!.toLowerCase(), value: m[2] } : undefined);
      }),
      { numRuns: 3000 },
    );
  });

  it("candidateRow", () => {
    fc.assert(
      fc.property(chars(TRICKY), (line) => {
        const m = OLD_CANDIDATE_ROW.exec(line);
        expect(candidateRow(line)).toEqual(m ? { name: m[1], rest: m[2] } : undefined);
      }),
      { numRuns: 5000 },
    );
  });

  it("signalPairs", () => {
    fc.assert(
      fc.property(chars(TRICKY), (text) => {
        expect(signalPairs(text)).toEqual([...text.matchAll(OLD_PAIRS)].map((m) => [m[1], m[2]]));
      }),
      { numRuns: 5000 },
    );
  });

  it("stripDecorAndSpace", () => {
    fc.assert(
      fc.property(chars(TRICKY), (text) => {
        expect(stripDecorAndSpace(text)).toBe(oldStrip(text));
      }),
      { numRuns: 3000 },
    );
  });
});
