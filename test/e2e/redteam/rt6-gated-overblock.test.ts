/**
 * Red team 6 (over-blocking, medium): ordinary files in a gated task, with a reported
 * tool_call Write each, in a project whose hooks run `npm run -s lint` and
 * `bash tools/pre-bash`: .gitignore, docs/git/config, a config file named like git's,
 * src/hooks/README.md, a file in a folder named tools-old. None is configuration.
 * Promise: only the records, Claude Code's configuration and the scripts hooks run are guarded.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchHome } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, logOf, markerDir, ok } from "../gate/support.js";

describe("gated ordinary writes", () => {
  it("are not refused as protected", async () => {
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    mkdirSync(join(cwd, "tools"), { recursive: true });
    writeFileSync(join(cwd, "tools", "pre-bash"), "#!/bin/sh\ncat >/dev/null\n", { mode: 0o755 });
    writeFileSync(join(cwd, "package.json"), '{"scripts":{"lint":"true"}}\n');
    writeFileSync(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              matcher: "NotebookEdit",
              hooks: [
                { type: "command", command: "npm run -s lint" },
                { type: "command", command: "bash tools/pre-bash" },
              ],
            },
          ],
        },
      }),
    );
    const home = makeScratchHome([cwd]);
    const rels = [".gitignore", "docs/git/config", "src/hooks/README.md", "tools-old/pre-bash.md", "src/gitconfig.ts", "tools/README.md"];
    const ids = rels.map((_, i) => id(`rt6_ob_${i}`));
    const run = await gateRun({
      prompt: "edit files",
      cwd,
      home,
      timeoutMs: 90_000,
      allowedTools: ["Bash", "Read", "Write", "Skill"],
      script: [
        [activate()],
        ...rels.map((r, i) => [
          text(ok("tool_call", `Write ${r}.`)),
          toolUse("Write", { file_path: join(cwd, r), content: "x\n" }, ids[i]),
        ]),
        [text("Done.")],
      ],
    });
    try {
      const recs = ids.map((c) => logOf(run).find((r) => r.event === "PreToolUse" && r.toolUseId === c));
      rels.forEach((r, i) =>
        console.log(r, "=>", recs[i]?.decision, recs[i]?.rule, recs[i]?.gated, String(recs[i]?.reason ?? "").slice(0, 160)),
      );
      expect(recs.map((r) => r?.rule === "protected_target")).toEqual(rels.map(() => false));
    } finally {
      run.cleanup();
    }
  }, 120_000);
});
