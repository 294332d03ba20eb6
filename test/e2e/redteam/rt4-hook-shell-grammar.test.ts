/**
 * Red team 4 (class 3), shell grammar: src/engine/hook-commands.ts after 9bb84b3 reads a
 * hook's command "as sh reads it" and claims (docs/gate.md) "a shell's or an
 * interpreter's script with or without an extension". Ordinary forms it
 * misses: reserved words and grouping (`if … then`, `{ …; }`, `!`) put before
 * the command, and a `cd` inside a `( … )` subshell taken as moving the rest. Promise: a gated Write of the
 * file the hook runs is refused, the file kept, the hook never runs model code.
 */
import { describe, it } from "vitest";
import { bashHook, expectScriptKept } from "./hook-script-write.js";

const sh = (m: string) => `#!/bin/sh\ncat >/dev/null\ntouch ${m}\nexit 0\n`;
const FORMS = [
  { name: "if … then sh tools/pre-bash; fi", command: "if true; then sh tools/pre-bash; fi", file: "tools/pre-bash", payload: sh },
  { name: "group { sh tools/pre-bash; }", command: "{ sh tools/pre-bash; }", file: "tools/pre-bash", payload: sh },
  { name: "negated ! sh tools/pre-bash", command: "! sh tools/pre-bash; true", file: "tools/pre-bash", payload: sh },
  {
    name: "a subshell's cd leaks: (cd tools && true); sh pre-bash",
    command: "mkdir -p tools; (cd tools && true); sh pre-bash",
    file: "pre-bash",
    payload: sh,
  },
];

describe.each(FORMS)("a hook command in the form: $name", ({ name, command, file, payload }) => {
  it("a gated Write of the file it runs is refused", async () => {
    await expectScriptKept({ name, settings: () => bashHook(command), file, payload });
  });
});
