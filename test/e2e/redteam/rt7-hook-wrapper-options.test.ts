/**
 * Red team 7 (class 1): wrappers docs/gate.md says are read (`env -S`,
 * `timeout`, `nice`, `stdbuf`, `taskset`, `chrt`, `xargs`), spelled with an
 * option value the reader does not skip, or (`env -S`) with quotes inside the
 * split string, which env honours and the reader keeps as part of the word.
 * Promise (docs/gate.md): where gated, a Write of a file a command Claude Code
 * runs by itself runs is refused; the hook never runs the model's code.
 */
import { describe, it } from "vitest";
import { bashHook as hook, expectScriptKept, type HookScriptForm } from "./hook-script-write.js";

const form = (command: string): HookScriptForm => ({ name: command, settings: () => hook(command), file: "tools/pre-bash" });

const FORMS: HookScriptForm[] = [
  form(`env -S 'sh "tools/pre-bash"'`),
  form(`timeout --signal KILL 5 sh tools/pre-bash`),
  form(`nice --adjustment 5 sh tools/pre-bash`),
  form(`stdbuf -o 0 sh tools/pre-bash`),
  form(`taskset 1 sh tools/pre-bash`),
  form(`chrt -o 0 sh tools/pre-bash`),
  form(`xargs -E x sh tools/pre-bash`),
];

describe.each(FORMS)("rt7 wrapper form: $name", (f) => {
  it("a gated Write of the file it runs is refused", async () => {
    await expectScriptKept(f);
  });
});
