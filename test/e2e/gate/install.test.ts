/**
 * Installed the way users install it (SPEC §1): a fresh clone of the
 * committed HEAD, `claude plugin marketplace add <clone>`, `claude plugin
 * install utility@utility-marketplace`, then a session with no --plugin-dir,
 * in which the gated example (installed as a project skill) gates as it does
 * under --plugin-dir.
 *
 * It tests what is committed: uncommitted work is not in the clone. The clone
 * is made to look like one that has run its own tests (the development tools
 * linked in, `.tmp/`, a stray root `package-lock.json`): Claude Code copies
 * the plugin's source folder whole, following links, and honours no ignore
 * file (docs/claude-code-facts.md), so only the layout keeps those out.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOptIn } from "../../../src/optin/read.js";
import { ROOT } from "../../support/paths.js";
import { assertRunOk, CLAUDE_BIN, claudeEnv, makeScratchHome, readJsonl, runClaude, type RunClaudeResult } from "../support/claude.js";
import { startNetTrap, type NetTrap } from "../support/net-trap.js";
import { requestText, text, toolUse } from "../support/scripted-model.js";
import { activate, id, markerDir, ok, ran, resultFor, touch } from "./support.js";

const MARKETPLACE_JSON = JSON.parse(readFileSync(join(ROOT, ".claude-plugin", "marketplace.json"), "utf8")) as {
  name: string;
  plugins: Array<{ source: string }>;
};
const MARKETPLACE = MARKETPLACE_JSON.name;
/** The plugin's own folder in the repository (the marketplace entry's source). */
const PLUGIN = join(ROOT, MARKETPLACE_JSON.plugins[0]!.source);
const VERSION = JSON.parse(readFileSync(join(PLUGIN, ".claude-plugin", "plugin.json"), "utf8")).version as string;
/** What Claude Code loads and runs, and nothing else. */
const SHIPPED = [".claude-plugin", "LICENSE", "README.md", "agents", "bin", "dist", "hooks", "skills", "statusline.sh"];

/** Makes a clone look like one that has run `npm test`: dev tools linked in, test output, a stray lockfile. */
function dirtyLikeATestedClone(clone: string): void {
  symlinkSync(realpathSync(join(ROOT, "dev", "node_modules")), join(clone, "dev", "node_modules"));
  symlinkSync(join("dev", "node_modules"), join(clone, "node_modules"));
  mkdirSync(join(clone, ".tmp"), { recursive: true });
  writeFileSync(join(clone, ".tmp", "vitest-results.json"), "x".repeat(2 * 1024 * 1024));
  writeFileSync(join(clone, "package-lock.json"), JSON.stringify({ name: "utility", lockfileVersion: 3, packages: {} }));
}

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
  const ids = { bare: id("inst_bare"), valid: id("inst_valid"), version: id("inst_version") };
  let trap: NetTrap;
  /** `claude plugin …`, async so that the trap proxy (in this process) can answer it. */
  const cli = async (...args: string[]) =>
    (
      await promisify(execFile)(CLAUDE_BIN, args, {
        cwd: scratch,
        env: claudeEnv(home, "http://127.0.0.1:9", trap.env()),
        encoding: "utf8",
        timeout: 30_000,
      })
    ).stdout;
  let run: RunClaudeResult;
  let fresh: RunClaudeResult;
  let status: RunClaudeResult;
  let listed = "";

  beforeAll(async () => {
    trap = await startNetTrap();
    execFileSync("git", ["clone", "--quiet", ROOT, clone]);
    dirtyLikeATestedClone(clone);
    await cli("plugin", "marketplace", "add", clone);
    await cli("plugin", "install", `utility@${MARKETPLACE}`);
    listed = await cli("plugin", "list");
    fresh = await runClaude({
      prompt: "hello",
      home,
      allowedTools: ["Bash"],
      // The plugin's bin/ is on PATH for the Bash tool: `utility` runs with no step of the user's.
      script: [[toolUse("Bash", { command: "utility --version" }, ids.version)], [text("Hi.")]],
    });
    status = await runClaude({ prompt: "/utility status", home, cwd: fresh.cwd, extraArgs: ["--resume", fresh.sessionId!], script: [] });
    run = await runClaude({
      prompt: "why does test_parse fail?",
      home,
      // The example is not part of the plugin: a skill author installs it as a project skill.
      projectSkills: [join(clone, "examples", "skills", "gated-example")],
      allowedTools: ["Bash"],
      whenExhausted: "error",
      script: [
        [activate()],
        [text("Running it."), touch(join(marks, "bare"), ids.bare)],
        [text(ok("verify", "Run the failing test.")), touch(join(marks, "valid"), ids.valid)],
        [text("Installed and gated.")],
      ],
    });
  }, 150_000);
  afterAll(async () => {
    await trap?.close();
    run?.cleanup();
    status?.cleanup();
    fresh?.cleanup();
    rmSync(home, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it("the clone carries the built hooks (dist/ is committed)", () => {
    expect(existsSync(join(clone, relative(ROOT, PLUGIN), "dist", "server.js"))).toBe(true);
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
    expect(pre[0].gatedBy).toBe(join(run.cwd, ".claude", "skills", "gated-example", "SKILL.md"));
  });

  it("a fresh install lists no gated skill for the model: only the plugin's own, none of which opts in", () => {
    assertRunOk(fresh);
    const listing = requestText(fresh.model.mainRequests()[0]!);
    const cached = join(home, ".claude", "plugins", "cache", MARKETPLACE, "utility", VERSION);
    const skills = readdirSync(join(cached, "skills")).sort();
    expect(skills).toEqual(["utility", "utility-scoring"]);
    // `/utility` is the user's to type (disable-model-invocation): only the scoring skill is listed for the model.
    expect(listing).toContain("utility:utility-scoring");
    expect(listing).not.toMatch(/utility:utility(?!-)/);
    for (const name of skills) {
      const read = readOptIn(join(cached, "skills", name, "SKILL.md"));
      expect(read.ok && read.optIn.gated).toBe(false);
    }
    expect(listing).not.toContain("gated-example");
  });

  it("/utility status answers as typed in an installed session, on screen", () => {
    expect(assertRunOk(status).result).toMatch(
      new RegExp(`^UserPromptExpansion operation blocked by hook:\nutility status, session ${fresh.sessionId}\n`),
    );
    expect(status.model.mainRequests()).toEqual([]);
  });

  it("`utility` runs inside Claude Code with no step (the plugin's bin/ is on the Bash tool's PATH)", () => {
    const result = resultFor(fresh.model.mainRequests(), ids.version);
    expect(result.is_error).toBe(false);
    expect(result.text.trim()).toBe(VERSION);
  });

  it("`utility` in the user's own shell: one link to the launcher in the data folder, which names no version", () => {
    const launcher = join(home, ".claude", "plugins", "data", `utility-${MARKETPLACE}`, "bin", "utility");
    // It names the folder Claude Code ran the plugin from: with a local folder's marketplace, the folder itself
    // (docs/claude-code-facts.md); from a git marketplace, the versioned cache copy. The launcher's own path names neither.
    expect(readFileSync(launcher, "utf8")).toContain(`cli='${join(PLUGIN.replace(ROOT, clone), "dist", "cli.js")}'`);
    // The README's one step, as written, on a home without ~/.local/bin (issue 34: `ln -s` alone failed there).
    const step = readFileSync(join(ROOT, "README.md"), "utf8")
      .split("\n")
      .find((line) => line.includes("~/.local/bin/utility") && line.includes("ln "));
    expect(step).toContain(`~/.claude/plugins/data/utility-${MARKETPLACE}/bin/utility`);
    const bin = join(home, ".local", "bin");
    expect(existsSync(bin)).toBe(false);
    execFileSync("sh", ["-c", step!], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home } });
    const shell = (args: string[]) =>
      execFileSync("utility", args, { encoding: "utf8", env: { PATH: `${bin}:${process.env.PATH}`, HOME: home } });
    expect(shell(["--version"]).trim()).toBe(VERSION);
    expect(shell(["status"])).toMatch(/^utility status, session [0-9a-f-]{36}\n/);
  });

  it("puts only what Claude Code loads into the plugin cache, under 1 MB, from a clone that has run its tests", () => {
    const cached = join(home, ".claude", "plugins", "cache", MARKETPLACE, "utility", VERSION);
    expect(existsSync(join(cached, "dist", "server.js"))).toBe(true);
    expect(
      readdirSync(cached)
        .filter((e) => e !== ".in_use")
        .sort(),
    ).toEqual(SHIPPED);
    const { kb, files } = usage(cached);
    console.log(
      `plugin cache copy: ${cached.replace(home, "~")}: ${kb} KB on disk, ${files} files (clone: ${usage(clone).kb} KB with .git)`,
    );
    // Issue 11: an install carries only the plugin, under 1 MB, whatever the clone holds beside it.
    expect(kb).toBeLessThan(1024);
  });

  // Last: it removes the install the other tests read.
  it("uninstall with --keep-data keeps the step logs but not the settings, as the README says (issue 34, item 8)", async () => {
    const settingsFile = join(home, ".claude", "settings.json");
    const configure = promisify(execFile)(CLAUDE_BIN, ["plugin", "configure", `utility@${MARKETPLACE}`, "--values-stdin"], {
      cwd: scratch,
      env: claudeEnv(home, "http://127.0.0.1:9", trap.env()),
      encoding: "utf8",
      timeout: 30_000,
    });
    configure.child.stdin?.end(JSON.stringify({ token_budget: "200000" }));
    await configure;
    const options = () => JSON.parse(readFileSync(settingsFile, "utf8")).pluginConfigs?.[`utility@${MARKETPLACE}`]?.options;
    expect(options()).toMatchObject({ token_budget: expect.anything() });
    await cli("plugin", "uninstall", `utility@${MARKETPLACE}`, "--keep-data");
    expect(existsSync(join(home, ".claude", "plugins", "data", `utility-${MARKETPLACE}`, "sessions"))).toBe(true);
    console.log("settings after uninstall --keep-data:", JSON.stringify(options()));
    expect(options()).toBeUndefined();
  });
});
