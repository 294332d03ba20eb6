/**
 * Red team 5 (class 5, budgets): `max_agents: 1` in the user's settings, an
 * ungated main, and one Workflow call whose script starts three agents.
 * Promise (README: "subagents a task may launch, whatever tool starts them";
 * limits: a Workflow's agents "are counted as they start, against
 * max_agents"): at most one subagent gets work done; the agents past the
 * budget have their tool calls refused (SubagentStart cannot stop them).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { makeScratchHome, runClaude } from "../support/claude.js";
import { routeByPrompt, text } from "../support/scripted-model.js";
import { toolUse } from "../support/scripted-model.js";
import { id, logOf, markerDir, ran, touch } from "../gate/support.js";

function homeWithOptions(options: Record<string, unknown>): string {
  const home = makeScratchHome();
  const path = join(home, ".claude", "settings.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), pluginConfigs: { "utility@inline": { options } } }));
  return home;
}

describe("max_agents 1 and a Workflow of three agents (ungated)", () => {
  it("at most one workflow agent's call runs", async () => {
    const marks = markerDir();
    const script =
      "export const meta = { name: 'w3', description: 'three' }\n" +
      "const a = await agent('WF-1: go', { label: 'a' })\nconst b = await agent('WF-2: go', { label: 'b' })\nconst c = await agent('WF-3: go', { label: 'c' })\nreturn { a, b, c }\n";
    const flow = id("rt5_wf3");
    const run = await runClaude({
      prompt: "fan out",
      pluginDir: ROOT,
      home: homeWithOptions({ max_agents: 1 }),
      allowedTools: ["Bash", "Read", "Workflow"],
      timeoutMs: 120_000,
      script: [[toolUse("Workflow", { script }, flow)], [text("Waiting.")], [text("Done.")], [text("Done.")]],
      subagentScript: routeByPrompt([
        ["WF-1", [[touch(join(marks, "wf1"))], [text("one done")]]],
        ["WF-2", [[touch(join(marks, "wf2"))], [text("two done")]]],
        ["WF-3", [[touch(join(marks, "wf3"))], [text("three done")]]],
      ]),
    });
    try {
      const ranCount = ["wf1", "wf2", "wf3"].filter((m) => ran(join(marks, m))).length;
      const recs = logOf(run)
        .filter((r: any) => r.event === "PreToolUse")
        .map((r: any) => `${r.tool}:${r.decision}:${r.rule ?? ""}:${r.agentType ?? ""}`);
      console.log("subagent requests:", run.model.subagentRequests().length, "| ran:", ranCount, "|", recs.join(" "));
      expect(ranCount).toBeLessThanOrEqual(1);
    } finally {
      run.cleanup();
    }
  });
});
