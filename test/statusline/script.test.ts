// The statusLine command without Node (SPEC §11): plugin/statusline.sh, run by
// `sh` on files made here as the server writes them (src/statusline/line-file.ts),
// in each state it must tell apart: fresh, stale, the server gone, the plugin
// disabled or not running, no session yet, and input that is not Claude Code's.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lineFilePath, lineFileText, parseLineFile, writeLineFile } from "../../src/statusline/line-file.js";
import { writeMarker } from "../../src/state/server-marker.js";
import { PlantedLinkError } from "../../src/state/paths.js";
import { PLUGIN_ROOT } from "../support/paths.js";
import { tempDir } from "../transcript/helpers.js";

const SCRIPT = join(PLUGIN_ROOT, "statusline.sh");
const LINE = "utility · task 1 step 2/10 · 30 tok · $0.000 · gated (/utility on) · last verify";
/** What Claude Code 2.1.328 sends a statusLine command after a turn (docs/claude-code-facts.md, "statusLine"). */
const claudeInput = (sessionId: string, projectDir = "/p") =>
  JSON.stringify({
    session_id: sessionId,
    transcript_path: `/home/u/.claude/projects/-p/${sessionId}.jsonl`,
    cwd: projectDir,
    effort: { level: "medium" },
    model: { id: "claude-opus-5-5", display_name: "Opus 5.5" },
    workspace: { current_dir: projectDir, project_dir: projectDir, added_dirs: [] },
    version: "2.1.328",
    output_style: { name: "default" },
    cost: { total_cost_usd: 0, total_duration_ms: 787, total_api_duration_ms: 0, total_lines_added: 0, total_lines_removed: 0 },
    context_window: {
      total_input_tokens: 0,
      total_output_tokens: 0,
      context_window_size: 1000000,
      current_usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      used_percentage: null,
      remaining_percentage: null,
    },
    exceeds_200k_tokens: false,
    fast_mode: false,
    thinking: { enabled: true },
    prompt_id: "p-1",
  });

const home = tempDir();
afterAll(() => home.remove());
let n = 0;

/** A scratch HOME with the plugin's data folder where a marketplace install has it. */
function scratch() {
  const root = join(home.path, `h${++n}`);
  const data = join(root, ".claude", "plugins", "data", "utility-utility-marketplace");
  mkdirSync(join(data, "state"), { recursive: true });
  return { root, data };
}

/** A pid that ran and is gone. */
function deadPid(): number {
  const done = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
  return Number(done.stdout.trim());
}

/** Runs the script with `shell` (sh unless told), as Claude Code would: the JSON on stdin, HOME and PATH only. */
function run(input: string, homeDir: string, shell = "sh", env: Record<string, string> = {}) {
  const done = spawnSync(shell, [SCRIPT], {
    input,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: homeDir, ...env },
    encoding: "utf8",
  });
  return { code: done.status, stdout: done.stdout, stderr: done.stderr };
}

/** The script's parent is this process: a live server marked for it is "the server of the Claude Code that runs the command". */
const markHere = (data: string, pid = process.pid) => writeMarker(data, { pid, claudePid: process.pid, startedAt: "t" });

describe("the line file", () => {
  it("is a header the script reads (server pid, Claude Code pid, time) and one line; read back whole", () => {
    const at = new Date(2026, 11, 5, 7, 8, 9);
    const text = lineFileText({ serverPid: 12, claudePid: 34, writtenAt: at, line: "a\nb" });
    expect(text).toBe(`utility-statusline 1 12 34 ${Math.floor(at.getTime() / 1000)} 07:08:09\na b\n`);
    expect(parseLineFile(text)).toEqual({ serverPid: 12, claudePid: 34, writtenAt: at, line: "a b" });
    expect(parseLineFile("utility · x\n")).toBeUndefined();
  });

  it("is written whole, 0600, in a 0700 folder; a link planted in its place is replaced, a planted folder link refused", () => {
    const { data } = scratch();
    const file = writeLineFile(data, "s1", { serverPid: 1, claudePid: 2, writtenAt: new Date(), line: LINE });
    expect(file).toBe(lineFilePath(data, "s1"));
    expect(parseLineFile(readFileSync(file, "utf8"))!.line).toBe(LINE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, "statusline")).mode & 0o777).toBe(0o700);
    const outside = join(home.path, `outside-${n}`);
    writeFileSync(outside, "keep");
    const planted = lineFilePath(data, "s2");
    symlinkSync(outside, planted);
    writeLineFile(data, "s2", { serverPid: 1, claudePid: 2, writtenAt: new Date(), line: LINE });
    expect(lstatSync(planted).isSymbolicLink()).toBe(false);
    expect(readFileSync(outside, "utf8")).toBe("keep");

    const other = scratch();
    mkdirSync(join(home.path, `elsewhere-${n}`));
    symlinkSync(join(home.path, `elsewhere-${n}`), join(other.data, "statusline"));
    expect(() => writeLineFile(other.data, "s1", { serverPid: 1, claudePid: 2, writtenAt: new Date(), line: LINE })).toThrow(
      PlantedLinkError,
    );
    expect(() => lineFilePath(data, "../x")).toThrow(/not a safe id/);
  });
});

describe.each(["sh", "bash"])("plugin/statusline.sh under %s", (shell) => {
  it("fresh: prints the line the server wrote, from Claude Code's real input", () => {
    const { root, data } = scratch();
    writeLineFile(data, "fresh-1", { serverPid: process.pid, claudePid: process.pid, writtenAt: new Date(), line: LINE });
    expect(run(claudeInput("fresh-1"), root, shell)).toEqual({ code: 0, stdout: `${LINE}\n`, stderr: "" });
    // Pretty-printed JSON, as another caller may send it, and a state file no newer than the line.
    writeFileSync(join(data, "state", "fresh-1.json"), "{}");
    const written = new Date(Date.now() - 60_000);
    utimesSync(join(data, "state", "fresh-1.json"), written, written);
    expect(run(JSON.stringify(JSON.parse(claudeInput("fresh-1")), null, 2), root, shell).stdout).toBe(`${LINE}\n`);
  });

  it("prints the line byte for byte: backslashes and percent signs are not escapes", () => {
    const { root, data } = scratch();
    const odd = "utility · task 1 step 0 · gated (a\\nb \\c 100%s) · last verify";
    writeLineFile(data, "odd-1", { serverPid: process.pid, claudePid: 1, writtenAt: new Date(), line: odd });
    expect(run(claudeInput("odd-1"), root, shell).stdout).toBe(`${odd}\n`);
  });

  it("stale: the session's state changed after the line was written; says since when, and shows it marked", () => {
    const { root, data } = scratch();
    const file = writeLineFile(data, "stale-1", {
      serverPid: process.pid,
      claudePid: process.pid,
      writtenAt: new Date(2026, 0, 1, 9, 30, 0),
      line: LINE,
    });
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    writeFileSync(join(data, "state", "stale-1.json"), "{}");
    expect(run(claudeInput("stale-1"), root, shell).stdout).toBe(
      "utility · stale (state changed since 09:30:00) · task 1 step 2/10 · 30 tok · $0.000 · gated (/utility on) · last verify\n",
    );
  });

  it("server gone: the pid that wrote it runs no more; no stale gate is shown", () => {
    const { root, data } = scratch();
    const pid = deadPid();
    writeLineFile(data, "gone-1", { serverPid: pid, claudePid: 1, writtenAt: new Date(2026, 0, 1, 9, 30, 0), line: LINE });
    const out = run(claudeInput("gone-1"), root, shell);
    expect(out).toEqual({
      code: 0,
      stdout: `utility · hook server gone (pid ${pid}, line from 09:30:00): Claude Code starts it again at the next hook call\n`,
      stderr: "",
    });
    // A new server for this Claude Code (a reload): the old line is marked stale until that server answers.
    markHere(data);
    expect(run(claudeInput("gone-1"), root, shell).stdout).toBe(
      "utility · stale (hook server restarted; line from 09:30:00) · task 1 step 2/10 · 30 tok · $0.000 · gated (/utility on) · last verify\n",
    );
  });

  it("disabled: enabledPlugins says false (user or project settings, the most specific first); never a stale gate", () => {
    const { root, data } = scratch();
    const project = join(root, "project");
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(
      join(root, ".claude", "settings.json"),
      JSON.stringify({ enabledPlugins: { "utility@utility-marketplace": false } }, null, 2),
    );
    // No line at all (disabled from the start: no hook ran), and a line whose server is gone (disabled mid-session).
    expect(run(claudeInput("off-1", project), root, shell).stdout).toBe(
      `utility · off: the plugin is disabled (enabledPlugins in ${join(root, ".claude", "settings.json")}); nothing is checked or counted\n`,
    );
    writeLineFile(data, "off-1", { serverPid: deadPid(), claudePid: 1, writtenAt: new Date(), line: LINE });
    expect(run(claudeInput("off-1", project), root, shell).stdout).toMatch(/^utility · off: the plugin is disabled/);
    // The project turns it on again: the project's settings decide.
    writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ enabledPlugins: { "utility@utility-marketplace": true } }));
    expect(run(claudeInput("off-1", project), root, shell).stdout).toMatch(/^utility · hook server gone/);
    // Not loaded (no hook server for this Claude Code, nothing written): says so, not "no tool call seen yet".
    writeFileSync(join(root, ".claude", "settings.json"), "{}");
    expect(run(claudeInput("never-1", project), root, shell).stdout).toBe(
      "utility · not running in this session: no hook server (the plugin is off, or still starting)\n",
    );
  });

  it("no session yet: the server of this Claude Code runs and has written nothing for it", () => {
    const { root, data } = scratch();
    markHere(data);
    expect(run(claudeInput("new-1"), root, shell).stdout).toBe("utility · no tool call seen yet in this session\n");
    // State from before this version (no line yet): the next answer writes one.
    writeFileSync(join(data, "state", "new-1.json"), "{}");
    expect(run(claudeInput("new-1"), root, shell).stdout).toBe(
      "utility · no current line for this session yet: the next hook answer writes it\n",
    );
    // A marker whose server is gone is no server.
    markHere(data, deadPid());
    expect(run(claudeInput("new-2"), root, shell).stdout).toMatch(/^utility · not running in this session/);
  });

  it("bad stdin: says what is wrong, exit 2; an unsafe session id is named, never a path", () => {
    const { root } = scratch();
    for (const [input, why] of [
      ["", "stdin is not JSON"],
      ["not json", "stdin is not JSON"],
      ["{}", "stdin has no session_id"],
      ['{"session_id": 12}', "stdin has no session_id"],
      ['{"session_id": ""}', "stdin has no session_id"],
    ] as const) {
      const line = `utility · statusline: ${why} (expected the object Claude Code hands a statusLine command)\n`;
      expect(run(input, root, shell), input).toEqual({ code: 2, stdout: line, stderr: line });
    }
    expect(run(JSON.stringify({ session_id: "../../etc" }), root, shell).stdout).toMatch(
      /^utility · session id "..\/..\/etc" is not a safe id/,
    );
    expect(run(JSON.stringify({ session_id: "a b" }), root, shell).stdout).toMatch(/is not a safe id/);
  });

  it("finds the data folder as src/state/locate.ts does: UTILITY_DATA_DIR alone when set, else the plugin's folders", () => {
    const { root, data } = scratch();
    writeLineFile(data, "loc-1", { serverPid: process.pid, claudePid: 1, writtenAt: new Date(), line: LINE });
    const elsewhere = join(root, "elsewhere");
    expect(run(claudeInput("loc-1"), root, shell, { UTILITY_DATA_DIR: elsewhere }).stdout).toMatch(/^utility · not running/);
    writeLineFile(elsewhere, "loc-1", { serverPid: process.pid, claudePid: 1, writtenAt: new Date(), line: "utility · elsewhere" });
    expect(run(claudeInput("loc-1"), root, shell, { UTILITY_DATA_DIR: elsewhere }).stdout).toBe("utility · elsewhere\n");
    const inline = join(root, ".claude", "plugins", "data", "utility-inline");
    writeLineFile(inline, "loc-2", { serverPid: process.pid, claudePid: 1, writtenAt: new Date(), line: "utility · inline" });
    expect(run(claudeInput("loc-2"), root, shell).stdout).toBe("utility · inline\n");
  });
});

describe("the script as shipped", () => {
  it("is plain POSIX sh: dash and bash --posix parse it, and the plugin ships it", () => {
    expect(existsSync(SCRIPT)).toBe(true);
    for (const shell of [
      ["sh", "-n"],
      ["bash", "--posix", "-n"],
    ]) {
      const done = spawnSync(shell[0]!, [...shell.slice(1), SCRIPT], { encoding: "utf8" });
      expect(done.status, done.stderr).toBe(0);
    }
    // No Node on any path: no line of it runs node.
    expect(readFileSync(SCRIPT, "utf8")).not.toMatch(/^[^#]*\bnode\b/m);
  });
});
