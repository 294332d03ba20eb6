// node:crypto's SHA-256 for replay's call digests (the CLI's bundle; the warm
// hook server gets the same hash on demand: ./on-demand-sha256.ts). The engine
// hashes in plain JavaScript (src/engine/sha256.ts: a hook process saves
// loading node:crypto); replay hashes thousands of inputs, some whole files,
// where native hashing is several times faster. Same digests:
// test/hash/node-sha256.test.ts.
import { createHash } from "node:crypto";
import type { Sha256Hex } from "../engine/redundancy.js";

export const nodeSha256Hex: Sha256Hex = (text) => createHash("sha256").update(text, "utf8").digest("hex");
