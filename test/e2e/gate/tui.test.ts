/**
 * The gate in the interactive terminal UI (tmux): the gated example is
 * activated, a call with no report is refused, the refusal is on screen, and
 * the command did not run. `/utility on` typed with no model reachable: the
 * user sees the plugin's answer about the gate, and the gate is on.
 */
import { readFileSync, readdirSync } from "node:fs";
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

  it("/utility on with no model reachable: the answer about the gate is on screen, and the switch is made", async () => {
    const tui = await startClaudeTui({
      pluginDir: PLUGIN_ROOT,
      // Nothing listens on port 9: any model request fails at once.
      env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9", CLAUDE_CODE_MAX_RETRIES: "0" },
      script: [],
    });
    try {
      await tui.waitForPrompt();
      await tui.type("/utility on");
      const screen = (await tui.waitFor("/utility on: on", 20_000)).replace(/\s+/g, " ");
      expect(screen).toContain("UserPromptExpansion operation blocked by hook:");
      expect(screen).toContain("utility: the gate is on for this conversation's main scope until /utility off");
      expect(screen).toContain("gated by /utility on");
      expect(screen).not.toContain("API Error");
      expect(tui.model.requests).toEqual([]);
      const sessions = join(tui.home, ".claude", "plugins", "data", "utility-inline", "sessions");
      const log = readdirSync(sessions).flatMap((f) =>
        readFileSync(join(sessions, f), "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      );
      expect(log.map((r) => [r.event, r.switched])).toEqual([
        ["UserPromptSubmit", "on"],
        ["UserPromptExpansion", undefined],
      ]);
    } finally {
      await tui.stop();
    }
    tui.cleanup();
  });
});
