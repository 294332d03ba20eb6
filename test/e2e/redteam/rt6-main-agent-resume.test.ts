/**
 * Red team 6 (class 2): a session whose main thread ran as the gated agent
 * (`--agent gated-main`, utility_gated: true) is resumed with `--resume <id>`
 * and no `--agent`. Promise: gated-ness follows what Claude Code did — if
 * Claude Code still runs the main thread as gated-main (its prompt in the
 * system), an unreported call must be refused.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ok, ran, recordOf, touch } from "../gate/support.js";

const AGENT = `---\nname: gated-main\ndescription: A gated reviewer.\ntools: Bash, Read, Agent\nutility_gated: true\n---\n\nYou are a gated reviewer. Write an action report before every tool call.\n`;

describe("gated main agent, resumed without --agent", () => {
  for (const how of ["--agent flag", "agent setting"] as const) {
    it(`${how}: resumed, an unreported call is refused while the agent still runs`, async () => {
      const marks = markerDir();
      const cwd = markerDir();
      mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
      writeFileSync(join(cwd, ".claude", "agents", "gated-main.md"), AGENT);
      if (how === "agent setting") writeFileSync(join(cwd, ".claude", "settings.local.json"), JSON.stringify({ agent: "gated-main" }));
      const home = makeScratchHome([cwd]);
      const first = await gateRun({
        prompt: "review the code",
        cwd,
        home,
        extraArgs: how === "--agent flag" ? ["--agent", "gated-main"] : [],
        allowedTools: ["Bash", "Read"],
        script: [[text(ok("verify", "Look.")), touch(join(marks, "first-reported"), id("rt6_res_first"))], [text("Done.")]],
      });
      const call = id("rt6_res_bare");
      const second = await gateRun({
        prompt: "go on",
        cwd: first.cwd,
        home: first.home,
        extraArgs: ["--resume", first.sessionId!],
        allowedTools: ["Bash", "Read"],
        script: [[text("No report here."), touch(join(marks, "resumed-bare"), call)], [text("Done.")]],
      });
      try {
        const sys1 = JSON.stringify(first.requests[0]?.body ?? "").includes("gated reviewer");
        const sys2 = JSON.stringify(second.requests[0]?.body ?? "").includes("gated reviewer");
        const r = recordOf(second, call);
        console.log(
          `[${how}] first agentActive: ${sys1} firstRan: ${ran(join(marks, "first-reported"))} | resumed agentActive: ${sys2} | record:`,
          r?.decision,
          r?.rule,
          r?.gated,
          r?.agentType,
          "| ran:",
          ran(join(marks, "resumed-bare")),
        );
        console.log(JSON.stringify(logOf(second).map((x) => [x.event, x.tool, x.decision, x.gated, x.agentType])));
        expect(sys1).toBe(true);
        if (sys2) expect(ran(join(marks, "resumed-bare"))).toBe(false);
      } finally {
        second.cleanup();
        first.cleanup();
      }
    }, 200_000);
  }
});
