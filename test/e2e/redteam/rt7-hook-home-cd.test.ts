/**
 * Red team 7 (class 1): the reader takes `$HOME` and `~` as the user's home
 * whatever the line set HOME to, and after `cd -` it stays where the previous
 * `cd` went. The shell goes back, or takes the HOME the line set. (`HOME=tools;
 * cd; sh pre-bash` held: a relative script is guarded at every path ending
 * so.) Neither form is in docs/limits.md (it concedes other variables, a
 * failed `cd` and `popd`). Promise
 * (docs/gate.md: `$HOME` and `~` are read): where gated, a Write of the file a
 * hook runs is refused; the hook never runs the model's code.
 */
import { describe, it } from "vitest";
import { bashHook as hook, expectScriptKept, type HookScriptForm } from "./hook-script-write.js";

const form = (command: string): HookScriptForm => ({ name: command, settings: () => hook(command), file: "tools/pre-bash" });

const FORMS: HookScriptForm[] = [
  form("cd /tmp; cd - >/dev/null; sh tools/pre-bash"),
  form("HOME=tools; sh ~/pre-bash"),
  form('HOME=tools; sh "$HOME/pre-bash"'),
];

describe.each(FORMS)("rt7 hook form: $name", (f) => {
  it("a gated Write of the file it runs is refused", async () => {
    await expectScriptKept(f);
  });
});
