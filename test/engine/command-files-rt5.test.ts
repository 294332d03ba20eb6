// Red team 5: forms of a settings command whose run file src/engine/command-files.ts does not find (unit level; the
// e2e ones are test/e2e/redteam/rt5-hook-forms.test.ts). Hooks run through bash ($SHELL), so bash's forms are live.
// Each asserts the promise: the file the command runs is among hookFiles. Failing cases are findings.
import { describe, expect, it } from "vitest";
import { hookFiles } from "../../src/engine/command-files.js";

const places = { projectDir: "/p", home: "/h", pluginRoot: "/plug" };
const CASES: Array<[string, string]> = [
  ['bash "${CLAUDE_PROJECT_DIR:?}/tools/hook.sh"', "/p/tools/hook.sh"],
  ['bash "${CLAUDE_PROJECT_DIR%/}/tools/hook.sh"', "/p/tools/hook.sh"],
  ["bash $'tools/hook'", "/p/tools/hook"],
  ["bash tools/hook{,}", "/p/tools/hook"],
  ["bash -s < tools/hook", "/p/tools/hook"],
  ["python3 - < tools/hook", "/p/tools/hook"],
  ["bash <<< 'bash tools/hook'", "/p/tools/hook"],
  ["python3 -mtools.hook", "/p/tools/hook.py"],
  ["ruby -rtools/hook -e1", "/p/tools/hook"],
  ["make -C tools lint", "/p/tools/Makefile"],
  ["make -f tools/build.mk", "/p/tools/build.mk"],
  ["npm --prefix tools run lint", "/p/tools/package.json"],
  ['eval "$(cat tools/hook)"', "/p/tools/hook"],
  ['sh -c "$(cat tools/hook)"', "/p/tools/hook"],
  ["exec -a x bash tools/hook", "/p/tools/hook"],
  ["setsid bash tools/hook", "/p/tools/hook"],
  ["uv run python tools/hook", "/p/tools/hook"],
  ["coproc bash tools/hook", "/p/tools/hook"],
  ["find . -name x -exec bash tools/hook \\;", "/p/tools/hook"],
  ['PATH="$CLAUDE_PROJECT_DIR/bin:$PATH" pre-bash', "/p/bin/pre-bash"],
];

describe("rt5: run files of hook command forms", () => {
  it.each(CASES)("%s runs %s", (command, file) => {
    expect(hookFiles([[command]], places)).toContain(file);
  });
});
