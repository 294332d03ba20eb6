import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The project's shared folder, beside the clone (as in CI). */
export const SHARED = resolve(ROOT, "..", "shared");
export const SEEDS = join(SHARED, "seeds");
export const TRANSCRIPTS = join(SHARED, "fixtures", "transcripts");
