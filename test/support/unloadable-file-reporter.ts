import type { Reporter, RunnerTestCase, Vitest } from "vitest/node";

/**
 * Gives a test file that failed to load one failing test of its own. Stryker's
 * vitest runner counts only the tests it finds in the run, so without this a
 * mutant that makes a module throw at import (a zod schema built wrong at load)
 * leaves its test files with no test at all and is scored survived.
 * Used by vitest.unit.config.ts, the config mutation testing runs.
 */
export class UnloadableFileAsFailedTest implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? []) {
      if (file.result?.state !== "fail" || file.tasks.length > 0) continue;
      const test = {
        type: "test",
        id: `${file.id}_loads`,
        name: "the file loads",
        mode: "run",
        meta: {},
        file,
        suite: file,
        timeout: 0,
        annotations: [],
        result: { state: "fail", errors: file.result.errors ?? [] },
      };
      file.tasks.push(test as unknown as RunnerTestCase);
    }
  }
}
