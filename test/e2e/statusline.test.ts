/**
 * The status line in a real session (issues 23, 33, 34): the user's
 * settings.json names the plugin's POSIX sh script (plugin/statusline.sh) as
 * its `statusLine` command by a `~` path into the plugin's install folder
 * (the plugin's bin/ is not on that command's PATH: docs/claude-code-facts.md),
 * and Claude Code 2.1.328 runs it in the TUI. The script prints the line the
 * hook server keeps current (src/statusline/line-file.ts), no Node. What it
 * printed (captured beside it) and what the screen shows carry the session's
 * step and spend: two replies of the scripted model, 10 input and 5 output
 * tokens each, one Bash call let through. The same run checks how Claude Code
 * names the session's project folder (src/replay/projects.ts), for a working
 * folder with `.` and `_`. A second session switches the gate on and off:
 * the line follows each switch without a reload.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectFolderName } from "../../src/replay/projects.js";
import { PLUGIN_ROOT } from "../support/paths.js";
import { makeScratchHome } from "./support/claude.js";
import { text, toolUse } from "./support/scripted-model.js";
import { startClaudeTui, tmuxAvailable } from "./support/tmux.js";
import { statusScriptPath } from "../../src/hooks/launcher.js";
import { errorLogPath } from "../../src/state/paths.js";

const REPORT = "Action: verify\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: check it";
/** Where an install from the repository's marketplace puts the plugin (docs/claude-code-facts.md, "Plugin executables"). */
const INSTALLED = ".claude/plugins/cache/utility-marketplace/utility/0.1.0";

/** What the script says before the plugin has written a line for the session: its server is starting, or is up. */
const BEFORE_ANY_LINE = [
  "utility · not running in this session: no hook server (the plugin is off, or still starting)",
  "utility · no tool call seen yet in this session",
];

/** A scratch HOME and working folder whose settings run `sh ~/<installPath>/statusline.sh`, its input and output kept beside it. */
function statusLineSetup(prefix: string) {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = makeScratchHome([cwd]);
  mkdirSync(dirname(join(home, INSTALLED)), { recursive: true });
  symlinkSync(PLUGIN_ROOT, join(home, INSTALLED));
  const settingsFile = join(home, ".claude", "settings.json");
  const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
  // Re-run every second so the last line is shown.
  const command = `tee -a ~/statusline-in.jsonl | sh ~/${INSTALLED}/statusline.sh | tee -a ~/statusline-out.txt`;
  writeFileSync(settingsFile, JSON.stringify({ ...settings, statusLine: { type: "command", command, refreshInterval: 1 } }, null, 2));
  const printed = () => readFileSync(join(home, "statusline-out.txt"), "utf8").trimEnd().split("\n");
  return { cwd, home, printed };
}

/** The plugin's error log and step logs in a scratch HOME, for a failure's message. */
function pluginLogs(home: string): string {
  const dir = join(home, ".claude", "plugins", "data", "utility-inline");
  const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : `(no ${basename(file)})\n`);
  const sessions = join(dir, "sessions");
  const logs = existsSync(sessions) ? readdirSync(sessions).map((f) => `${f}:\n${read(join(sessions, f))}`) : [];
  return [read(errorLogPath(dir)), ...logs].join("");
}

/**
 * Waits until the plugin's hook server has started (its marker, src/state/server-marker.ts). A hook
 * waits for a server still connecting only up to its own timeout (docs/claude-code-facts.md); under
 * CI's load a first call can come before that, and this test is about the line, not start-up.
 */
async function serverStarted(home: string): Promise<void> {
  const markers = join(home, ".claude", "plugins", "data", "utility-inline", "servers");
  const deadline = Date.now() + 60_000;
  while (!(existsSync(markers) && readdirSync(markers).some((f) => f.endsWith(".json")))) {
    if (Date.now() > deadline) throw new Error(`no hook server marker in ${markers} after 60 s\n${pluginLogs(home)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!tmuxAvailable())("the status line in the TUI", () => {
  it("shows the session's task, step and spend, as the server wrote them for plugin/statusline.sh", async () => {
    const { cwd, home, printed: printedLines } = statusLineSetup("cc.status_line-");
    const tui = await startClaudeTui({
      pluginDir: PLUGIN_ROOT,
      cwd,
      home,
      allowedTools: ["Bash"],
      script: [[text(REPORT), toolUse("Bash", { command: "echo status-line-ran" })], [text("Status line test done.")]],
    });
    try {
      await tui.waitForPrompt();
      await serverStarted(home);
      await tui.type("check the tree");
      await tui.waitFor("Status line test done.", 30_000);
      const mainReplies = tui.model.mainRequests().length;
      expect(mainReplies).toBe(2);
      const tokens = mainReplies * (10 + 5);
      const screen = await tui.waitFor(`utility · task 1 step 1 · ${tokens} tok`, 20_000).catch((error: Error) => {
        // Once in CI (load high) the line said step 0 with both replies counted: say what the plugin logged.
        throw new Error(`${error.message}\nthe plugin's logs:\n${pluginLogs(home)}`);
      });
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
      const printed = printedLines();
      expect(printed).toContain(shown![0]);
      // Before the plugin's first answer there is no line: the script says why, never a stale or made-up one.
      expect(BEFORE_ANY_LINE).toContain(printed[0]);
      // Session start copied the script where the README's setting names it (the data folder survives updates).
      expect(readFileSync(statusScriptPath(join(home, ".claude", "plugins", "data", "utility-inline")), "utf8")).toBe(
        readFileSync(join(PLUGIN_ROOT, "statusline.sh"), "utf8"),
      );

      // Claude Code's project folder for this working folder (`.` and `_` become `-`).
      expect(basename(dirname(transcript!))).toBe(projectFolderName(cwd));
      expect(basename(dirname(transcript!))).toBe(cwd.replace(/[./_]/g, "-"));
    } finally {
      await tui.stop();
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);

  it("follows /utility on and /utility off at once: gated, off from the next prompt as the answer says, then not gated", async () => {
    const { cwd, home, printed } = statusLineSetup("cc.status_switch-");
    const tui = await startClaudeTui({ pluginDir: PLUGIN_ROOT, cwd, home, script: [[text("Plain answer.")]] });
    try {
      await tui.waitForPrompt();
      await tui.type("/utility on");
      await tui.waitFor("/utility on: on", 20_000);
      await tui.waitFor(/utility · task \d+ step 0\/10 · .* · gated \(\/utility on\)(?= |$)/m, 20_000);
      // Claude Code may put a session's first prompt back in the input box when a hook answered it (README): clear it.
      await tui.keys("C-u");
      await tui.type("/utility off");
      await tui.waitFor(/utility · .* · \/utility off: not gated from your next prompt/, 20_000);
      await tui.keys("C-u");
      await tui.type("say hello");
      await tui.waitFor("Plain answer.", 30_000);
      const screen = await tui.waitFor(/utility · task \d+ step 0 · .* · not gated(?= |$)/m, 20_000);
      expect(screen).not.toMatch(/utility · .*gated \(\/utility on\)/);
      const lines = printed();
      const on = lines.findIndex((l) => /· gated \(\/utility on\)$/.test(l));
      const pending = lines.findIndex((l) => l.includes("/utility off: not gated from your next prompt"));
      const off = Math.max(...lines.map((l, i) => (l.endsWith("· not gated") ? i : -1)));
      expect(on).toBeGreaterThanOrEqual(0);
      expect(pending).toBeGreaterThan(on);
      expect(off).toBeGreaterThan(pending);
      expect(lines.every((l) => l.startsWith("utility · "))).toBe(true);
    } finally {
      await tui.stop();
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);
});
