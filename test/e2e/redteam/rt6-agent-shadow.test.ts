/**
 * Red team 6 (class 2, after the rt5 fix): two agent definitions with one type name, one gated
 * (`utility_gated: true`), one not: project vs user folder, and two files in
 * the project folder. Which prompt Claude Code runs is read from the
 * subagent's first request; promise: the subagent is gated exactly when the
 * definition Claude Code runs opts in (an unreported call refused; ungated
 * never refused).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { gateRun, id, markerDir, ran, recordOf, touch } from "../gate/support.js";

const def = (gated: boolean, tag: string) =>
  `---\nname: reviewer\ndescription: reviews ${tag}\ntools: Bash, Read\n${gated ? "utility_gated: true\n" : ""}---\n\nPROMPT-${tag}. Write an action report before every tool call.\n`;

type Layout = { name: string; files: (cwd: string, home: string) => Array<[string, string]> };
const LAYOUTS: Layout[] = [
  {
    name: "parent folder gated, session folder (deeper) ungated",
    files: (cwd) => [
      [join(cwd, "..", ".claude", "agents", "reviewer.md"), def(true, "PARENT-GATED")],
      [join(cwd, ".claude", "agents", "reviewer.md"), def(false, "CHILD-UNGATED")],
    ],
  },
  {
    name: "parent folder ungated, session folder (deeper) gated",
    files: (cwd) => [
      [join(cwd, "..", ".claude", "agents", "reviewer.md"), def(false, "PARENT-UNGATED")],
      [join(cwd, ".claude", "agents", "reviewer.md"), def(true, "CHILD-GATED")],
    ],
  },
  {
    name: "sub-folder file gated, top file ungated",
    files: (cwd) => [
      [join(cwd, ".claude", "agents", "z", "reviewer.md"), def(true, "SUB-GATED")],
      [join(cwd, ".claude", "agents", "reviewer.md"), def(false, "TOP-UNGATED")],
    ],
  },
  {
    name: "gated file, and an ungated one with a .MD extension",
    files: (cwd) => [
      [join(cwd, ".claude", "agents", "a.md"), def(true, "LOWER-GATED")],
      [join(cwd, ".claude", "agents", "b.MD"), def(false, "UPPER-UNGATED")],
    ],
  },
];

describe.each(LAYOUTS)("agent type shadowed: $name", ({ files }) => {
  it("gated exactly when the definition Claude Code runs opts in", async () => {
    const marks = markerDir();
    const cwd = join(markerDir(), "child");
    mkdirSync(cwd, { recursive: true });
    const home = makeScratchHome([cwd]);
    for (const [path, body] of files(cwd, home)) {
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, body);
    }
    const call = id("rt6_shadow");
    const run = await gateRun({
      prompt: "review",
      cwd,
      home,
      allowedTools: ["Bash", "Read", "Agent"],
      script: [[toolUse("Agent", { description: "review", prompt: "review it", subagent_type: "reviewer" })], [text("Done.")]],
      subagentScript: [[text("No report."), touch(join(marks, "ran"), call)], [text("SUB done.")]],
    });
    try {
      const subReq = JSON.stringify(run.model.subagentRequests()[0]?.body ?? "");
      const prompt = /PROMPT-([A-Z-]+)/.exec(subReq)?.[1] ?? "?";
      const ccRunsGated = prompt.endsWith("-GATED") && !prompt.endsWith("UNGATED");
      const r = recordOf(run, call);
      console.log(`CC runs ${prompt} | record ${r.decision} ${r.rule ?? ""} | ran ${ran(join(marks, "ran"))}`);
      expect({ prompt, refused: !ran(join(marks, "ran")) }).toEqual({ prompt, refused: ccRunsGated });
    } finally {
      run.cleanup();
    }
  });
});
