/**
 * A model that replaces its own transcript with a link to /dev/zero (issue 31,
 * hole 17), in the TUI, where one session takes several prompts. The link is
 * never followed, so nothing reads forever; but the transcript can no longer
 * show the next prompt's line, which is what starts a task. The user's next
 * prompt is taken by its text: its ungated calls run, answered at once,
 * although the task before was gated; a gated skill loaded then is refused,
 * with the reason. The ungated twin: in a session never gated, nothing is refused.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE_SKILL, PLUGIN_ROOT } from "../../support/paths.js";
import { text, toolUse, type Script } from "../support/scripted-model.js";
import { startClaudeTui, tmuxAvailable, type ClaudeTui } from "../support/tmux.js";
import { activate, id, markerDir, ok, ran, resultFor, touch } from "./support.js";

/** A Bash call that puts a link to /dev/zero in place of the session's transcript (the newest one under the scratch HOME). */
const linkTranscript = (callId: string) =>
  toolUse(
    "Bash",
    { command: `ln -sf /dev/zero "$(ls -t "$HOME"/.claude/projects/*/*.jsonl | head -1)"; echo linked`, description: "link" },
    callId,
  );

/** Starts the TUI with the plugin and the gated example, runs `use`, and stops it. */
async function inTui(script: Script, use: (tui: ClaudeTui) => Promise<void>): Promise<void> {
  const tui = await startClaudeTui({
    pluginDir: PLUGIN_ROOT,
    projectSkills: [EXAMPLE_SKILL],
    allowedTools: ["Bash", "Skill", "Read"],
    script,
  });
  try {
    await tui.waitForPrompt();
    await use(tui);
  } finally {
    await tui.stop();
  }
  tui.cleanup();
}

/** Types a prompt and waits for the turn's last words; returns how long the turn took. */
async function turn(tui: ClaudeTui, prompt: string, last: string): Promise<number> {
  await tui.waitForPrompt();
  const t0 = Date.now();
  await tui.type(prompt);
  await tui.waitFor(last, 20_000);
  return Date.now() - t0;
}

describe.skipIf(!tmuxAvailable())("a transcript replaced by a link to /dev/zero", () => {
  it("after a gated task: the next prompt's ungated call runs on time; a gated skill loaded later is refused with the reason", async () => {
    const marks = markerDir();
    const ids = { link: id("zl_link"), next: id("zl_next"), skill: id("zl_skill") };
    const script: Script = [
      [activate()],
      [text(ok("verify", "Link.")), linkTranscript(ids.link)],
      [text("First over.")],
      [touch(join(marks, "next"), ids.next)],
      [text("Second over.")],
      [toolUse("Skill", { skill: "gated-example" }, ids.skill)],
      [text("Third over.")],
    ];
    await inTui(script, async (tui) => {
      await turn(tui, "why does test_parse fail?", "First over.");
      const took = await turn(tui, "list the files", "Second over.");
      // The call was answered well inside PreToolUse's 15 s timeout, and ran.
      expect(took).toBeLessThan(8_000);
      expect(ran(join(marks, "next"))).toBe(true);
      expect(resultFor(tui.model.mainRequests(), ids.next).is_error).toBe(false);
      await turn(tui, "now with the skill", "Third over.");
      const refused = resultFor(tui.model.mainRequests(), ids.skill);
      expect(refused.is_error).toBe(true);
      expect(refused.text).toContain("utility gate: the transcript");
      expect(refused.text).toContain("is a symbolic link, so no report can be read and no call can be checked");
    });
  });

  it("the ungated twin: a session never gated refuses nothing, before or after the link", async () => {
    const marks = markerDir();
    const ids = { link: id("zu_link"), next: id("zu_next"), more: id("zu_more") };
    const script: Script = [
      [linkTranscript(ids.link)],
      [text("First over.")],
      [touch(join(marks, "next"), ids.next)],
      [touch(join(marks, "more"), ids.more)],
      [text("Second over.")],
    ];
    await inTui(script, async (tui) => {
      await turn(tui, "link it", "First over.");
      const took = await turn(tui, "list the files", "Second over.");
      expect(took).toBeLessThan(8_000);
      for (const call of Object.values(ids)) expect(resultFor(tui.model.mainRequests(), call).is_error).toBe(false);
      expect(ran(join(marks, "next")) && ran(join(marks, "more"))).toBe(true);
    });
  });
});
