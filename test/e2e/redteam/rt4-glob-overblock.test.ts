/**
 * Red team 4 (over-blocking, medium): after 9bb84b3, src/engine/hook-commands.ts
 * guards any word on a hook line with a script's extension, and "a glob guards
 * the folder it lists". An ordinary formatter / linter hook names a source glob
 * (`npx prettier --write 'src/**\/*.ts'`, `ruff check src/*.py`): the whole src
 * folder becomes guarded. Promise (docs/gate.md: "A folder a formatter or
 * linter only reads (`eslint src/`) is not guarded"; rt3-hook-overblock): a
 * gated, reported Write of an ordinary source file is let through; ungated is
 * only observed. Also a test-runner hook naming one test file (any word with a
 * script extension on a hook line is guarded). Fixed: a glob guards its folder only where it runs (`sh tools/*.sh`).
 * The test file stays guarded where gated, by choice: pytest imports it, so writing it changes what the hook runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, markerDir, ok, recordOf } from "../gate/support.js";

const FORMS = [
  {
    name: "prettier --write 'src/**/*.ts'",
    command: "npx prettier --write 'src/**/*.ts' 2>/dev/null || true",
    file: "src/app.ts",
    runs: false,
  },
  { name: "ruff check src/*.py", command: "ruff check --fix src/*.py 2>/dev/null || true", file: "src/app.py", runs: false },
  {
    name: "test runner naming one test file: pytest -q tests/test_app.py",
    command: "pytest -q tests/test_app.py 2>/dev/null || true",
    file: "tests/test_app.py",
    runs: true,
  },
];

describe.each(FORMS)("PostToolUse hook: $name", ({ command, file, runs }) => {
  it.each(["gated", "ungated"])("%s: a reported Write of the file is let through unless the hook runs it where gated", async (mode) => {
    const cwd = markerDir();
    const home = makeScratchHome([cwd]);
    mkdirSync(dirname(join(cwd, file)), { recursive: true });
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    const target = join(cwd, file);
    writeFileSync(target, "a = 1\n");
    writeFileSync(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command }] }] } }),
    );
    const call = id("rt4_globover");
    const write = toolUse("Write", { file_path: target, content: "a = 2\n" }, call);
    const run = await gateRun({
      prompt: "bump the constant",
      cwd,
      home,
      timeoutMs: 90_000,
      allowedTools: ["Bash", "Read", "Skill", "Write"],
      script:
        mode === "gated"
          ? [
              [activate()],
              [text(ok("retrieve", "Read it.")), toolUse("Read", { file_path: target })],
              [text(ok("tool_call", "Bump it.")), write],
              [text("Done.")],
            ]
          : [[write], [text("Done.")]],
    });
    try {
      const rec = recordOf(run, call);
      console.log(`[${command}] ${mode} write:`, rec.decision, rec.rule, (rec.reason ?? "").slice(0, 240));
      const refused = mode === "gated" && runs;
      expect({ decision: rec.decision, content: readFileSync(target, "utf8") }).toEqual({
        decision: refused ? "refused" : mode === "gated" ? "passed" : "observed",
        content: refused ? "a = 1\n" : "a = 2\n",
      });
    } finally {
      run.cleanup();
    }
  });
});
