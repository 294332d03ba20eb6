// Mutation testing of the pure modules: `npm run mutation` (scripts/mutation.mjs
// runs Stryker with this config, then prints the score per area).
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.unit.config.ts" },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: ["src/engine/**/*.ts", "src/transcript/**/*.ts", "src/ingest/**/*.ts"],
  // The machine is small and shared.
  concurrency: 2,
  // Reuses the results of mutants whose code and covering tests did not change.
  incremental: true,
  incrementalFile: ".tmp/stryker-incremental.json",
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: ".tmp/mutation/mutation.json" },
  ignorePatterns: ["dist", "bench", "docs", ".tmp", "coverage"],
  tempDirName: ".tmp/stryker",
  cleanTempDir: "always",
  timeoutMS: 10_000,
};
