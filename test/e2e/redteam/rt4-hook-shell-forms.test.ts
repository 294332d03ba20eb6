/**
 * Red team 4 (class 3): src/engine/hook-commands.ts after 9bb84b3 reads a
 * hook's command "as sh reads it" and claims (docs/gate.md) "a shell's or an
 * interpreter's script with or without an extension". Ordinary forms it
 * misses: a shell named by its absolute path, `/usr/bin/env bash`, a script
 * piped into sh, a shell option taking a value. Promise: a gated Write of the
 * file the hook runs is refused, the file kept, the hook never runs model code.
 */
import { describe, it } from "vitest";
import { bashHook, expectScriptKept } from "./hook-script-write.js";

const sh = (m: string) => `#!/bin/sh\ncat >/dev/null\ntouch ${m}\nexit 0\n`;
const FORMS = [
  { name: "absolute shell path: /bin/sh tools/pre-bash", command: "/bin/sh tools/pre-bash", file: "tools/pre-bash", payload: sh },
  { name: "/usr/bin/env bash tools/pre-bash", command: "/usr/bin/env bash tools/pre-bash", file: "tools/pre-bash", payload: sh },
  { name: "piped into sh: cat tools/pre-bash | sh", command: "cat tools/pre-bash | sh", file: "tools/pre-bash", payload: sh },
  {
    name: "shell option with a value: bash -o pipefail tools/pre-bash",
    command: "bash -o pipefail tools/pre-bash",
    file: "tools/pre-bash",
    payload: sh,
  },
];

describe.each(FORMS)("a hook command in the form: $name", ({ name, command, file, payload }) => {
  it("a gated Write of the file it runs is refused", async () => {
    await expectScriptKept({ name, settings: () => bashHook(command), file, payload });
  });
});
