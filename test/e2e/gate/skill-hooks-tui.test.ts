/**
 * Hooks a skill registered in an earlier, ungated task of the session (issue
 * 31, hole 2, found in the TUI): Claude Code runs them on every later call,
 * calls the gate refuses included, so a later gated task cannot be checked.
 * Its calls are refused with that reason, on screen, instead of seeming to hold.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE_SKILL, PLUGIN_ROOT } from "../../support/paths.js";
import { text, toolUse } from "../support/scripted-model.js";
import { startClaudeTui, tmuxAvailable } from "../support/tmux.js";
import { hookSkill } from "./skill-fixtures.js";
import { activate, markerDir, ok, ran, touch } from "./support.js";

describe.skipIf(!tmuxAvailable())("hooks registered before the gate", () => {
  it("refuse every checked call of a later gated task, saying why", async () => {
    const marks = markerDir();
    const tui = await startClaudeTui({
      pluginDir: PLUGIN_ROOT,
      projectSkills: [EXAMPLE_SKILL, hookSkill(join(marks, "hook-ran"))],
      allowedTools: ["Bash", "Skill", "Read"],
      script: [
        [toolUse("Skill", { skill: "hooky" })],
        [text("Helper loaded.")],
        [activate()],
        [text(ok("verify", "Run the test.")), touch(join(marks, "bash-ran"))],
        [text("Gated task over.")],
      ],
    });
    try {
      await tui.waitForPrompt();
      await tui.type("load the helper");
      await tui.waitFor("Helper loaded.");
      await tui.waitForPrompt();
      await tui.type("why does test_parse fail?");
      const screen = (await tui.waitFor("Gated task over.")).replace(/\s+/g, " ");
      expect(tui.captureAll().replace(/\s+/g, " ")).toContain("a skill loaded earlier in this session registered the hooks in");
      expect(screen).toContain("Gated task over.");
      expect(ran(join(marks, "bash-ran"))).toBe(false);
      // What the gate cannot prevent (README, Known limits): Claude Code ran the hook for the refused call all the same.
      expect(ran(join(marks, "hook-ran"))).toBe(true);
    } finally {
      await tui.stop();
    }
    tui.cleanup();
  });
});
