// node:crypto's SHA-256 for the warm hook server, without a static import:
// the server runs the same bundle every hook process loads, which must not
// load node:crypto at start-up (test/perf/bundle-shape.test.ts). Node 20.16
// and later hand a built-in module over on demand; an older Node gets
// undefined, and the engine's own SHA-256 is used (the same digests:
// test/hash/node-sha256.test.ts).
import type { Hash } from "node:crypto";
import type { Sha256Hex } from "../engine/redundancy.js";

type Crypto = { createHash(algorithm: string): Hash };

export function onDemandSha256(): Sha256Hex | undefined {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const crypto = getBuiltin?.("node:crypto") as Crypto | undefined;
  return crypto ? (text) => crypto.createHash("sha256").update(text, "utf8").digest("hex") : undefined;
}
