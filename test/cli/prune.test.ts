/**
 * `utility prune`: the retention rule by hand (SPEC §8), in every data folder
 * the CLI reads; the user's settings from Claude Code's settings file unless
 * flags say otherwise; never the session it runs in, never one written today.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DAY_MS } from "../../src/engine/retention.js";
import { cli } from "../support/cli-io.js";

const root = mkdtempSync(join(tmpdir(), "utility-cli-prune-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function put(file: string, daysAgo: number, bytes = 1000): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, "x".repeat(bytes));
  const at = (Date.now() - daysAgo * DAY_MS) / 1000;
  utimesSync(file, at, at);
}

/** A HOME whose installed plugin's data folder holds sessions 40, 20 and 10 days old and one from now. */
function home(options?: Record<string, unknown>): { home: string; data: string } {
  const h = join(root, `home-${++n}`);
  const data = join(h, ".claude", "plugins", "data", "utility-acme");
  put(join(data, "sessions", "s40.jsonl"), 40);
  put(join(data, "state", "s40.json"), 40, 500);
  put(join(data, "sessions", "s20.jsonl"), 20, 2000);
  put(join(data, "sessions", "s10.jsonl"), 10);
  put(join(data, "sessions", "snow.jsonl"), 0, 3000);
  if (options) writeFileSync(join(h, ".claude", "settings.json"), JSON.stringify({ pluginConfigs: { "utility@acme": { options } } }));
  return { home: h, data };
}
const exists = (data: string, id: string) => existsSync(join(data, "sessions", `${id}.jsonl`));

describe("utility prune", () => {
  it("by default keeps 30 days: lists what it deleted and what it kept, in each data folder there is", async () => {
    const { home: h, data } = home();
    const r = await cli(["prune"], { env: { HOME: h } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith(`${data}: keep 30 days, up to 100.0 MB\n`)).toBe(true);
    expect(r.stdout).toMatch(/ {2}deleted s40 \(1\.5 KB, last written \d{4}-\d\d-\d\d\): older than the age limit\n/);
    expect(r.stdout).toContain("  deleted 1 (1.5 KB); kept 3 (5.9 KB)\n");
    expect([exists(data, "s40"), exists(data, "s20"), exists(data, "snow")]).toEqual([false, true, true]);
    expect(existsSync(join(data, "state", "s40.json"))).toBe(false);
  });

  it("--dry-run deletes nothing and says what it would", async () => {
    const { home: h, data } = home();
    const r = await cli(["prune", "--dry-run", "--older-than", "15d"], { env: { HOME: h } });
    expect(r.stdout).toContain("  would delete 2 (3.4 KB); kept 2 (3.9 KB)\n");
    expect([exists(data, "s40"), exists(data, "s20")]).toEqual([true, true]);
  });

  it("--max-size removes the oldest first; today's session stays even over the limit", async () => {
    const { home: h, data } = home();
    const r = await cli(["prune", "--max-size", "1K"], { env: { HOME: h } });
    expect(r.code).toBe(0);
    expect([exists(data, "s40"), exists(data, "s20"), exists(data, "s10"), exists(data, "snow")]).toEqual([false, false, false, true]);
    expect(r.stdout).toMatch(/deleted s20 .*: over the size limit/);
  });

  it("uses the user's settings from Claude Code's settings file; flags win over them", async () => {
    const a = home({ log_retention_days: 15 });
    await cli(["prune"], { env: { HOME: a.home } });
    expect([exists(a.data, "s20"), exists(a.data, "s10")]).toEqual([false, true]);
    const b = home({ log_retention_days: 15 });
    await cli(["prune", "--older-than", "50d"], { env: { HOME: b.home } });
    expect(exists(b.data, "s20")).toBe(true);
  });

  it("never deletes the session it runs in (CLAUDE_CODE_SESSION_ID, set in Claude Code's Bash and ! lines)", async () => {
    const { home: h, data } = home();
    await cli(["prune", "--older-than", "1d"], { env: { HOME: h, CLAUDE_CODE_SESSION_ID: "s20" } });
    expect([exists(data, "s40"), exists(data, "s20"), exists(data, "s10")]).toEqual([false, true, false]);
  });

  it("keeps, and names, a session whose gate is on while Claude Code holds its transcript", async () => {
    const { home: h, data } = home();
    writeFileSync(join(data, "sessions", "s40.jsonl"), `${JSON.stringify({ switched: "on" })}\n`);
    put(join(h, ".claude", "projects", "-home-me-proj", "s40.jsonl"), 40);
    const at = (Date.now() - 40 * DAY_MS) / 1000;
    utimesSync(join(data, "sessions", "s40.jsonl"), at, at);
    const r = await cli(["prune"], { env: { HOME: h } });
    expect(r.stdout).toContain("  kept s40: its gate is on (/utility on) and Claude Code can still continue it\n");
    expect(exists(data, "s40")).toBe(true);
  });

  it("--json: one object with a version, per folder what was removed and why", async () => {
    const { home: h, data } = home();
    const r = await cli(["prune", "--json", "--dry-run"], { env: { HOME: h } });
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ version: 1, dryRun: true });
    const folder = out.folders.find((f: { dataDir: string }) => f.dataDir === data);
    expect(folder.removed.map((x: { id: string; why: string }) => [x.id, x.why])).toEqual([["s40", "age"]]);
    expect(folder.deleted).toEqual([]);
  });

  it("with no data folder yet, says so and exits 0", async () => {
    const h = join(root, `empty-${++n}`);
    mkdirSync(h);
    const r = await cli(["prune"], { env: { HOME: h } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`No data folder yet (looked in ${join(h, ".claude", "plugins", "data", "utility")}): nothing to prune.\n`);
  });

  it("an argument it does not take is one line, exit 2", async () => {
    const r = await cli(["prune", "old"], { env: { HOME: root } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "utility prune: too many arguments for 'prune'. Expected 0 arguments but got 1. Usage: utility prune [--dry-run] [--older-than D] [--max-size S] [--json]\n",
    );
  });

  it.each([
    [["--older-than", "soon"], /^utility prune: --older-than is "soon"; expected a duration such as 30d, 12h or 2w/],
    [["--max-size", "big"], /^utility prune: --max-size is "big"; expected a size such as 100MB/],
  ])("a limit it cannot read is one line, exit 2: %j", async (args, message) => {
    const { home: h, data } = home();
    const r = await cli(["prune", ...args], { env: { HOME: h } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(exists(data, "s40")).toBe(true);
  });
});
