import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StepRowSchema, TaskRowSchema, stepRows, taskRows } from "../../src/export/rows.js";
import { readSessionLog, sessionContext } from "../../src/export/sources.js";
import { nodeSha256Hex } from "../../src/hash/node-sha256.js";
import { promptKey } from "../../src/ingest/prompts.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { cli } from "../support/cli-io.js";
import { promptIdOf, sessionLog } from "./support/team-logs.js";

const SESSION = "d1d1d1d1-0000-4000-8000-000000000001";
const home = mkdtempSync(join(tmpdir(), "utility-export-rows-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function setup(): { file: string; env: Record<string, string> } {
  const file = join(home, "log.jsonl");
  writeFileSync(file, sessionLog({ session: SESSION, day: "2026-12-01", tokensPerStep: 1000 }));
  // A transcript as Claude Code keeps it: the working folder, and the prompt ids whose digests the log holds.
  const log = readSessionLog(file);
  const keys = log.lines.filter((l) => l.record.event === "UserPromptSubmit").map((l) => l.record.promptId);
  const projects = join(home, ".claude", "projects", "-work-shop");
  mkdirSync(projects, { recursive: true });
  const lines = [1, 2].map((task) => ({ type: "user", cwd: "/work/shop", promptId: promptIdOf(SESSION, task) }));
  writeFileSync(join(projects, `${SESSION}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n"));
  expect(keys.length).toBeGreaterThan(0);
  return { file, env: { HOME: home } };
}

describe("export rows", () => {
  it("one step row per record, ids a digest of session and line, the same when read again", () => {
    const { file, env } = setup();
    const log = readSessionLog(file);
    const ctx = sessionContext(env, SESSION, "dev");
    const once = stepRows(log.lines, ctx, nodeSha256Hex);
    const again = stepRows(readSessionLog(file).lines, ctx, nodeSha256Hex);
    expect(once).toHaveLength(25);
    expect(new Set(once.map((r) => r.id)).size).toBe(25);
    expect(again.map((r) => r.id)).toEqual(once.map((r) => r.id));
    for (const row of once) expect(StepRowSchema.safeParse(row).success).toBe(true);
    expect(once.find((r) => r.rule === "exact_repeat")).toMatchObject({
      decision: "refused",
      repeat: 1,
      tool: "Read",
      session_id: SESSION,
    });
  });

  it("takes the project and Claude Code's prompt ids from the transcript", () => {
    const { file, env } = setup();
    const log = readSessionLog(file);
    const ctx = sessionContext(env, SESSION, "dev");
    expect(ctx.project).toBe("shop");
    expect(ctx.promptIds.get(promptKey(promptIdOf(SESSION, 1)))).toBe(promptIdOf(SESSION, 1));
    const rows = stepRows(log.lines, ctx, nodeSha256Hex);
    for (const task of [1, 2])
      expect(rows.filter((r) => r.scope === "main" && r.task === task).every((r) => r.prompt_id === promptIdOf(SESSION, task))).toBe(true);
    // A subagent's calls carry the prompt of the turn that launched it, as Claude Code's own events do.
    expect(rows.filter((r) => r.scope !== "main").every((r) => r.prompt_id === promptIdOf(SESSION, 1))).toBe(true);
  });

  it("one task row per scope and task, its spend as the report counts it", () => {
    const { file, env } = setup();
    const log = readSessionLog(file);
    const tasks = taskRows(
      log.lines.map((l) => l.record),
      sessionContext(env, SESSION, "dev"),
      DEFAULT_PRICES,
    );
    expect(tasks.map((t) => t.id).sort()).toEqual([`${SESSION}/agent:a7f3c2e1/1`, `${SESSION}/main/1`, `${SESSION}/main/2`]);
    for (const row of tasks) expect(TaskRowSchema.safeParse(row).success).toBe(true);
    const main1 = tasks.find((t) => t.id.endsWith("/main/1"))!;
    expect(main1.tokens).toBe(9 * 1000 + 900); // step 9's scope spend: input 9000, output 900
    expect(main1.cost_usd).toBeGreaterThan(0);
    expect(main1.models).toEqual(["claude-sonnet-4-5"]);
  });
});

describe("utility export, usage", () => {
  it("bad arguments: one line, exit 2", async () => {
    for (const argv of [
      ["export"],
      ["export", "--clickhouse", "ftp://x"],
      ["export", "--clickhouse", "http://127.0.0.1:9/", "--developer", ""],
      ["export", "--clickhouse", "http://127.0.0.1:9/", join(home, "missing.jsonl")],
    ]) {
      const run = await cli(argv, { env: { UTILITY_DATA_DIR: join(home, "none") } });
      expect(run.code, argv.join(" ")).toBe(2);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(/^utility export: /);
    }
  });

  it("a server that cannot be reached: one line, exit 1", async () => {
    const { file } = setup();
    const run = await cli(["export", "--clickhouse", "http://127.0.0.1:9/", file], { env: { UTILITY_DATA_DIR: join(home, "none") } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^utility export: cannot reach ClickHouse at http:\/\/127\.0\.0\.1:9/);
  });
});
