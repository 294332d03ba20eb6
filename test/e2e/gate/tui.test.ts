/**
 * The gate in the interactive terminal UI (tmux): the gated example is
 * activated, a call with no report is refused, the refusal is on screen, and
 * the command did not run.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE_SKILL, PLUGIN_ROOT } from "../../support/paths.js";
import { lastToolResults, text } from "../support/scripted-model.js";
import { startClaudeTui, tmuxAvailable } from "../support/tmux.js";
import { activate, id, markerDir, ran, touch } from "./support.js";

describe.skipIf(!tmuxAvailable())("the gate in the TUI", () => {
  it("shows the refusal on screen and the tool does not run", async () => {
    const marks = markerDir();
    const call = id("tui");
    const tui = await startClaudeTui({
      pluginDir: PLUGIN_ROOT,
      projectSkills: [EXAMPLE_SKILL],
      allowedTools: ["Bash", "Skill"],
      script: [[activate()], [text("Running the test."), touch(join(marks, "tui"), call)], [text("TUI final after the refusal.")]],
    });
    try {
      await tui.waitForPrompt();
      await tui.type("why does test_parse fail?");
      await tui.waitFor("TUI final after the refusal.");
      const screen = tui.captureAll().replace(/\s+/g, " ");
      expect(screen).toContain("PreToolUse:Bash hook error: utility gate: No action report before this Bash call.");
      expect(ran(join(marks, "tui"))).toBe(false);
      const [seen] = lastToolResults(tui.model.mainRequests()[2]!);
      expect(seen).toMatchObject({ tool_use_id: call, is_error: true });
      expect(seen!.text).toContain("utility gate: No action report");
      expect(tui.outbound).toEqual([]);
    } finally {
      await tui.stop();
    }
    tui.cleanup();
  });
});
