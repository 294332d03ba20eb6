/**
 * Red team 8 (class 1): a module named as a program resolves it, not as written. `node -r ./tools/hook` and
 * `require('./tools/hook')` load tools/hook.js (Node tries .js, .json, .node, /index.js); Python's `import
 * hookcheck` in `-c` code loads hookcheck.py. The reading (`--require`'s value) and the net (the word part
 * `./tools/hook`, the bare `hookcheck`) guard the name as written, a file that does not exist, and not the file
 * loaded. rt7-hook-env-forms wrote `require('./tools/pre.js')`, with its extension. Promise (docs/gate.md "what
 * `--require` makes Node load"; SPEC §8): where gated, a Write of a file a command Claude Code runs by itself
 * runs is refused; the hook never runs the model's code.
 */
import { describe, it } from "vitest";
import { expectFormKept, type Rt8Form } from "./rt8-support.js";

const js = { original: "// nothing\n", payload: (m: string) => `require("node:fs").writeFileSync(${JSON.stringify(m)}, "");\n` };
const py = {
  original: "def main():\n    pass\n",
  payload: (m: string) => `import pathlib\npathlib.Path(${JSON.stringify(m)}).touch()\ndef main():\n    pass\n`,
};

const FORMS: Rt8Form[] = [
  {
    name: "node -r ./tools/hook tools/main.js",
    hook: "node -r ./tools/hook tools/main.js",
    file: "tools/hook.js",
    files: { "tools/main.js": "" },
    ...js,
  },
  {
    name: "node -e \"require('./tools/hook')\"",
    hook: "cat >/dev/null; node -e \"require('./tools/hook')\"",
    file: "tools/hook.js",
    ...js,
  },
  {
    name: 'python3 -c "import hookcheck; hookcheck.main()"',
    hook: 'python3 -c "import hookcheck; hookcheck.main()"',
    file: "hookcheck.py",
    ...py,
  },
];

describe.each(FORMS)("rt8 module resolution: $name", (f) => {
  it("a gated Write of the file it loads is refused", async () => {
    await expectFormKept(f);
  });
});
