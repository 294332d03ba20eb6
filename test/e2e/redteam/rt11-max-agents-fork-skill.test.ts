/**
 * Red team 11 (class 4, around f89e2bf): an UNGATED task under
 * `max_agents: 1` makes, in ONE message, a Skill call whose skill says
 * `context: fork` (it starts a subagent as it loads) and an Agent call, then
 * in the next message a second fork Skill call. Promise (README "Budgets",
 * SPEC §12): at most one subagent starts in the task; the launches past it
 * are refused budget_spent / agent limit.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { runClaude } from "../support/claude.js";
import { requestText, systemText, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { id, logOf, markerDir, ran, touch } from "../gate/support.js";
import { homeWithOptions, show } from "./rt10-support.js";

const skill = (name: string) => `---\nname: ${name}\ndescription: investigates apart\ncontext: fork\n---\n\nFORK-${name}: investigate.\n`;

describe("max_agents 1: a fork skill and an Agent call in one message, then another fork skill", () => {
  it("starts at most one subagent", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    for (const name of ["forka", "forkb"]) {
      mkdirSync(join(cwd, ".claude", "skills", name), { recursive: true });
      writeFileSync(join(cwd, ".claude", "skills", name, "SKILL.md"), skill(name));
    }
    const sub = (r: RecordedRequest) => {
      const t = requestText(r) + systemText(r);
      const which = ["forka", "forkb", "AGENT-X"].find((m) => t.includes(m.startsWith("fork") ? `FORK-${m}` : m));
      if (!which) return [text("Done here.")];
      if (!t.includes(`marked-${which}`))
        return [
          { ...touch(join(marks, which)), input: { command: `touch ${join(marks, which)} && echo marked-${which}`, description: "mark" } },
        ];
      return [text(`${which} done.`)];
    };
    const run = await runClaude({
      prompt: "investigate",
      cwd,
      pluginDir: ROOT,
      home: homeWithOptions({ max_agents: 1 }, [cwd]),
      allowedTools: ["Bash", "Read", "Skill", "Agent"],
      timeoutMs: 150_000,
      whenExhausted: "end_turn",
      script: [
        [
          toolUse("Skill", { skill: "forka" }, id("rt11_ma_fa")),
          toolUse("Agent", { description: "x", prompt: "AGENT-X: look", subagent_type: "general-purpose" }, id("rt11_ma_ag")),
        ],
        [toolUse("Skill", { skill: "forkb" }, id("rt11_ma_fb"))],
        [text("Done.")],
      ],
      subagentScript: sub,
    });
    try {
      show(run);
      const started = logOf(run).filter((r) => r.event === "SubagentStart").length;
      const marked = ["forka", "forkb", "AGENT-X"].filter((m) => ran(join(marks, m)));
      console.log("SubagentStart records:", started, "marked:", marked);
      expect(marked.length, `subagents that ran a call: ${marked.join(", ")}`).toBeLessThanOrEqual(1);
    } finally {
      run.cleanup();
    }
  });
});
