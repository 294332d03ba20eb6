/**
 * SPEC §14 in the interactive terminal UI (tmux): a gated skill that sets
 * `utility_confirm_above_uncertainty: 0.5`; a `tool_call` whose report says
 * Uncertainty=0.6 is neither refused nor let through silently. Claude Code
 * shows the user a permission prompt with the gate's reason (answered by the
 * plugin's warm server, mcp_tool). "Yes" runs the command; "No" (Esc) does
 * not, and the turn ends. Both calls are recorded as a fallback to the user.
 * In \`claude -p\` there is no one to ask: Claude Code turns "ask" into a
 * refusal, and the model reads the reason.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLUGIN_ROOT } from "../../support/paths.js";
import { lastToolResults, text } from "../support/scripted-model.js";
import { startClaudeTui, tmuxAvailable } from "../support/tmux.js";
import { readJsonl } from "../support/claude.js";
import { activate, gateRun, id, markerDir, ok, ran, recordOf, touch, type Rec } from "./support.js";

const SKILL = `---
name: ask-example
description: Change one file when the user asks, deciding each step with the utility framework; unsure changes go to the user.
utility_gated: true
utility_confirm_above_uncertainty: 0.5
---

# Change one file (gated, asks when unsure)

Score every step as the utility-scoring skill says. A change whose
Uncertainty is 0.5 or more goes to the user before it runs.
`;

/** The gated skill, in a folder of its own (copied into the session's project). */
function askSkill(): string {
  const dir = join(markerDir(), "ask-example");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), SKILL);
  return dir;
}

/** The screen as one line: the prompt's box rules and the wrapping gone. */
const flat = (screen: string) => screen.replace(/[│╭╮╰╯─]/g, " ").replace(/\s+/g, " ");

describe.skipIf(!tmuxAvailable())("asking the user in the TUI (SPEC §14)", () => {
  it("shows a permission prompt with the reason; Yes runs the call, No does not and ends the turn", async () => {
    const marks = markerDir();
    const calls = { yes: id("askyes"), no: id("askno") };
    const tui = await startClaudeTui({
      pluginDir: PLUGIN_ROOT,
      projectSkills: [askSkill()],
      allowedTools: ["Bash", "Skill"],
      width: 200,
      script: [
        [activate("ask-example")],
        [text(ok("tool_call", "Create the first marker.")), touch(join(marks, "yes"), calls.yes)],
        [text(ok("tool_call", "Create the second marker.")), touch(join(marks, "no"), calls.no)],
        [text("Never reached: the user said no.")],
      ],
    });
    try {
      await tui.waitForPrompt();
      await tui.type("make the markers");
      await tui.waitFor("Do you want to proceed?");
      const first = flat(tui.capture());
      expect(first).toContain("Hook PreToolUse:Bash requires confirmation for this command:");
      expect(first).toContain(
        'utility: this Bash call\'s report chose tool_call with Uncertainty=0.6, at or above 0.5 (utility_confirm_above_uncertainty), so you decide whether it runs. Its rationale: "Create the first marker."',
      );
      expect(ran(join(marks, "yes"))).toBe(false);
      await tui.keys("Enter"); // 1. Yes (selected)
      await tui.waitFor("Create the second marker.");
      await tui.waitFor("Do you want to proceed?");
      expect(ran(join(marks, "yes"))).toBe(true);
      expect(flat(tui.capture())).toContain('Its rationale: "Create the second marker."');
      await tui.keys("Escape"); // No
      await tui.waitFor("What should Claude do instead?");
      expect(ran(join(marks, "no"))).toBe(false);
      // No further model request after "No": the turn ended (docs/claude-code-facts.md).
      expect(tui.model.mainRequests()).toHaveLength(3);

      const data = join(tui.home, ".claude", "plugins", "data", "utility-inline", "sessions");
      const [file] = readdirSync(data).filter((name) => name.endsWith(".jsonl"));
      const log: Rec[] = readJsonl(join(data, file!));
      const asked = (call: string) => log.find((r) => r.event === "PreToolUse" && r.toolUseId === call);
      for (const call of [calls.yes, calls.no])
        expect(asked(call)).toMatchObject({ decision: "passed", fallback: "user", reason: expect.stringContaining("you decide") });
      const outcome = (call: string) => log.find((r) => r.event === "Outcome" && r.toolUseId === call)?.outcome;
      expect(outcome(calls.yes)).toMatchObject({ result: "ran" });
      expect(tui.outbound).toEqual([]);
    } finally {
      await tui.stop();
    }
    tui.cleanup();
  }, 180_000);
});

describe("asking the user in claude -p (SPEC §14)", () => {
  it("is a refusal: the call does not run, is in permission_denials, and the model reads the reason", async () => {
    const marks = markerDir();
    const call = id("askp");
    const run = await gateRun({
      prompt: "make the marker",
      projectSkills: [askSkill()],
      allowedTools: ["Bash", "Skill"],
      script: [[activate("ask-example")], [text(ok("tool_call", "Create the marker.")), touch(join(marks, "p"), call)], [text("Asked.")]],
    });
    try {
      expect(ran(join(marks, "p"))).toBe(false);
      expect(run.result!.permission_denials.map((d) => d.tool_use_id)).toContain(call);
      const [seen] = lastToolResults(run.model.mainRequests()[2]!);
      expect(seen).toMatchObject({ tool_use_id: call, is_error: true });
      expect(seen!.text).toMatch(/^utility: this Bash call's report chose tool_call with Uncertainty=0\.6, at or above 0\.5/);
      expect(recordOf(run, call)).toMatchObject({ decision: "passed", fallback: "user" });
    } finally {
      run.cleanup();
    }
  }, 120_000);
});
