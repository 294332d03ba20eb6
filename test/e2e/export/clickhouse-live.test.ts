/**
 * The live ClickHouse export in the real Claude Code (SPEC §17, issue 36):
 * gated sessions with clickhouse_url set write their step rows and task rows
 * into Debian's clickhouse-server on loopback as they happen, without
 * `utility export`: the rows carry the transcript's session, prompt and tool
 * call ids and the project; the SessionEnd record written after the server
 * ended goes with the next session; a `utility export --clickhouse` of the
 * same log afterwards stores nothing new. With a ClickHouse port that never
 * answers, no call is refused or held past its deadline.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeWithOptions, type RunClaudeResult } from "../support/claude.js";
import { text, toolUse, type ScriptBlock } from "../support/scripted-model.js";
import { activate, gateRun, GOOD, id, logOf, markerDir, ok, ran, report, touch } from "../gate/support.js";
import { cli } from "../../support/cli-io.js";
import { startReceiver, type Receiver } from "../../support/otlp-receiver.js";
import { clickHouseSkipReason, startClickHouse, type RunningClickHouse } from "../../export/support/clickhouse-server.js";
import { PRE_TOOL_USE_DEADLINE_MS } from "../../../src/engine/defaults.js";

const skip = clickHouseSkipReason();
if (skip) console.warn(`test/e2e/export/clickhouse-live: skipped: ${skip}`);

const BAD = report("verify", "0.35", GOOD);

async function until(check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
}

type Step = ScriptBlock[];

function session(
  url: string,
  marks: string,
  ids: { bad: string; good: string; more: string },
  extra: Step[] = [],
): Promise<RunClaudeResult> {
  return gateRun({
    home: homeWithOptions({ clickhouse_url: url }),
    prompt: "why does test_parse fail?",
    script: [
      [activate()],
      [text(BAD), touch(join(marks, "bad"), ids.bad)],
      [text(ok("verify", "The run settles it.")), touch(join(marks, "good"), ids.good)],
      [text(ok("verify", "Once more, to be sure.")), touch(join(marks, "more"), ids.more)],
      ...extra,
      [text("Answer.")],
    ],
  });
}

const logFile = (run: RunClaudeResult) =>
  join(run.home, ".claude", "plugins", "data", "utility-inline", "sessions", `${run.sessionId}.jsonl`);

describe.skipIf(skip !== undefined)("the live ClickHouse export", () => {
  let ch: RunningClickHouse;
  let url: string;
  let run: RunClaudeResult;
  let after: RunClaudeResult;
  const marks = markerDir();
  const ids = { bad: id("ch-bad"), good: id("ch-good"), more: id("ch-more") };
  let duringSession = 0;
  const during = join(marks, "during");
  let status = "";

  const rows = async (sql: string) =>
    (await ch.query(`${sql} FORMAT JSONEachRow`))
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const stepCount = async (session: string) =>
    Number((await rows(`SELECT count() AS n FROM utility_steps FINAL WHERE session_id = '${session}'`))[0]?.n ?? 0);

  beforeAll(async () => {
    ch = await startClickHouse();
    // A user in the URL (sent as X-ClickHouse-User) and a database in its query, as a team's would have.
    url = ch.url.replace("http://", "http://default@") + "?database=default";
    // While the session runs, one of its own calls counts the rows ClickHouse holds already.
    const count = toolUse("Bash", {
      command: `sleep 3; curl -s -o ${during} --data-binary "SELECT count() FROM utility_steps" ${ch.url}`,
      description: "count",
    });
    run = await session(url, marks, ids, [[text(ok("verify", "See what is stored so far.")), count]]);
    // Sent by the session's own server, before and as it ended: no utility export has run.
    await until(async () => (await stepCount(run.sessionId!)) >= logOf(run).length - 1, 15_000);
    duringSession = await stepCount(run.sessionId!);
    status = (await cli(["status", run.sessionId!], { env: { HOME: run.home } })).stdout;
    // The next session's server sends what the first's log gained after its server ended (SessionEnd's record).
    after = await gateRun({ home: run.home, prompt: "and now?", script: [[text("Nothing to do.")]] });
    await until(async () => (await stepCount(run.sessionId!)) >= logOf(run).length, 20_000);
  }, 300_000);

  afterAll(async () => {
    after?.cleanup();
    run?.cleanup();
    await ch?.stop();
  });

  it("writes the session's rows as it runs, without utility export, each record once", async () => {
    // Counted by a call of the session itself, 3 s after the calls before it: their rows were in.
    expect(Number(readFileSync(during, "utf8").trim())).toBeGreaterThanOrEqual(6);
    const log = logOf(run);
    expect(duringSession).toBeGreaterThanOrEqual(log.length - 1);
    const got = await rows(`SELECT id, event FROM utility_steps WHERE session_id = '${run.sessionId}'`);
    expect(got.map((r) => r.event).sort()).toEqual(log.map((r) => r.event).sort());
    expect(new Set(got.map((r) => r.id)).size).toBe(got.length);
  });

  it("the rows carry the transcript's session, prompt and tool call ids, the project, the refusal's rule", async () => {
    const transcript = readFileSync(run.transcriptPath!, "utf8");
    const promptIds = [...transcript.matchAll(/"promptId":"([^"]+)"/g)].map((m) => m[1]);
    const calls = await rows(
      `SELECT tool_use_id, prompt_id, project, decision, rule FROM utility_steps FINAL WHERE session_id = '${run.sessionId}' AND event = 'PreToolUse'`,
    );
    for (const toolUseId of Object.values(ids)) expect(calls.map((r) => r.tool_use_id)).toContain(toolUseId);
    for (const call of calls) {
      expect(promptIds).toContain(call.prompt_id);
      expect(call.project).toBe(run.cwd.split("/").at(-1));
    }
    expect(calls.find((r) => r.tool_use_id === ids.bad)).toMatchObject({ decision: "refused", rule: "utility_mismatch" });
    expect(ran(join(marks, "bad"))).toBe(false);
  });

  it("writes each task's spend, one row per task", async () => {
    const tasks = await rows(`SELECT id, scope, refusals, tokens FROM utility_tasks FINAL WHERE session_id = '${run.sessionId}'`);
    expect(tasks.length).toBeGreaterThan(0);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
    const refused = tasks.find((t) => t.scope === "main" && Number(t.refusals) === 1);
    expect(Number(refused?.tokens)).toBeGreaterThan(0);
  });

  it("a utility export --clickhouse of the same log afterwards stores nothing new", async () => {
    const exported = await cli(["export", "--clickhouse", url, "--json", logFile(run)], { env: { HOME: run.home } });
    expect(exported.code, exported.stderr).toBe(0);
    const counts = JSON.parse(exported.stdout);
    expect(counts.steps).toEqual({ sent: 0, stored: logOf(run).length });
    expect(counts.tasks.sent).toBe(0);
  });

  it("utility status counts what was sent, waiting and failed", () => {
    expect(status).toMatch(/ClickHouse export to 127\.0\.0\.1:\d+: [1-9]\d* rows sent, [01] records waiting, 0 failed sends/);
    expect(status).not.toContain("default@");
  });
});

describe("the live ClickHouse export to a port that never answers", () => {
  let silent: Receiver;
  let run: RunClaudeResult;
  const marks = markerDir();
  const ids = { bad: id("ch-silent-bad"), good: id("ch-silent-good"), more: id("ch-silent-more") };

  beforeAll(async () => {
    // An HTTP listener that reads each request and never answers.
    silent = await startReceiver("silent");
    run = await session(`${silent.url}/`, marks, ids);
  }, 300_000);

  afterAll(async () => {
    run?.cleanup();
    await silent?.stop();
  });

  it("refuses no call the gate would pass, and holds none past its deadline", () => {
    expect(ran(join(marks, "good"))).toBe(true);
    expect(ran(join(marks, "more"))).toBe(true);
    const calls = logOf(run).filter((r) => r.event === "PreToolUse");
    expect(calls.filter((r) => r.decision === "refused").map((r) => r.toolUseId)).toEqual([ids.bad]);
    for (const r of calls) expect(r.latencyMs).toBeLessThan(PRE_TOOL_USE_DEADLINE_MS);
    expect(silent.requests.length).toBeGreaterThan(0);
    expect(silent.requests.every((r) => r.answered === 0)).toBe(true);
  });

  it("says in utility status that nothing was sent", async () => {
    const status = await cli(["status", run.sessionId!], { env: { HOME: run.home } });
    expect(status.stdout).toMatch(/ClickHouse export to 127\.0\.0\.1:\d+: 0 rows sent, \d+ records waiting, \d+ failed sends/);
  });
});
