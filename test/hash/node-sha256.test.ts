// Replay and the warm server hash call inputs with node:crypto (src/hash/node-sha256.ts); the
// hook processes with the engine's own SHA-256. The digests must be the same, or a
// replay would find other repeats than the hooks recorded.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inputDigest } from "../../src/engine/redundancy.js";
import { sha256Hex } from "../../src/engine/sha256.js";
import { nodeSha256Hex } from "../../src/hash/node-sha256.js";

describe("nodeSha256Hex", () => {
  it("gives the engine's SHA-256 of any string, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), fc.string()), (text) => {
        expect(nodeSha256Hex(text)).toBe(sha256Hex(text));
      }),
      { numRuns: 2000 },
    );
    for (const text of ["", "\ud800", "a\udfffb", "x".repeat(1 << 20)]) expect(nodeSha256Hex(text)).toBe(sha256Hex(text));
  });

  it("gives the same input digests", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        expect(inputDigest(input, nodeSha256Hex)).toBe(inputDigest(input));
      }),
      { numRuns: 1000 },
    );
  });
});
