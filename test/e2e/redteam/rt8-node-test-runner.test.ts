/**
 * Red team 8 (class 1): a hook `node --test` (Node's own test runner, a plain "run the tests after an edit"
 * hook) runs every test file it finds in the folder (`**\/*.test.js`, `test/**\/*.js`, …), none named on the
 * line. The reading knows node but takes `--test` for an option and finds no script; the net calls the line
 * plain. `node --test test/` is guarded (a folder named); the bare form is not. Promise (docs/gate.md, SPEC §8):
 * where gated, a Write of a file a command Claude Code runs by itself runs is refused.
 *
 * A known limit (docs/limits.md, "test runners"): a test runner given no file runs the tests it finds, so a
 * gated task that writes a test changes what such a hook runs. Pinned with it.fails: it passes the day the
 * gate guards what a runner finds.
 */
import { describe, it } from "vitest";
import { expectFormKept } from "./rt8-support.js";

describe("rt8 hook form: node --test finds its test files", () => {
  it.fails("a gated Write of test/app.test.js is refused", async () => {
    await expectFormKept({
      name: "node --test",
      hook: "node --test >/dev/null 2>&1; true",
      file: "test/app.test.js",
      original: 'require("node:test")("ok", () => {});\n',
      payload: (m) => `require("node:fs").writeFileSync(${JSON.stringify(m)}, "");\n`,
    });
  });
});
