/**
 * Red team 8 (class 5, over-blocking by the net): Claude Code's hooks guide's file-protection example, a
 * PreToolUse Edit|Write hook `python3 -c "import json, sys; data=json.load(sys.stdin); path=…"`, trips the net
 * (`-c` code), which guards every word part of the Python code as a file or folder of the project: `data`,
 * `path`, `json`, `sys`, `p`, `get`, … A project with a `data/` folder (most data and ML projects) then has
 * every gated Write into it refused, though the hook runs nothing there. Promise (docs/gate.md, SPEC §6): a
 * harmless gated call is not refused; the net's over-blocking documented is "a folder it names (`bash -c
 * 'eslint src'`)", not the identifiers of inline code.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, expectPassed, gateRun, id, markerDir, ok, recordOf } from "../gate/support.js";

const PROTECT =
  "python3 -c \"import json, sys; data=json.load(sys.stdin); path=data.get('tool_input',{}).get('file_path',''); " +
  "sys.exit(2 if any(p in path for p in ['.env', 'package-lock.json', '.git/']) else 0)\"";

describe("rt8 net over-blocking: the hooks guide's python3 -c file-protection hook", () => {
  it("a gated Write of data/train.csv passes", async () => {
    const cwd = markerDir();
    const home = makeScratchHome([cwd]);
    mkdirSync(join(cwd, "data"), { recursive: true });
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    writeFileSync(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: PROTECT }] }] } }),
    );
    const call = id("rt8_overblock_write");
    const run = await gateRun({
      prompt: "add the training data",
      cwd,
      home,
      timeoutMs: 90_000,
      allowedTools: ["Bash", "Read", "Skill", "Write"],
      script: [
        [activate()],
        [
          text(ok("tool_call", "Write the data.")),
          toolUse("Write", { file_path: join(cwd, "data", "train.csv"), content: "x,y\n1,2\n" }, call),
        ],
        [text("Done.")],
      ],
    });
    try {
      const rec = recordOf(run, call);
      console.log("write:", rec.decision, rec.rule, JSON.stringify(rec).slice(0, 600));
      expectPassed(run, call);
    } finally {
      run.cleanup();
    }
  });
});
