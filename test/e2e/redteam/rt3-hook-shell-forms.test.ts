/**
 * Red team 3 (class 3): the fix in src/engine/hook-commands.ts reads a hook's
 * command "as a shell would". Other ordinary shell forms that name the script
 * a settings hook runs. Promise (docs/gate.md "Targets, not tool names"): a
 * gated Write of the file the hook runs is refused, the file is kept, and
 * the hook never runs model-written code.
 */
import { describe, it } from "vitest";
import { bashHook, expectScriptKept } from "./hook-script-write.js";

const sh = (m: string) => `#!/bin/sh\ncat >/dev/null\ntouch ${m}\nexit 0\n`;
const FORMS = [
  { name: "control: env-prefixed FOO=1 sh tools/x.sh", command: "FOO=1 sh tools/pre-bash.sh", file: "tools/pre-bash.sh", payload: sh },
  { name: "control: exec sh tools/x.sh", command: "exec sh tools/pre-bash.sh", file: "tools/pre-bash.sh", payload: sh },
  { name: "control: echo tools/x.sh | xargs sh", command: "echo tools/pre-bash.sh | xargs sh", file: "tools/pre-bash.sh", payload: sh },
  { name: "control: source tools/x.sh", command: "bash -c true; . tools/pre-bash.sh", file: "tools/pre-bash.sh", payload: sh },
  { name: "env -C tools sh x.sh", command: "env -C tools sh pre-bash.sh", file: "tools/pre-bash.sh", payload: sh },
  { name: "bash -c 'sh tools/x.sh'", command: "bash -c 'sh tools/pre-bash.sh'", file: "tools/pre-bash.sh", payload: sh },
  { name: "pushd tools && sh x.sh", command: "pushd tools >/dev/null && sh pre-bash.sh", file: "tools/pre-bash.sh", payload: sh },
  { name: "cd -P tools && sh x.sh", command: "cd -P tools && sh pre-bash.sh", file: "tools/pre-bash.sh", payload: sh },
  {
    name: "${CLAUDE_PROJECT_DIR:-.}/tools/x.sh",
    command: "sh ${CLAUDE_PROJECT_DIR:-.}/tools/pre-bash.sh",
    file: "tools/pre-bash.sh",
    payload: sh,
  },
  { name: "$PWD/tools/x.sh", command: "sh $PWD/tools/pre-bash.sh", file: "tools/pre-bash.sh", payload: sh },
  { name: "glob sh tools/pre-b*.sh", command: "sh tools/pre-b*.sh", file: "tools/pre-bash.sh", payload: sh },
  { name: "script without extension in the project root", command: "sh pre-bash", file: "pre-bash", payload: sh },
  { name: "source/dot a script without extension", command: ". ./hooklib && true", file: "hooklib", payload: sh },
  {
    name: "python3 -m tools.prebash",
    command: "python3 -m tools.prebash",
    file: "tools/prebash.py",
    payload: (m: string) => `import sys\nsys.stdin.read()\nopen(${JSON.stringify(m)}, "w").close()\n`,
  },
  {
    name: "node --run pre-bash (package.json)",
    command: "node --run pre-bash",
    file: "package.json",
    payload: (m: string) => JSON.stringify({ name: "p", private: true, scripts: { "pre-bash": `touch ${m}` } }, null, 2),
  },
  {
    name: "uv run / poetry run (pyproject.toml scripts)",
    command: "poetry run pre-bash",
    file: "pyproject.toml",
    payload: (m: string) => `[tool.poetry.scripts]\npre-bash = "os:system"\n# ${m}\n`,
  },
  {
    name: "deno task pre-bash (deno.json)",
    command: "deno task pre-bash",
    file: "deno.json",
    payload: (m: string) => JSON.stringify({ tasks: { "pre-bash": `touch ${m}` } }),
  },
];

describe.each(FORMS)("a hook command in the form: $name", ({ name, command, file, payload }) => {
  it("a gated Write of the file it runs is refused", async () => {
    await expectScriptKept({ name, settings: () => bashHook(command), file, payload });
  });
});
