// The hooks hash tool inputs in plain JavaScript (loading node:crypto costs
// ~3 ms of every start, SPEC §11); the digests must stay those of node:crypto,
// or states and logs written before would no longer match.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/engine/redundancy.js";
import { inputDigest } from "../../src/engine/redundancy.js";
import { sha256Hex } from "../../src/engine/sha256.js";

const reference = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

describe("sha256Hex", () => {
  it("equals node:crypto at every padding boundary", () => {
    for (let n = 0; n <= 200; n++) {
      const text = "a".repeat(n);
      expect(sha256Hex(text), `length ${n}`).toBe(reference(text));
    }
  });

  it("hashes strings as UTF-8, and bytes as given", () => {
    for (const text of ["é", "日本語のテキスト", "emoji 🧪 and \u0000 nul", "x".repeat(100_000) + "ß"])
      expect(sha256Hex(text)).toBe(reference(text));
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) & 0xff);
    expect(sha256Hex(bytes)).toBe(reference(bytes));
  });

  it("gives the input digest the hooks always gave", () => {
    const input = { command: "npm test -- --run parser", description: "run it", nested: { b: [1, 2], a: "ü" } };
    expect(inputDigest(input)).toBe(reference(canonicalJson(input)).slice(0, 32));
  });
});
