import { defineConfig } from "vitest/config";
import { UnloadableFileAsFailedTest } from "./test/support/unloadable-file-reporter.js";

// The unit tests of the pure modules (src/engine, src/transcript): what
// mutation testing runs against each mutant (stryker.config.mjs). No
// end-to-end, hardening or perf test: they start processes and take seconds.
export default defineConfig({
  test: {
    include: ["test/engine/**/*.test.ts", "test/transcript/**/*.test.ts", "test/ingest/**/*.test.ts"],
    // The purity test reads the engine's source text, which Stryker rewrites with its own instrumentation;
    // the ownership test type-checks probes against the sources (seconds, and no mutant changes its verdict).
    exclude: ["test/engine/purity.test.ts", "test/engine/session/ownership.test.ts"],
    pool: "forks",
    // A test file that fails to load counts as a failed test (see the reporter).
    reporters: ["default", new UnloadableFileAsFailedTest()],
  },
});
