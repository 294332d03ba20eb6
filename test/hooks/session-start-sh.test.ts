/**
 * The SessionStart command hook, src/hooks/session-start.sh, run with `sh` on
 * crafted stdin and environment: a plain start ends at once with no output
 * and no Node; a fork and --strict-mcp-config hand the input to the Node handler (here a stub beside the script that
 * prints what it got); the async `late` run waits for the server's marker
 * and hands off only when none came.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launcherText } from "../../src/hooks/launcher.js";
import { ROOT } from "../support/paths.js";

const root = mkdtempSync(join(tmpdir(), "utility-start-sh-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const STUB =
  'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>process.stdout.write(JSON.stringify({handoff:s,late:process.env.UTILITY_SESSION_START??null})));\n';

/** A plugin folder holding the script and a stub Node handler, and a data folder whose launcher names it (or not). */
function setup(launcher: "current" | "other" | "none" = "current") {
  const plugin = join(root, `plugin-${++n}`);
  const hooks = join(plugin, "dist", "hooks");
  mkdirSync(hooks, { recursive: true });
  copyFileSync(join(ROOT, "src", "hooks", "session-start.sh"), join(hooks, "session-start.sh"));
  writeFileSync(join(hooks, "session-start.js"), STUB);
  const data = join(root, `data-${n}`);
  mkdirSync(join(data, "bin"), { recursive: true });
  if (launcher !== "none")
    writeFileSync(join(data, "bin", "utility"), launcherText(launcher === "current" ? plugin : join(root, "elsewhere")));
  const env = {
    PATH: process.env.PATH!,
    HOME: root,
    CLAUDE_PLUGIN_ROOT: plugin,
    CLAUDE_PLUGIN_DATA: data,
    CLAUDE_PID: String(process.pid),
  };
  const run = (input: object, more: Record<string, string> = {}, args: string[] = []) => {
    const started = process.hrtime.bigint();
    const r = spawnSync("sh", [join(hooks, "session-start.sh"), ...args], {
      input: JSON.stringify(input),
      env: { ...env, ...more },
      encoding: "utf8",
    });
    return { ...r, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };
  return { plugin, data, run };
}

const START = { session_id: "s1", transcript_path: "/t.jsonl", cwd: "/w", hook_event_name: "SessionStart", source: "startup" };

describe("SessionStart in sh", () => {
  it("a plain start: exit 0, nothing printed, no Node", () => {
    const { run } = setup();
    const r = run(START);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("");
  });

  it("a fork hands the input, unchanged, to the Node handler", () => {
    const { run } = setup();
    const input = { ...START, source: "fork" };
    const r = run(input);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ handoff: JSON.stringify(input), late: null });
  });

  it("a launcher missing or naming another plugin folder is the server's to write: no Node at the start", () => {
    for (const launcher of ["other", "none"] as const) expect(setup(launcher).run(START).stdout).toBe("");
  });

  it("--strict-mcp-config on Claude Code's command line (/proc) hands off, so the user is told", async () => {
    if (process.platform !== "linux") return;
    const claude = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)", "--", "-p", "--strict-mcp-config", "hi"], {
      stdio: "ignore",
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const r = setup().run(START, { CLAUDE_PID: String(claude.pid) });
      expect(JSON.parse(r.stdout).handoff).toBe(JSON.stringify(START));
    } finally {
      claude.kill();
    }
  });

  it("a pid that is not a number is not read", () => {
    expect(setup().run(START, { CLAUDE_PID: "1/../self" }).stdout).toBe("");
  });

  it("late: the server's marker is there: exit 0 at once, nothing printed", () => {
    const { data, run } = setup();
    mkdirSync(join(data, "servers"));
    writeFileSync(join(data, "servers", `${process.pid}.json`), "{}");
    const r = run(START, {}, ["late"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
  });

  it("late: no marker after 3 s hands off to the late check; a fork is not marked twice", () => {
    const { run } = setup();
    const r = run({ ...START, source: "fork" }, {}, ["late"]);
    expect(r.ms).toBeGreaterThanOrEqual(3000);
    expect(JSON.parse(r.stdout)).toEqual({ handoff: JSON.stringify({ ...START, source: "fork" }), late: "late" });
  }, 15000);

  it("late: with --strict-mcp-config the start told already: nothing", async () => {
    if (process.platform !== "linux") return;
    const claude = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)", "--", "--strict-mcp-config"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const r = setup().run(START, { CLAUDE_PID: String(claude.pid) }, ["late"]);
      expect(r.stdout).toBe("");
      expect(r.ms).toBeLessThan(2000);
    } finally {
      claude.kill();
    }
  });
});
