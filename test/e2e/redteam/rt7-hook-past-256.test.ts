/**
 * Red team 7 (class 1): src/engine/hook-commands.ts reads at most 256 hook
 * commands of a settings file (MAX_HOOK_COMMANDS); Claude Code runs them all.
 * A settings file whose first 256 hooks are inert (a matcher no tool has) and
 * whose 257th runs `sh tools/pre-bash` leaves that script unguarded; neither
 * docs/limits.md nor docs/gate.md states this bound. Promise (docs/gate.md):
 * where gated, a Write of a file a command Claude Code runs by itself runs is
 * refused; the hook never runs the model's code.
 */
import { it } from "vitest";
import { expectScriptKept } from "./hook-script-write.js";

const inert = Array.from({ length: 256 }, () => ({ type: "command", command: "true" }));

it("rt7: the 257th hook of a settings file — its script's gated Write is refused", async () => {
  await expectScriptKept({
    name: "257th hook",
    settings: () => ({
      hooks: {
        PostToolUse: [{ matcher: "NoSuchToolEver", hooks: inert }],
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "sh tools/pre-bash" }] }],
      },
    }),
    file: "tools/pre-bash",
  });
});
