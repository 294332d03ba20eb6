/**
 * The `utility` launcher in the data folder (SPEC §9: the CLI reachable after
 * a marketplace install in one step): each session start points it at the
 * plugin version running, so one link onto the user's PATH survives updates.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launcherPath, launcherText, refreshLauncher, refreshStatusScript, statusScriptPath } from "../../src/hooks/launcher.js";
import { sessionStart } from "../../src/hooks/session-start.js";
import { writeMarker } from "../../src/state/server-marker.js";
import { fakeContext, SESSION } from "./fake-context.js";

const root = mkdtempSync(join(tmpdir(), "utility-launcher-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A plugin version folder whose CLI prints its own name and its arguments. */
function pluginVersion(name: string): string {
  const dir = join(root, `versions-${++n}`, name);
  mkdirSync(join(dir, "dist"), { recursive: true });
  writeFileSync(join(dir, "dist", "cli.js"), `console.log(${JSON.stringify(name)}, JSON.stringify(process.argv.slice(2)));\n`);
  return dir;
}

const run = (file: string, ...args: string[]) => spawnSync(file, args, { encoding: "utf8" });

describe("the launcher", () => {
  it("is written executable and runs the CLI of the version it names, with the arguments as given", () => {
    const data = join(root, `data-${++n}`);
    const v1 = pluginVersion("0.1.0");
    expect(refreshLauncher(data, v1)).toBe(true);
    const file = launcherPath(data);
    expect(statSync(file).mode & 0o777).toBe(0o700);
    expect(run(file, "status", "--json", "a b").stdout).toBe(`0.1.0 ["status","--json","a b"]\n`);
  });

  it("makes a launcher others could read (0755, as written before) the user's alone, its text unchanged", () => {
    const data = join(root, `data-${++n}`);
    const v1 = pluginVersion("0.1.0");
    refreshLauncher(data, v1);
    chmodSync(launcherPath(data), 0o755);
    expect(refreshLauncher(data, v1)).toBe(true);
    expect(statSync(launcherPath(data)).mode & 0o777).toBe(0o700);
    expect(refreshLauncher(data, v1)).toBe(false);
  });

  it("follows an update: the next session start points it at the new version; the same version is left alone", () => {
    const data = join(root, `data-${++n}`);
    const v1 = pluginVersion("0.1.0");
    const v2 = pluginVersion("0.2.0");
    refreshLauncher(data, v1);
    const link = join(root, `bin-${n}`);
    mkdirSync(link);
    symlinkSync(launcherPath(data), join(link, "utility"));
    expect(refreshLauncher(data, v1)).toBe(false);
    expect(refreshLauncher(data, v2)).toBe(true);
    // The user's one link still works, and now runs the new version.
    expect(run(join(link, "utility"), "--version").stdout).toBe(`0.2.0 ["--version"]\n`);
  });

  it("a version folder that is gone: one line saying how it comes back, exit 2", () => {
    const data = join(root, `data-${++n}`);
    const gone = pluginVersion("0.0.9");
    refreshLauncher(data, gone);
    rmSync(gone, { recursive: true });
    const r = run(launcherPath(data), "status");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^utility: .*cli\.js is gone \(the plugin was updated or removed\); start a Claude Code session once/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("the status line script is copied beside it (0700), again only when the plugin's differs; none in an older plugin", () => {
    const data = join(root, `data-${++n}`);
    const v1 = pluginVersion("0.4.0");
    writeFileSync(join(v1, "statusline.sh"), "#!/bin/sh\necho one\n");
    expect(refreshStatusScript(data, v1)).toBe(true);
    expect(readFileSync(statusScriptPath(data), "utf8")).toBe("#!/bin/sh\necho one\n");
    expect(statSync(statusScriptPath(data)).mode & 0o777).toBe(0o700);
    expect(refreshStatusScript(data, v1)).toBe(false);
    writeFileSync(join(v1, "statusline.sh"), "#!/bin/sh\necho two\n");
    expect(refreshStatusScript(data, v1)).toBe(true);
    expect(execFileSync("sh", [statusScriptPath(data)], { encoding: "utf8" })).toBe("two\n");
    expect(refreshStatusScript(join(root, `data-${++n}`), pluginVersion("0.0.1"))).toBe(false);
  });

  it("quotes a folder with spaces, quotes and dollars as one word", () => {
    const odd = pluginVersion(`it's $HOME "x"`);
    const data = join(root, `data-${++n}`);
    refreshLauncher(data, odd);
    expect(run(launcherPath(data), "x").stdout).toBe(`it's $HOME "x" ["x"]\n`);
    expect(execFileSync("sh", ["-n", launcherPath(data)], { encoding: "utf8" })).toBe("");
  });

  it("replaces a link planted in its place instead of writing through it", () => {
    const data = join(root, `data-${++n}`);
    const victim = join(root, `victim-${n}`);
    writeFileSync(victim, "keep me");
    mkdirSync(join(data, "bin"), { recursive: true });
    symlinkSync(victim, launcherPath(data));
    refreshLauncher(data, pluginVersion("0.1.0"));
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    expect(lstatSync(launcherPath(data)).isSymbolicLink()).toBe(false);
  });

  it("refuses a bin/ folder that is a link out of the data folder", () => {
    const data = join(root, `data-${++n}`);
    const outside = join(root, `outside-${n}`);
    mkdirSync(outside);
    mkdirSync(data);
    symlinkSync(outside, join(data, "bin"));
    expect(() => refreshLauncher(data, pluginVersion("0.1.0"))).toThrow(/is a symbolic link/);
    expect(() => statSync(join(outside, "utility"))).toThrow();
  });

  it("says in its own text how to link it", () => {
    expect(launcherText("/p")).toContain("mkdir -p ~/.local/bin && ln -sf <this file> ~/.local/bin/utility");
  });
});

describe("SessionStart", () => {
  const start = (ctx: ReturnType<typeof fakeContext>) =>
    sessionStart({ session_id: SESSION, transcript_path: "/t.jsonl", hook_event_name: "SessionStart", source: "startup" }, ctx, {
      commandLine: () => [],
      managedSettings: () => [],
      sleep: async () => {},
    });

  it("writes the launcher for the running plugin, then checks the hook server as before", async () => {
    const ctx = fakeContext();
    ctx.dataDir = join(root, `data-${++n}`);
    const version = pluginVersion("0.3.0");
    ctx.env = { CLAUDE_PID: "4242", CLAUDE_PLUGIN_ROOT: version };
    writeMarker(ctx.dataDir, { pid: 1, claudePid: 4242, startedAt: "t" });
    expect(await start(ctx)).toEqual({});
    expect(readFileSync(launcherPath(ctx.dataDir), "utf8")).toBe(launcherText(version));
  });

  it("a launcher it cannot write is one line of trouble; the server check still answers", async () => {
    const ctx = fakeContext();
    ctx.dataDir = join(root, `data-${++n}`);
    mkdirSync(ctx.dataDir);
    writeFileSync(join(ctx.dataDir, "bin"), "a file where the folder goes");
    ctx.env = { CLAUDE_PID: "4242", CLAUDE_PLUGIN_ROOT: pluginVersion("0.3.0") };
    writeMarker(ctx.dataDir, { pid: 1, claudePid: 4242, startedAt: "t" });
    const out = await start(ctx);
    expect(out.output).toBeUndefined();
    expect(out.stderr).toMatch(/^utility: the utility launcher cannot be written in /);
  });
});
