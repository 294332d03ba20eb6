import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * The files that take longest, started first, in this order (seconds alone on
 * 2 cores, Dec 2026): the ScheduleWakeup that fires a minute or two away (60 to
 * 120, nearly all waiting), the one-truth property (80), the fuzz (40), then the
 * hardening files and the ledger's processes (15 to 30 each). Without its cache
 * (a clean clone, as CI runs) vitest starts larger files first, and these are
 * small: started last, they ended the run alone while the other worker idled.
 * With a cache, vitest's own order (longest first) comes after these.
 */
const LONGEST_FIRST = [
  "test/e2e/gate/wakeup.test.ts",
  "test/replay/equivalence.property.test.ts",
  "test/hardening/fuzz.test.ts",
  "test/hardening/concurrency.test.ts",
  "test/hardening/fail-modes.test.ts",
  "test/hardening/bad-input.test.ts",
  "test/hardening/identifiers.test.ts",
  "test/e2e/gate/background.test.ts",
  "test/state/ledger.test.ts",
  "test/eval/harness.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(relative(file.project.config.root, file.moduleId));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests start real Claude Code sessions; give them room.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // vitest runs one file at a time on 2 cores by default (cores - 1); most files wait on processes (Claude Code,
    // the hooks, the scripted model, a wakeup a minute away), so three at once use 2 cores better: the whole
    // suite took 276 to 280 s with three, 385 s with two, on a quiet machine (docs/development.md).
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
  },
});
