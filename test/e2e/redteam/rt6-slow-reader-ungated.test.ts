/**
 * Red team 6 (class 5): a project settings hook whose command is long and made of
 * `cd a && ` steps (never run: its matcher is NotebookEdit). The command reading
 * (src/engine/command-files.ts) runs for every gated call that names a path, in the
 * session's one warm hook server. Promise: fail closed only where gated, on time
 * everywhere — the ungated main thread's next call is never blocked or delayed past
 * the hook timeout by the plugin's own trouble. Found: the reading took 15 s (a path
 * growing past PATH_MAX, normalized at every `cd`) and the gated Write timed out; fixed.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ok, ran, touch } from "../gate/support.js";

describe("slow command reading in a gated subagent vs the ungated main thread", () => {
  it("the ungated main thread's Bash call after it runs", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(cwd, ".claude", "agents", "gw.md"),
      "---\nname: gw\ndescription: A gated writer.\ntools: Bash, Read, Write\nutility_gated: true\n---\n\nYou are a gated writer.\n",
    );
    const command = "cd a && ".repeat(30000) + "true";
    writeFileSync(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "NotebookEdit", hooks: [{ type: "command", command }] }] } }),
    );
    const home = makeScratchHome([cwd]);
    const [launch, write, mainBare] = [id("rt6_slow_launch"), id("rt6_slow_write"), id("rt6_slow_mainbare")];
    const t0 = Date.now();
    const run = await gateRun({
      prompt: "tidy the notes",
      cwd,
      home,
      timeoutMs: 240_000,
      allowedTools: ["Bash", "Read", "Agent", "Write"],
      script: [
        [toolUse("Agent", { subagent_type: "gw", description: "notes", prompt: "write the notes" }, launch)],
        [text("Now a plain step."), touch(join(marks, "main-bare"), mainBare)],
        [text("Done.")],
      ],
      subagentScript: [
        [text(ok("tool_call", "Write the notes.")), toolUse("Write", { file_path: join(cwd, "notes.txt"), content: "n\n" }, write)],
        [text("SUB done.")],
      ],
    });
    try {
      const find = (c: string) => logOf(run).find((r) => r.event === "PreToolUse" && r.toolUseId === c);
      const w = find(write);
      const m = find(mainBare);
      console.log(
        "elapsed",
        Date.now() - t0,
        "| sub write:",
        w?.decision,
        w?.rule,
        w?.gated,
        w?.latencyMs,
        "| main bare:",
        m?.decision,
        m?.gated,
        m?.latencyMs,
        "| ran:",
        ran(join(marks, "main-bare")),
      );
      console.log(JSON.stringify(logOf(run).map((r) => [r.event, r.tool, r.decision, r.rule, r.gated, r.scope, r.latencyMs])));
      console.log(JSON.stringify(run.result ?? "").slice(0, 1500));
      const said = JSON.stringify(run.model.subagentRequests().at(-1)?.body ?? "");
      console.log(
        "gated write landed:",
        existsSync(join(cwd, "notes.txt")),
        "| sub told:",
        /hook error[^"]{0,200}|timed out[^"]{0,100}|refus[^"]{0,160}/.exec(said)?.[0],
      );
      // The reading is linear in the line since a folder past PATH_MAX is not entered: the gated Write of a plain
      // file is decided within the hook's timeout and lands; the ungated main call runs.
      expect({ decision: w?.decision, inTime: (w?.latencyMs ?? Infinity) < 15_000, landed: existsSync(join(cwd, "notes.txt")) }).toEqual({
        decision: "passed",
        inTime: true,
        landed: true,
      });
      expect(ran(join(marks, "main-bare"))).toBe(true);
    } finally {
      run.cleanup();
    }
  }, 300_000);
});
