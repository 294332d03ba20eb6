/** Plugins loaded with --plugin-dir (found through Claude Code's own command line, as the real binary showed), and the Stop hook's wait for the final message. */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findAgentDefinition } from "../../src/claude/agent-definition.js";
import { pluginDirsOf } from "../../src/claude/places.js";
import { scopeOf } from "../../src/hooks/scope.js";
import { transcriptHoldsFinal, waitForFinalMessage } from "../../src/hooks/wait.js";
import { assistant, call, jsonl, prompt, text } from "../transcript/helpers.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-agent-definition-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const hasProc = existsSync("/proc/self/cmdline");

describe.skipIf(!hasProc)("plugin agents of a plugin loaded with --plugin-dir", () => {
  const plugin = join(scratch, "plugins", "fixture-folder");
  mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
  mkdirSync(join(plugin, "agents"), { recursive: true });
  writeFileSync(join(plugin, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "ufix" }));
  writeFileSync(join(plugin, "agents", "helper-file.md"), "---\nname: gated-helper\nutility_gated: true\n---\nbody\n");

  it("reads the folders from Claude Code's command line, relative ones against its cwd", async () => {
    const child = spawn(
      process.execPath,
      [
        "-e",
        'process.stdout.write("ready"); setTimeout(() => {}, 60000)',
        "--",
        "-p",
        "x",
        "--plugin-dir",
        "plugins/fixture-folder",
        `--plugin-dir=${scratch}/other`,
      ],
      {
        cwd: scratch,
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    try {
      // Its command line is the one to read once its own code runs: it says so.
      await new Promise((ready, failed) => {
        child.stdout.once("data", ready);
        child.once("exit", failed);
      });
      expect(pluginDirsOf(String(child.pid))).toEqual([plugin, join(scratch, "other")]);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("finds the definition by the plugin's manifest name and the agent's name", async () => {
    const home = join(scratch, "home");
    expect(await findAgentDefinition({ agentType: "ufix:gated-helper", home, pluginDirs: [plugin] })).toBe(
      join(plugin, "agents", "helper-file.md"),
    );
    expect(await findAgentDefinition({ agentType: "other:gated-helper", home, pluginDirs: [plugin] })).toBeUndefined();
    expect(await findAgentDefinition({ agentType: "ufix:gated-helper", home, pluginDirs: [] })).toBeUndefined();
  });

  it("gives nothing for a missing or odd pid", () => {
    expect(pluginDirsOf(undefined)).toEqual([]);
    expect(pluginDirsOf("../1")).toEqual([]);
    expect(pluginDirsOf("999999999")).toEqual([]);
    expect(pluginDirsOf(String(process.pid))).toEqual([]);
  });
});

describe("transcriptHoldsFinal (the Stop hook's wait)", () => {
  it("is true once the scope's newest assistant line holds the final message", () => {
    const file = join(scratch, "final.jsonl");
    const ref = scopeOf({ session_id: "s1", transcript_path: file });
    expect(transcriptHoldsFinal(ref, "Final.")).toBe(false);
    writeFileSync(file, jsonl([prompt("go"), assistant("m1", [text("Earlier words.")]), assistant("m1", [call("t1", "Skill", {})])]));
    expect(transcriptHoldsFinal(ref, "Final.")).toBe(false);
    expect(waitForFinalMessage(ref, "Final.", { timeoutMs: 30, intervalMs: 5 })).toBe(false);
    writeFileSync(file, jsonl([assistant("m2", [text("Final.")])]), { flag: "a" });
    expect(transcriptHoldsFinal(ref, "Report…\n\nFinal.")).toBe(true);
    expect(waitForFinalMessage(ref, "Final.", { timeoutMs: 30, intervalMs: 5 })).toBe(true);
  });
});
