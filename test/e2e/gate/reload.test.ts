/**
 * The ordinary flow, in the TUI where it was found (issue 31's blocker): a
 * gated project skill loaded by the Skill tool in one prompt gates that task;
 * loaded again after the user's next prompt, it gates the new task too, and a
 * report-less call is refused there as in the first. Replay of the same
 * transcript decides both calls as the hooks did.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE_SKILL, PLUGIN_ROOT } from "../../support/paths.js";
import { lastToolResults, text } from "../support/scripted-model.js";
import { startClaudeTui, tmuxAvailable } from "../support/tmux.js";
import { activate, id, markerDir, ran, touch } from "./support.js";

describe.skipIf(!tmuxAvailable())("a gated skill loaded again in a later task", () => {
  it("gates the second task as the first: a report-less call is refused", async () => {
    const marks = markerDir();
    const first = id("first");
    const second = id("second");
    const tui = await startClaudeTui({
      pluginDir: PLUGIN_ROOT,
      projectSkills: [EXAMPLE_SKILL],
      allowedTools: ["Bash", "Skill", "Read"],
      script: [
        [activate()],
        [text("Running."), touch(join(marks, "one"), first)],
        [text("First task over.")],
        [activate()],
        [text("Running again."), touch(join(marks, "two"), second)],
        [text("Second task over.")],
      ],
    });
    try {
      await tui.waitForPrompt();
      await tui.type("why does test_parse fail?");
      await tui.waitFor("First task over.");
      await tui.waitForPrompt();
      await tui.type("and test_render?");
      await tui.waitFor("Second task over.");
      expect(ran(join(marks, "one"))).toBe(false);
      expect(ran(join(marks, "two"))).toBe(false);
      const [seen] = lastToolResults(tui.model.mainRequests()[5]!);
      expect(seen).toMatchObject({ tool_use_id: second, is_error: true });
      expect(seen!.text).toContain("utility gate: No action report");
      const sessions = join(tui.home, ".claude", "plugins", "data", "utility-inline", "sessions");
      const log = readdirSync(sessions).flatMap((f) =>
        readFileSync(join(sessions, f), "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      );
      const hooks = log.filter((r) => r.event === "PreToolUse" && r.tool === "Bash").map((r) => [r.toolUseId, r.task, r.rule]);
      expect(hooks).toEqual([
        [first, 1, "no_report"],
        [second, 2, "no_report"],
      ]);
      const cli = spawnSync(process.execPath, [join(PLUGIN_ROOT, "dist", "cli.js"), "replay", "--json", tui.transcriptPaths()[0]!], {
        encoding: "utf8",
      });
      const replayed = JSON.parse(cli.stdout).files[0].scopes[0].decided.map((d: { toolUseId: string; task: number; rule?: string }) => [
        d.toolUseId,
        d.task,
        d.rule,
      ]);
      expect(replayed).toEqual(hooks);
    } finally {
      await tui.stop();
    }
    tui.cleanup();
  });
});
