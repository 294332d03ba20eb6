/**
 * Installed the way users install it (SPEC §1): a fresh clone of the
 * committed HEAD, `claude plugin marketplace add <clone>`, `claude plugin
 * install utility@utility-marketplace`, then a session with no --plugin-dir,
 * in which the gated example gates as it does under --plugin-dir.
 *
 * It tests what is committed: uncommitted work is not in the clone.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { assertRunOk, CLAUDE_BIN, claudeEnv, makeScratchHome, readJsonl, runClaude, type RunClaudeResult } from "../support/claude.js";
import { startNetTrap, type NetTrap } from "../support/net-trap.js";
import { text } from "../support/scripted-model.js";
import { activate, id, markerDir, ok, ran, resultFor, touch } from "./support.js";

const MARKETPLACE = JSON.parse(readFileSync(join(ROOT, ".claude-plugin", "marketplace.json"), "utf8")).name as string;
const VERSION = JSON.parse(readFileSync(join(ROOT, ".claude-plugin", "plugin.json"), "utf8")).version as string;

/** Kilobytes and files under a folder. */
function usage(dir: string): { kb: number; files: number } {
  const kb = Number(execFileSync("du", ["-sk", dir], { encoding: "utf8" }).split(/\s/)[0]);
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  return { kb, files };
}

describe("installed from a fresh clone through the marketplace", () => {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-install-")));
  const clone = join(scratch, "utility");
  const home = makeScratchHome();
  const marks = markerDir();
  const ids = { bare: id("inst_bare"), valid: id("inst_valid") };
  let trap: NetTrap;
  /** `claude plugin …`, async so that the trap proxy (in this process) can answer it. */
  const cli = async (...args: string[]) =>
    (await promisify(execFile)(CLAUDE_BIN, args, { cwd: scratch, env: claudeEnv(home, "http://127.0.0.1:9", trap.env()), encoding: "utf8", timeout: 30_000 })).stdout;
  let run: RunClaudeResult;
  let listed = "";

  beforeAll(async () => {
    trap = await startNetTrap();
    execFileSync("git", ["clone", "--quiet", ROOT, clone]);
    await cli("plugin", "marketplace", "add", clone);
    await cli("plugin", "install", `utility@${MARKETPLACE}`);
    listed = await cli("plugin", "list");
    run = await runClaude({
      prompt: "why does test_parse fail?",
      home,
      allowedTools: ["Bash"],
      whenExhausted: "error",
      script: [
        [activate()],
        [text("Running it."), touch(join(marks, "bare"), ids.bare)],
        [text(ok("verify", "Run the failing test.")), touch(join(marks, "valid"), ids.valid)],
        [text("Installed and gated.")],
      ],
    });
  }, 90_000);
  afterAll(async () => {
    await trap?.close();
    run?.cleanup();
    rmSync(home, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it("the clone carries the built hooks (dist/ is committed)", () => {
    expect(existsSync(join(clone, "dist", "hooks", "pre-tool-use.js"))).toBe(true);
    expect(run.argv).not.toContain("--plugin-dir");
    expect(listed).toContain(`utility@${MARKETPLACE}`);
    // Adding, installing and listing stayed on this machine.
    expect(trap.attempts).toEqual([]);
    expect(run.outbound).toEqual([]);
  });

  it("gates the example skill: no report refused, a valid report passes", () => {
    const result = assertRunOk(run);
    expect(result.result).toBe("Installed and gated.");
    expect(result.permission_denials.map((d) => d.tool_use_id)).toEqual([ids.bare]);
    const main = run.model.mainRequests();
    expect(resultFor(main, ids.bare).text).toMatch(/^PreToolUse:Bash hook error: utility gate: No action report before this Bash call/);
    expect(resultFor(main, ids.valid).is_error).toBe(false);
    expect(ran(join(marks, "bare"))).toBe(false);
    expect(ran(join(marks, "valid"))).toBe(true);
  });

  it("logs under the installed plugin's data folder, gated by the clone's skill", () => {
    const log = readJsonl(join(home, ".claude", "plugins", "data", `utility-${MARKETPLACE}`, "sessions", `${run.sessionId}.jsonl`));
    const pre = log.filter((r) => r.event === "PreToolUse");
    expect(pre.map((r) => [r.toolUseId, r.decision, r.rule])).toEqual([
      [ids.bare, "refused", "no_report"],
      [ids.valid, "passed", undefined],
    ]);
    // A local-folder marketplace with a "./" source runs the plugin from the folder itself.
    expect(pre[0].gatedBy).toBe(join(clone, "skills", "gated-example", "SKILL.md"));
  });

  it("puts a copy in the plugin cache; its size is reported", () => {
    const cached = join(home, ".claude", "plugins", "cache", MARKETPLACE, "utility", VERSION);
    expect(existsSync(join(cached, "dist", "hooks", "pre-tool-use.js"))).toBe(true);
    const { kb, files } = usage(cached);
    console.log(`plugin cache copy: ${cached.replace(home, "~")}: ${kb} KB on disk, ${files} files (clone: ${usage(clone).kb} KB with .git)`);
    // Issue 2: an install must stay under 5 MB; the root has no dependencies, so nothing is installed beside the files.
    expect(kb).toBeLessThan(5 * 1024);
    expect(existsSync(join(cached, "node_modules"))).toBe(false);
  });
});
