/**
 * Issue 34, item 4: the plugin's reason wherever it asks, in every permission
 * mode. With `utility_confirm_above_uncertainty` 0.6 and an Edit whose report
 * says Uncertainty=0.7, Claude Code shows its own edit dialog. What the user
 * sees on screen, per permission mode, in the real TUI (tmux): the dialog
 * holds no hook's reason, so the plugin also gives it as a `systemMessage`,
 * which Claude Code prints under the call once the user has answered.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLUGIN_ROOT } from "../../support/paths.js";
import { text, toolUse } from "../support/scripted-model.js";
import { startClaudeTui, tmuxAvailable } from "../support/tmux.js";
import { activate, id, markerDir, report } from "./support.js";

const SKILL = `---
name: edit-ask
description: Change calc.js when the user asks, deciding each step with the utility framework; unsure changes go to the user.
utility_gated: true
utility_confirm_above_uncertainty: 0.6
---

# Change calc.js (gated, asks when unsure)

Score every step as the utility-scoring skill says.
`;

function skill(): string {
  const dir = join(markerDir(), "edit-ask");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), SKILL);
  return dir;
}

const REASON = "Uncertainty=0.7, at or above 0.6 (utility_confirm_above_uncertainty), so you decide whether it runs";
const flat = (screen: string) => screen.replace(/[│╭╮╰╯─]/g, " ").replace(/\s+/g, " ");
const UNSURE = report("tool_call", "0.10", "Gain=0.6 StepCost=0.15 Uncertainty=0.7 Redundancy=0.0", "Fix the sign in add.");

describe.skipIf(!tmuxAvailable())("asking for an Edit, in each permission mode (issue 34, item 4)", () => {
  it.each(["default", "acceptEdits"])(
    "%s: Claude Code's edit dialog shows the diff only; the plugin's reason is on screen under the call once answered",
    async (mode) => {
      const cwd = mkdtempSync(join(tmpdir(), "ask-mode-"));
      const file = join(cwd, "calc.js");
      writeFileSync(file, "export const add = (a, b) => a - b;\n");
      const tui = await startClaudeTui({
        pluginDir: PLUGIN_ROOT,
        cwd,
        projectSkills: [skill()],
        allowedTools: ["Skill"],
        permissionMode: mode,
        width: 200,
        height: 60,
        script: [
          [activate("edit-ask")],
          [text(UNSURE), toolUse("Edit", { file_path: file, old_string: "a - b", new_string: "a + b" }, id("askedit"))],
          [text("Done.")],
        ],
      });
      try {
        await tui.waitForPrompt();
        await tui.type("fix calc.js");
        await tui.waitFor("Do you want to make this edit to calc.js?");
        const dialog = flat(tui.captureAll());
        // Claude Code 2.1.328's edit dialog: the report the model wrote is above it; the hook's reason is not in it.
        expect(dialog).toContain("Uncertainty=0.7");
        expect(dialog).not.toContain(REASON);
        await tui.keys("Enter"); // 1. Yes
        await tui.waitFor("Done.");
        expect(flat(tui.captureAll())).toContain(`PreToolUse:Edit says: utility: this Edit call's report chose tool_call with ${REASON}`);
        expect(readFileSync(file, "utf8")).toContain("a + b");
      } finally {
        await tui.stop();
      }
      tui.cleanup();
    },
    180_000,
  );
});
