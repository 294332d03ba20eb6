// The warm server's SHA-256 (src/hash/on-demand-sha256.ts): node:crypto's,
// fetched when the server starts, never imported by the bundle; the engine's
// own digests; nothing on a Node too old to hand the module over.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/engine/sha256.js";
import { onDemandSha256 } from "../../src/hash/on-demand-sha256.js";

const original = Object.getOwnPropertyDescriptor(process, "getBuiltinModule");
afterEach(() => {
  if (original) Object.defineProperty(process, "getBuiltinModule", original);
});

describe("onDemandSha256", () => {
  it("gives the engine's SHA-256 of any string", () => {
    const hash = onDemandSha256();
    expect(hash).toBeDefined();
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => hash!(text) === sha256Hex(text)));
    expect(hash!("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("is undefined where Node cannot hand the module over (before 20.16), so the engine's own is used", () => {
    Object.defineProperty(process, "getBuiltinModule", { value: undefined, configurable: true, writable: true });
    expect(onDemandSha256()).toBeUndefined();
  });
});
