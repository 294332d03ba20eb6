/**
 * Red team 7 (class 1): a hook line that prints a script with a program the
 * reader's list of printers (cat, head, tail, sed, awk, tac, …) does not hold,
 * and runs what it printed: `grep '' x` or `dd if=x` in a `-c` string's
 * substitution, and `dd if=x | sh` (the feeder's file is in its `if=`).
 * Promise (docs/gate.md: "what a command substitution prints (`eval "$(cat
 * x)"`)", "what a pipe … feeds a shell"): where gated, a Write of that file is
 * refused; the hook never runs the model's code.
 */
import { describe, it } from "vitest";
import { bashHook as hook, expectScriptKept, type HookScriptForm } from "./hook-script-write.js";

const form = (command: string): HookScriptForm => ({
  name: command,
  settings: () => hook(command),
  file: "tools/pre-bash",
  original: "exit 0\n",
  payload: (m) => `touch ${m}\nexit 0\n`,
});

const FORMS: HookScriptForm[] = [
  form(`sh -c "$(grep '' tools/pre-bash)"`),
  form(`sh -c "$(dd if=tools/pre-bash 2>/dev/null)"`),
  form(`dd if=tools/pre-bash 2>/dev/null | sh`),
];

describe.each(FORMS)("rt7 hook form: $name", (f) => {
  it("a gated Write of the file it runs is refused", async () => {
    await expectScriptKept(f);
  });
});
