/**
 * The live ClickHouse export set by an organization (SPEC §17, issue 36), in
 * the real client: `clickhouse_url` in the managed settings file (an overlay
 * on /etc in the run's own mount namespace, test/e2e/support/managed-settings.ts),
 * the user's own setting pointing at a port where nothing listens. Claude
 * Code passes the managed value over the user's, so the session's rows reach
 * the organization's ClickHouse; `/utility status` names the setting as the
 * organization's without its value (it may hold a password).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { assertRunOk, homeWithOptions, runClaude, type RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { managedSettingsUnavailable, withManagedSettings, type ManagedSettings } from "../support/managed-settings.js";
import { id, logOf, markerDir, touch } from "../gate/support.js";
import { clickHouseSkipReason, startClickHouse, type RunningClickHouse } from "../../export/support/clickhouse-server.js";

const skip = managedSettingsUnavailable() ?? clickHouseSkipReason();
if (skip) console.warn(`SKIPPED test/e2e/export/clickhouse-managed.test.ts: ${skip}`);

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
}

describe.skipIf(skip !== undefined)("clickhouse_url set by the organization", () => {
  let ch: RunningClickHouse;
  let managed: ManagedSettings;
  let run: RunClaudeResult;
  let status: RunClaudeResult;
  const marks = markerDir();
  const ids = [id("ch-org-1"), id("ch-org-2")];
  let stored = 0;
  let logged = 0;

  beforeAll(async () => {
    ch = await startClickHouse();
    const url = `${ch.url.replace("http://", "http://default:@")}?database=default`;
    managed = withManagedSettings({
      "managed-settings.json": { pluginConfigs: { "utility@inline": { options: { clickhouse_url: url } } } },
    });
    run = await runClaude({
      prompt: "two steps",
      pluginDir: ROOT,
      home: homeWithOptions({ clickhouse_url: "http://127.0.0.1:9/" }),
      allowedTools: ["Bash"],
      wrap: managed.wrap,
      timeoutMs: 120_000,
      script: [...ids.map((call, i) => [touch(join(marks, String(i)), call)]), [text("Done.")]],
    });
    const count = async () =>
      Number((await ch.query(`SELECT count() FROM utility_steps FINAL WHERE session_id = '${run.sessionId}'`)).trim());
    await until(async () => (await count()) >= logOf(run).length - 1, 15_000);
    stored = await count();
    logged = logOf(run).length;
    status = await runClaude({
      prompt: "/utility status",
      pluginDir: ROOT,
      home: run.home,
      cwd: run.cwd,
      wrap: managed.wrap,
      extraArgs: ["--resume", run.sessionId!],
      whenExhausted: "error",
      script: [],
    });
  }, 240_000);

  afterAll(async () => {
    status?.cleanup();
    run?.cleanup();
    managed?.cleanup();
    await ch?.stop();
  });

  it("writes the session's rows into the organization's ClickHouse, not the user's", () => {
    // All but SessionEnd's record perhaps, written after the server ended (the next session's server sends it).
    expect(stored).toBeGreaterThanOrEqual(logged - 1);
    expect(logOf(run).filter((r) => r.event === "PreToolUse" && ids.includes(r.toolUseId as string))).toHaveLength(2);
  });

  it("/utility status names it as the organization's, never its value, and counts what was sent", () => {
    const result = assertRunOk(status);
    expect(result.result).toContain(
      "set by your organization (managed settings; yours cannot loosen them): clickhouse_url (set, not shown)",
    );
    expect(result.result).toMatch(/ClickHouse export to 127\.0\.0\.1:\d+: [1-9]\d* rows sent/);
    expect(result.result).not.toContain("default:@");
  });
});

if (skip !== undefined)
  describe("clickhouse_url in managed settings in the real client", () => {
    it.skip(`cannot run here: ${skip}`, () => {});
  });
