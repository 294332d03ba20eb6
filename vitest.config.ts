import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests start real Claude Code sessions; give them room.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // vitest runs one file at a time on 2 cores by default (cores - 1); most files wait on processes (Claude Code,
    // the hooks, the scripted model), so two at once use the machine better.
    maxWorkers: 2,
  },
});
