/**
 * Red team 8 (class 5, held): a project settings file over 1 MiB (a long `permissions.allow` list that
 * `settings.local.json` collects) makes the gate refuse every gated call naming a path (pass 7's change,
 * docs/limits.md). Promise (SPEC §6): an ungated scope is never blocked by the plugin: with no gated skill
 * loaded, a Write passes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { expectPassed, gateRun, id, markerDir } from "../gate/support.js";

it("rt8: with a settings.local.json over 1 MiB, an ungated Write passes", async () => {
  const cwd = markerDir();
  const home = makeScratchHome([cwd]);
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  const allow = Array.from({ length: 40_000 }, (_, i) => `Bash(echo step-${i}-${"x".repeat(10)})`);
  const body = JSON.stringify({ permissions: { allow } });
  if (body.length <= 1024 * 1024) throw new Error("fixture too small");
  writeFileSync(join(cwd, ".claude", "settings.local.json"), body);
  const call = id("rt8_big_write");
  const run = await gateRun({
    prompt: "write the notes",
    cwd,
    home,
    timeoutMs: 90_000,
    allowedTools: ["Bash", "Read", "Write"],
    script: [[toolUse("Write", { file_path: join(cwd, "notes.txt"), content: "hi\n" }, call)], [text("Done.")]],
  });
  try {
    expectPassed(run, call, "observed");
  } finally {
    run.cleanup();
  }
});
