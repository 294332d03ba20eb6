/**
 * SPEC §10 in the real client: invalid values in the user's plugin settings
 * (a cost budget of -1 and prices that are not JSON, which Claude Code lets
 * through when settings.json is edited by hand) never block an ungated
 * session. Its calls run, the user is warned once with the setting, what was
 * found, what is expected and the fix with the real plugin id, and the valid
 * budget still applies.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_ROOT } from "../../support/paths.js";
import { assertRunOk, makeScratchHome, runClaude, type RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { startClaudeTui, tmuxAvailable } from "../support/tmux.js";
import { id, logOf, markerDir, ran, touch } from "./support.js";

const OPTIONS = { cost_budget_usd: -1, prices: "not json at all", token_budget: 1_000_000 };

/** A scratch HOME whose settings set the plugin's options by hand (plugin id `utility@inline` under --plugin-dir). */
function homeWithOptions(options: Record<string, unknown>): string {
  const home = makeScratchHome();
  const path = join(home, ".claude", "settings.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), pluginConfigs: { "utility@inline": { options } } }));
  return home;
}

/** The warning's words, as the tests expect them wherever the user sees them. */
function expectWarning(shown: string): void {
  expect(shown).toContain("utility: ");
  expect(shown).toMatch(/cost_budget_usd.*-1/);
  expect(shown).toContain("prices");
  expect(shown).toContain("utility@inline");
  expect(shown).toContain("the plugin goes on without it; the valid settings still apply.");
}

describe("an ungated session whose user settings are invalid (-p)", () => {
  const marks = markerDir();
  const ids = { first: id("warn1"), second: id("warn2") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await runClaude({
      prompt: "work",
      pluginDir: PLUGIN_ROOT,
      home: homeWithOptions(OPTIONS),
      allowedTools: ["Bash"],
      whenExhausted: "error",
      script: [[touch(join(marks, "first"), ids.first)], [touch(join(marks, "second"), ids.second)], [text("Both ran.")]],
    });
  }, 120_000);
  afterAll(() => run?.cleanup());

  it("runs its calls: nothing refused, both commands ran", () => {
    expect(assertRunOk(run).result).toBe("Both ran.");
    expect(assertRunOk(run).permission_denials).toEqual([]);
    expect([ran(join(marks, "first")), ran(join(marks, "second"))]).toEqual([true, true]);
    const calls = logOf(run).filter((r) => r.event === "PreToolUse");
    expect(calls.map((r) => [r.decision, r.gated])).toEqual([
      ["observed", false],
      ["observed", false],
    ]);
    // The valid setting still applies; the invalid cost budget is left out, never read as a limit.
    expect(calls.map((r) => r.budgets)).toEqual([{ tokenBudget: 1_000_000 }, { tokenBudget: 1_000_000 }]);
  });

  it("warns the user once, on the first call, naming each setting, what was found and the fix", () => {
    const messages = run
      .transcript()
      .filter((line) => line.type === "attachment" && line.attachment?.type === "hook_system_message")
      .map((line) => String(line.attachment.content));
    expect(messages).toHaveLength(1);
    expectWarning(messages[0]!);
  });
});

describe.skipIf(!tmuxAvailable())("the same in the TUI", () => {
  it("the warning is on screen and the call runs", async () => {
    const marks = markerDir();
    const tui = await startClaudeTui({
      pluginDir: PLUGIN_ROOT,
      home: homeWithOptions(OPTIONS),
      allowedTools: ["Bash"],
      script: [[touch(join(marks, "tui"), id("warntui"))], [text("TUI final: it ran.")]],
    });
    try {
      await tui.waitForPrompt();
      await tui.type("work");
      await tui.waitFor("TUI final: it ran.");
      const screen = tui.captureAll().replace(/\s+/g, " ");
      expect(screen).toContain("PreToolUse:Bash says: utility: ");
      expectWarning(screen);
      expect(ran(join(marks, "tui"))).toBe(true);
      expect(tui.outbound).toEqual([]);
    } finally {
      await tui.stop();
    }
    tui.cleanup();
  });
});
