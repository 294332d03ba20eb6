/**
 * Red team 7 (class 2): the main thread run as a gated agent definition
 * found elsewhere than the project's .claude/agents (rt5/rt6 covered that
 * one): a plugin's agent (`--agent ufix:gated-helper`, --plugin-dir), the
 * user's ~/.claude/agents with `--agent`, and the user's `agent` setting.
 * Promise (docs/gate.md, c56b0c2): the main scope is gated by that definition
 * from its first prompt; an unreported call is refused and does not run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ran, touch } from "../gate/support.js";

const AGENT = `---\nname: gated-main\ndescription: A gated reviewer.\ntools: Bash, Read, Agent\nutility_gated: true\n---\n\nYou are a gated reviewer. Write an action report before every tool call.\n`;

type How = { name: string; args: string[]; fixtures?: boolean; setup?: (home: string) => void; prompt: string };
const CASES: How[] = [
  { name: "a plugin's agent: --agent ufix:gated-helper", args: ["--agent", "ufix:gated-helper"], fixtures: true, prompt: "gated helper" },
  {
    name: "the user's agents folder: --agent gated-main",
    args: ["--agent", "gated-main"],
    setup: (home) => {
      mkdirSync(join(home, ".claude", "agents"), { recursive: true });
      writeFileSync(join(home, ".claude", "agents", "gated-main.md"), AGENT);
    },
    prompt: "gated reviewer",
  },
  {
    name: "the user's settings: agent gated-main (user's agents folder)",
    args: [],
    setup: (home) => {
      mkdirSync(join(home, ".claude", "agents"), { recursive: true });
      writeFileSync(join(home, ".claude", "agents", "gated-main.md"), AGENT);
      const s = join(home, ".claude", "settings.json");
      writeFileSync(s, JSON.stringify({ autoUpdates: false, spinnerTipsEnabled: false, agent: "gated-main" }));
    },
    prompt: "gated reviewer",
  },
];

describe.each(CASES)("rt7 main thread as a gated agent: $name", (how) => {
  it("an unreported Bash call is refused", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    const home = makeScratchHome([cwd]);
    how.setup?.(home);
    const call = id("rt7_mainagent");
    const run = await gateRun({
      prompt: "review the code",
      cwd,
      home,
      fixtures: how.fixtures,
      extraArgs: how.args,
      allowedTools: ["Bash", "Read"],
      script: [[text("No report here."), touch(join(marks, "unreported-ran"), call)], [text("Done.")]],
    });
    try {
      const rec = logOf(run).find((r) => r.toolUseId === call);
      const sys = JSON.stringify(run.requests[0]?.body ?? "").includes(how.prompt);
      console.log(
        `[${how.name}] agent active: ${sys} | record:`,
        rec ? `${rec.decision} ${rec.rule} gated=${rec.gated} type=${rec.agentType}` : "none",
        "| ran:",
        ran(join(marks, "unreported-ran")),
      );
      expect({ agentActive: sys, ran: ran(join(marks, "unreported-ran")) }).toEqual({ agentActive: true, ran: false });
    } finally {
      run.cleanup();
    }
  });
});
