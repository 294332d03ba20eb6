/**
 * Old logs and state are pruned when a session ends (SPEC §8): by the user's
 * rule (log_retention_days, log_max_mb) or its defaults, at most once an hour,
 * never the ending session's own files, never on a tool call's path.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DAY_MS } from "../../src/engine/retention.js";
import { autoPrune, PRUNE_EVERY_MS, PRUNE_STAMP, retentionRule } from "../../src/hooks/retention.js";
import { sessionEnd } from "../../src/hooks/session-end.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { fakeContext, preInput, SESSION } from "./fake-context.js";

const root = mkdtempSync(join(tmpdir(), "utility-retention-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const NOW = new Date("2026-12-01T12:00:00Z").getTime();
let n = 0;

function put(file: string, daysAgo: number, bytes = 100): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, "x".repeat(bytes));
  const at = (NOW - daysAgo * DAY_MS) / 1000;
  utimesSync(file, at, at);
}

/** A context whose data folder holds an old session, a 10-day-old one, and the ending session (old too). */
function setup(env: Record<string, string> = {}) {
  const ctx = fakeContext();
  ctx.dataDir = join(root, `data-${++n}`);
  ctx.env = env;
  ctx.clock = () => new Date(NOW);
  put(join(ctx.dataDir, "sessions", "ancient.jsonl"), 45);
  put(join(ctx.dataDir, "sessions", "tenday.jsonl"), 10);
  put(join(ctx.dataDir, "sessions", `${SESSION}.jsonl`), 50);
  return ctx;
}
const kept = (ctx: { dataDir: string }, id: string) => existsSync(join(ctx.dataDir, "sessions", `${id}.jsonl`));

describe("autoPrune", () => {
  it("by default keeps 30 days: the older session goes, the ending one stays whatever its age", () => {
    const ctx = setup();
    expect(autoPrune(ctx, SESSION)).toBeUndefined();
    expect([kept(ctx, "ancient"), kept(ctx, "tenday"), kept(ctx, SESSION)]).toEqual([false, true, true]);
  });

  it("follows the user's settings", () => {
    const ctx = setup({ CLAUDE_PLUGIN_OPTION_LOG_RETENTION_DAYS: "7" });
    autoPrune(ctx, SESSION);
    expect([kept(ctx, "ancient"), kept(ctx, "tenday"), kept(ctx, SESSION)]).toEqual([false, false, true]);
    expect(retentionRule({ CLAUDE_PLUGIN_OPTION_LOG_MAX_MB: "2" })).toEqual({ maxAgeMs: 30 * DAY_MS, maxBytes: 2 * 1024 * 1024 });
  });

  it("an invalid setting takes the default (the warning is PreToolUse's)", () => {
    expect(retentionRule({ CLAUDE_PLUGIN_OPTION_LOG_RETENTION_DAYS: "-3" })).toEqual(retentionRule({}));
  });

  it("runs at most once an hour per data folder", () => {
    const ctx = setup({ CLAUDE_PLUGIN_OPTION_LOG_RETENTION_DAYS: "40" });
    autoPrune(ctx, SESSION);
    expect(kept(ctx, "ancient")).toBe(false);
    put(join(ctx.dataDir, "sessions", "later.jsonl"), 45);
    autoPrune(ctx, SESSION);
    expect(kept(ctx, "later")).toBe(true);
    ctx.clock = () => new Date(NOW + PRUNE_EVERY_MS + 1);
    autoPrune(ctx, SESSION);
    expect(kept(ctx, "later")).toBe(false);
  });

  it("replaces a stamp planted as a link, never writing through it", () => {
    const ctx = setup();
    const victim = join(root, `victim-${n}`);
    writeFileSync(victim, "keep me");
    mkdirSync(ctx.dataDir, { recursive: true });
    symlinkSync(victim, join(ctx.dataDir, PRUNE_STAMP));
    autoPrune(ctx, SESSION);
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    expect(statSync(join(ctx.dataDir, PRUNE_STAMP)).isFile()).toBe(true);
  });

  it("trouble is one line, and costs the hook nothing else", () => {
    const ctx = setup();
    rmSync(join(ctx.dataDir, "sessions"), { recursive: true });
    const outside = join(root, `outside-${n}`);
    put(join(outside, "x.jsonl"), 90);
    symlinkSync(outside, join(ctx.dataDir, "sessions"));
    expect(autoPrune(ctx, SESSION)).toBe(`utility: pruning old logs: ${join(ctx.dataDir, "sessions")} is a symbolic link; left alone`);
    expect(existsSync(join(outside, "x.jsonl"))).toBe(true);
  });
});

describe("where it runs", () => {
  it("SessionEnd prunes, keeping its own session", async () => {
    const ctx = setup();
    const out = await sessionEnd(
      { session_id: SESSION, transcript_path: "/nonexistent/t.jsonl", hook_event_name: "SessionEnd", reason: "other" },
      ctx,
    );
    expect(out).toEqual({});
    expect([kept(ctx, "ancient"), kept(ctx, SESSION)]).toEqual([false, true]);
  });

  it("SessionEnd keeps another session whose gate is on while Claude Code holds its transcript (CLAUDE_CONFIG_DIR/projects)", async () => {
    const config = join(root, `config-${n + 1}`);
    const ctx = setup({ CLAUDE_CONFIG_DIR: config });
    writeFileSync(join(ctx.dataDir, "sessions", "ancient.jsonl"), `${JSON.stringify({ switched: "on" })}\n`);
    utimesSync(join(ctx.dataDir, "sessions", "ancient.jsonl"), (NOW - 45 * DAY_MS) / 1000, (NOW - 45 * DAY_MS) / 1000);
    put(join(config, "projects", "-home-proj", "ancient.jsonl"), 45);
    await sessionEnd({ session_id: SESSION, transcript_path: "/nonexistent/t.jsonl", hook_event_name: "SessionEnd", reason: "other" }, ctx);
    expect(kept(ctx, "ancient")).toBe(true);
    rmSync(join(config, "projects"), { recursive: true });
    ctx.clock = () => new Date(NOW + PRUNE_EVERY_MS + 1);
    await sessionEnd({ session_id: SESSION, transcript_path: "/nonexistent/t.jsonl", hook_event_name: "SessionEnd", reason: "other" }, ctx);
    expect(kept(ctx, "ancient")).toBe(false);
  });

  it("a tool call never prunes", async () => {
    const ctx = setup();
    await preToolUse(preInput("Read", { file_path: "/x" }), ctx);
    expect(kept(ctx, "ancient")).toBe(true);
    expect(existsSync(join(ctx.dataDir, PRUNE_STAMP))).toBe(false);
  });
});
