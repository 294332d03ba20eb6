/**
 * The status line in a real session (issue 23): the user's settings.json
 * names dist/statusline.js as its `statusLine` command by a `~` path into the
 * plugin's install folder (the plugin's bin/ is not on that command's PATH:
 * docs/claude-code-facts.md), and Claude Code
 * 2.1.328 runs it in the TUI. What it printed (captured beside it) and what
 * the screen shows carry the session's step and spend: two replies of the
 * scripted model, 10 input and 5 output tokens each, one Bash call let
 * through. The same run checks how Claude Code names the session's project
 * folder (src/replay/projects.ts), for a working folder with `.` and `_`.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectFolderName } from "../../src/replay/projects.js";
import { PLUGIN_ROOT } from "../support/paths.js";
import { makeScratchHome } from "./support/claude.js";
import { text, toolUse } from "./support/scripted-model.js";
import { startClaudeTui, tmuxAvailable } from "./support/tmux.js";

const REPORT = "Action: verify\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: check it";
/** Where an install from the repository's marketplace puts the plugin (docs/claude-code-facts.md, "Plugin executables"). */
const INSTALLED = ".claude/plugins/cache/utility-marketplace/utility/0.1.0";

describe.skipIf(!tmuxAvailable())("the status line in the TUI", () => {
  it("shows the session's task, step and spend, as dist/statusline.js prints them from the state", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "cc.status_line-")));
    const home = makeScratchHome([cwd]);
    mkdirSync(dirname(join(home, INSTALLED)), { recursive: true });
    symlinkSync(PLUGIN_ROOT, join(home, INSTALLED));
    const settingsFile = join(home, ".claude", "settings.json");
    const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
    // `node ~/<installPath>/dist/statusline.js`, its input and output kept beside it; re-run every second so the last state is shown.
    const command = `tee -a ~/statusline-in.jsonl | node ~/${INSTALLED}/dist/statusline.js | tee -a ~/statusline-out.txt`;
    writeFileSync(settingsFile, JSON.stringify({ ...settings, statusLine: { type: "command", command, refreshInterval: 1 } }, null, 2));
    const tui = await startClaudeTui({
      pluginDir: PLUGIN_ROOT,
      cwd,
      home,
      allowedTools: ["Bash"],
      script: [[text(REPORT), toolUse("Bash", { command: "echo status-line-ran" })], [text("Status line test done.")]],
    });
    try {
      await tui.waitForPrompt();
      await tui.type("check the tree");
      await tui.waitFor("Status line test done.", 30_000);
      const mainReplies = tui.model.mainRequests().length;
      expect(mainReplies).toBe(2);
      const tokens = mainReplies * (10 + 5);
      const screen = await tui.waitFor(`utility · task 1 step 1 · ${tokens} tok`, 20_000);
      // Not gated: the gate observes the call without reading its report, so no action is recorded to show.
      const shown = screen.match(new RegExp(`utility · task 1 step 1 · ${tokens} tok · \\$[\\d.]+ · not gated(?= |$)`, "m"));
      expect(shown, screen).not.toBeNull();

      const [transcript] = tui.transcriptPaths().filter((p) => !p.includes("/subagents/"));
      const sessionId = basename(transcript!, ".jsonl");
      const inputs = readFileSync(join(home, "statusline-in.jsonl"), "utf8")
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { session_id: string; transcript_path: string });
      expect(inputs.length).toBeGreaterThan(0);
      expect(inputs.every((i) => i.session_id === sessionId && i.transcript_path === transcript)).toBe(true);
      const printed = readFileSync(join(home, "statusline-out.txt"), "utf8").trimEnd().split("\n");
      expect(printed).toContain(shown![0]);
      // Before the first tool call there is no state: the line says so.
      expect(printed[0]).toBe("utility · no tool call seen yet in this session");

      // Claude Code's project folder for this working folder (`.` and `_` become `-`).
      expect(basename(dirname(transcript!))).toBe(projectFolderName(cwd));
      expect(basename(dirname(transcript!))).toBe(cwd.replace(/[./_]/g, "-"));
    } finally {
      await tui.stop();
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);
});
