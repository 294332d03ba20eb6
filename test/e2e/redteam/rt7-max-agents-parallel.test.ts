/**
 * Red team 7 (class 4): `max_agents: 1` in the user's settings (binds in
 * every scope), an ungated main that launches three subagents in ONE message
 * (Claude Code starts them concurrently), in the foreground and in the
 * background (`run_in_background: true`). Promise (README: "subagents a task
 * may launch, whatever tool starts them"): at most one subagent gets work done.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { makeScratchHome, runClaude } from "../support/claude.js";
import { routeByPrompt, text, toolUse } from "../support/scripted-model.js";
import { id, logOf, markerDir, ran, touch } from "../gate/support.js";

function homeWithOptions(options: Record<string, unknown>): string {
  const home = makeScratchHome();
  const path = join(home, ".claude", "settings.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), pluginConfigs: { "utility@inline": { options } } }));
  return home;
}

describe.each([false, true])("max_agents 1, three Agent calls in one message (background: %s)", (background) => {
  it("at most one subagent's call runs", async () => {
    const marks = markerDir();
    const agent = (n: number) =>
      toolUse(
        "Agent",
        {
          description: `job ${n}`,
          prompt: `AG-${n}: go`,
          subagent_type: "general-purpose",
          ...(background ? { run_in_background: true } : {}),
        },
        id(`rt7_ag${n}`),
      );
    const run = await runClaude({
      prompt: "fan out",
      pluginDir: ROOT,
      home: homeWithOptions({ max_agents: 1 }),
      allowedTools: ["Bash", "Read", "Agent"],
      timeoutMs: 120_000,
      script: [[agent(1), agent(2), agent(3)], [text("Waiting.")], [text("Done.")], [text("Done.")], [text("Done.")]],
      subagentScript: routeByPrompt([
        ["AG-1", [[touch(join(marks, "ag1"))], [text("one done")]]],
        ["AG-2", [[touch(join(marks, "ag2"))], [text("two done")]]],
        ["AG-3", [[touch(join(marks, "ag3"))], [text("three done")]]],
      ]),
    });
    try {
      const ranCount = ["ag1", "ag2", "ag3"].filter((m) => ran(join(marks, m))).length;
      const recs = logOf(run)
        .filter((r) => r.event === "PreToolUse")
        .map((r) => `${r.tool}:${r.decision}:${r.rule ?? ""}:${r.agentType ?? ""}`);
      console.log(
        `[background ${background}] subagent requests:`,
        run.model.subagentRequests().length,
        "| ran:",
        ranCount,
        "|",
        recs.join(" "),
      );
      expect(ranCount).toBeLessThanOrEqual(1);
    } finally {
      run.cleanup();
    }
  });
});
