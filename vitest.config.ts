import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests start real Claude Code sessions; give them room.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
