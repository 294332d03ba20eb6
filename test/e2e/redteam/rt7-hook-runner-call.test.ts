/**
 * Red team 7 (class 1, the runners read since 17db7d6): npm's own `exec`
 * (what npx is) and the `-c`/`--call` string of npx and npm exec, which runs
 * a command line in a shell with no package to fetch. command-files.ts reads
 * `npx -c 'sh x'` as one path named "sh x", and `npm exec` only as a manifest.
 * Promise (docs/gate.md: "the command its `run` runs (`npx tsx x`)"): where
 * gated, a Write of a file a command Claude Code runs by itself runs is
 * refused; the hook never runs the model's code.
 */
import { describe, it } from "vitest";
import { bashHook as hook, expectScriptKept, type HookScriptForm } from "./hook-script-write.js";

const form = (name: string, command: string): HookScriptForm => ({ name, settings: () => hook(command), file: "tools/pre-bash" });

const FORMS: HookScriptForm[] = [
  form("npx -c 'sh tools/pre-bash'", "npx -c 'sh tools/pre-bash'"),
  form("npx --call='sh tools/pre-bash'", "npx --call='sh tools/pre-bash'"),
  form("npm exec -c 'sh tools/pre-bash'", "npm exec -c 'sh tools/pre-bash'"),
  form("npm exec -- sh tools/pre-bash", "npm exec -- sh tools/pre-bash"),
];

describe.each(FORMS)("rt7 runner form: $name", (f) => {
  it("a gated Write of the file it runs is refused", async () => {
    await expectScriptKept(f);
  });
});
