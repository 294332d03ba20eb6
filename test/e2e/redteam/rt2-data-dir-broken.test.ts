/**
 * Red team 2 (class 5): "Ungated scopes must never be blocked by the plugin's
 * own trouble." The plugin's data folder is unusable before the session
 * starts: a regular file where the folder should be, or a link to itself.
 * Promise: an ungated session's calls run, none refused, none waits past the
 * hook's timeout.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { gateRun, id, markerDir, ran, resultFor, touch } from "../gate/support.js";

describe.each(["file", "self-link", "sessions-file"] as const)("the data folder broken (%s)", (how) => {
  it("an ungated session's Bash calls run, none refused", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    const home = makeScratchHome([cwd]);
    const parent = join(home, ".claude", "plugins", "data");
    mkdirSync(parent, { recursive: true });
    const data = join(parent, "utility-inline");
    if (how === "file") writeFileSync(data, "not a folder\n");
    else if (how === "self-link") symlinkSync(data, data);
    else {
      mkdirSync(data);
      writeFileSync(join(data, "sessions"), "not a folder\n");
      writeFileSync(join(data, "state"), "not a folder\n");
    }
    const calls = { a: id("rt2_dd_a"), b: id("rt2_dd_b") };
    const t0 = Date.now();
    const run = await gateRun({
      prompt: "hello",
      cwd,
      home,
      timeoutMs: 90_000,
      script: [[touch(join(marks, "a"), calls.a)], [touch(join(marks, "b"), calls.b)], [text("Done.")]],
    });
    const took = Date.now() - t0;
    try {
      const reqs = run.model.mainRequests();
      console.log(
        how,
        "took",
        took,
        "ms; a:",
        resultFor(reqs, calls.a).text.slice(0, 150),
        "| b:",
        resultFor(reqs, calls.b).text.slice(0, 150),
        "| exit",
        run.exitCode,
        "| stderr",
        run.stderr.slice(0, 200),
      );
      expect(run.result?.permission_denials ?? "no result").toEqual([]);
      expect({ a: ran(join(marks, "a")), b: ran(join(marks, "b")) }).toEqual({ a: true, b: true });
      expect(took).toBeLessThan(30_000);
    } finally {
      run.cleanup();
    }
  });
});
