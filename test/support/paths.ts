import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The plugin itself: what the marketplace entry points at and Claude Code copies into its cache. */
export const PLUGIN_ROOT = join(ROOT, "plugin");
/** The tests' own fixtures (everything a test reads lives in the repository). */
export const FIXTURES = join(ROOT, "test", "fixtures");
/** Real Claude Code transcripts, with their sources and licences in SOURCES.tsv beside them. */
export const TRANSCRIPTS = join(FIXTURES, "transcripts");
/** The gated example skill: shipped for skill authors to copy, never loaded by the plugin itself. */
export const EXAMPLE_SKILL = join(ROOT, "examples", "skills", "gated-example");
