/**
 * Red team 7 (class 1): settings hook lines whose script reaches a shell on
 * its standard input by a way src/engine/command-files.ts does not follow: a
 * feeder that reads the file through its own `<`, a pipe of two stages, `exec
 * <` for the rest of the line, a redirection of a group or of a `-c` shell,
 * `.` of /dev/stdin, a duplicated descriptor, `$(cat < x)`.
 * Promise (docs/gate.md): where gated, a Write of a file a command Claude Code
 * runs by itself runs is refused; the hook never runs the model's code.
 */
import { describe, it } from "vitest";
import { bashHook as hook, expectScriptKept, type HookScriptForm } from "./hook-script-write.js";

const ORIGINAL = "exit 0\n";
const payload = (m: string) => `touch ${m}\nexit 0\n`;
const form = (name: string, command: string): HookScriptForm => ({
  name,
  settings: () => hook(command),
  file: "tools/pre-bash",
  original: ORIGINAL,
  payload,
});

const FORMS: HookScriptForm[] = [
  form("the feeder's own < — cat < tools/pre-bash | sh", "cat < tools/pre-bash | sh"),
  form("two pipe stages — cat tools/pre-bash | cat | sh", "cat tools/pre-bash | cat | sh"),
  form("exec < for the rest of the line — exec < tools/pre-bash; sh", "exec < tools/pre-bash; sh"),
  form("a -c shell redirected — sh -c sh < tools/pre-bash", "sh -c sh < tools/pre-bash"),
  form("a group redirected — { sh; } < tools/pre-bash", "{ sh; } < tools/pre-bash"),
  form(". of /dev/stdin — . /dev/stdin < tools/pre-bash", ". /dev/stdin < tools/pre-bash"),
  form("a duplicated descriptor — sh 3<tools/pre-bash 0<&3", "sh 3<tools/pre-bash 0<&3"),
  form('a substitution of a redirected cat — sh -c "$(cat < tools/pre-bash)"', 'sh -c "$(cat < tools/pre-bash)"'),
];

describe.each(FORMS)("rt7 hook form: $name", (f) => {
  it("a gated Write of the file it runs is refused", async () => {
    await expectScriptKept(f);
  });
});
