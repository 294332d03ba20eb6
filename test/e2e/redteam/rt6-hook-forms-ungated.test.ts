/**
 * Red team 6 (class 5, ungated twin of rt6-hook-forms): with settings hooks that run
 * project scripts, an ungated session's Write of such a script, of package.json
 * (npm run lint hook) and of a file under a folder named like the script's folder is never
 * refused by the plugin.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir } from "../gate/support.js";

describe("ungated writes next to hook scripts", () => {
  it("are not refused", async () => {
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    mkdirSync(join(cwd, "tools"), { recursive: true });
    writeFileSync(join(cwd, "tools", "pre-bash"), "#!/bin/sh\ncat >/dev/null\n", { mode: 0o755 });
    writeFileSync(join(cwd, "package.json"), '{"scripts":{"lint":"true"}}\n');
    const cmds = ["bash /dev/stdin < tools/pre-bash", "npm run -s lint", "env --split-string='bash tools/pre-bash'"];
    writeFileSync(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({
        hooks: { PostToolUse: [{ matcher: "NotebookEdit", hooks: cmds.map((command) => ({ type: "command", command })) }] },
      }),
    );
    const home = makeScratchHome([cwd]);
    const targets = [join(cwd, "tools", "pre-bash"), join(cwd, "package.json"), join(cwd, "src", "tools", "pre-bash")];
    const ids = targets.map((_, i) => id(`rt6_ungw_${i}`));
    const run = await gateRun({
      prompt: "edit files",
      cwd,
      home,
      timeoutMs: 90_000,
      allowedTools: ["Bash", "Read", "Write"],
      script: [targets.map((t, i) => toolUse("Write", { file_path: t, content: "changed\n" }, ids[i])), [text("Done.")]],
    });
    try {
      const recs = ids.map((c) => logOf(run).find((r) => r.event === "PreToolUse" && r.toolUseId === c));
      const written = targets.map((t) => {
        try {
          return readFileSync(t, "utf8") === "changed\n";
        } catch {
          return false;
        }
      });
      console.log(
        "decisions:",
        recs.map((r) => `${r?.decision}/${r?.rule}/${r?.gated}/${r?.latencyMs}`),
        "written:",
        written,
      );
      expect(written).toEqual([true, true, true]);
    } finally {
      run.cleanup();
    }
  }, 120_000);
});
