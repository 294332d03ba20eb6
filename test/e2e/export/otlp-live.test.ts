/**
 * The live OTLP export in the real Claude Code (SPEC §17, issue 36): gated
 * sessions with otlp_endpoint set send their step records, refusals and
 * task's spend to a loopback OTLP/HTTP receiver, whose bodies are decoded
 * with the official OTLP protobuf definitions (test/support/otlp-receiver.ts).
 * The receiver is down (503) when the first batch comes and back soon after:
 * every record of the step log arrives once, carrying the session, prompt
 * and tool call ids of the transcript, the project and the resource
 * attributes set. With a listener that never answers, no call is refused or
 * held past its deadline.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeWithOptions, type RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { activate, gateRun, GOOD, id, logOf, markerDir, ok, ran, report, touch } from "../gate/support.js";
import { cli } from "../../support/cli-io.js";
import { startReceiver, type ReceivedRecord, type Receiver } from "../../support/otlp-receiver.js";
import { PRE_TOOL_USE_DEADLINE_MS } from "../../../src/engine/defaults.js";

const BAD = report("verify", "0.35", GOOD);

function options(receiver: Receiver): Record<string, string> {
  return {
    otlp_endpoint: receiver.url,
    otlp_headers: "x-team-token=abc%20def",
    otlp_resource_attributes: "team=platform,deployment.environment=test",
  };
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
}

async function session(receiver: Receiver, marks: string, ids: { bad: string; good: string; more: string }): Promise<RunClaudeResult> {
  return gateRun({
    home: homeWithOptions(options(receiver)),
    prompt: "why does test_parse fail?",
    script: [
      [activate()],
      [text(BAD), touch(join(marks, "bad"), ids.bad)],
      [text(ok("verify", "The run settles it.")), touch(join(marks, "good"), ids.good)],
      [text(ok("verify", "Once more, to be sure.")), touch(join(marks, "more"), ids.more)],
      [text("Answer.")],
    ],
  });
}

describe("the live OTLP export, through an outage", () => {
  let receiver: Receiver;
  let run: RunClaudeResult;
  let after: RunClaudeResult;
  const marks = markerDir();
  const ids = { bad: id("otlp-bad"), good: id("otlp-good"), more: id("otlp-more") };
  let got: ReceivedRecord[] = [];
  let ofFirst: ReceivedRecord[] = [];
  let firstStatus = "";

  beforeAll(async () => {
    // Down for the whole first session: its server keeps what it could not send when Claude Code stops it.
    receiver = await startReceiver("down");
    run = await session(receiver, marks, ids);
    firstStatus = (await cli(["status", run.sessionId!], { env: { HOME: run.home } })).stdout;
    receiver.mode = "ok";
    // Back up: the next session's server sends the first's records with its own.
    after = await gateRun({ home: run.home, prompt: "and now?", script: [[text("Nothing to do.")]] });
    const lines = logOf(run).length;
    const first = () => receiver.accepted().filter((r) => r.attributes["session.id"] === run.sessionId);
    await until(() => first().filter((r) => r.eventName === "utility.step").length >= lines, 20_000);
    got = receiver.accepted();
    ofFirst = first();
  }, 300_000);

  afterAll(async () => {
    after?.cleanup();
    run?.cleanup();
    await receiver?.stop();
  });

  it("was down when the first session sent, and refused its batches", () => {
    expect(receiver.requests[0]!.answered).toBe(503);
    expect(receiver.requests[0]!.path).toBe("/v1/logs");
    expect(receiver.requests[0]!.contentType).toBe("application/x-protobuf");
  });

  it("sends every step record once, nothing lost to the outage, nothing twice", () => {
    const log = logOf(run);
    const steps = ofFirst.filter((r) => r.eventName === "utility.step");
    const recordIds = steps.map((r) => r.attributes["utility.record_id"]);
    expect(new Set(recordIds).size).toBe(recordIds.length);
    expect(steps.map((r) => r.attributes["utility.hook_event"]).sort()).toEqual(log.map((r) => r.event).sort());
    const all = got.map((r) => `${r.eventName} ${String(r.attributes["utility.record_id"] ?? r.attributes["utility.task_id"])}`);
    expect(new Set(all).size).toBe(all.length);
    expect(got.some((r) => r.attributes["session.id"] === after.sessionId)).toBe(true);
  });

  it("carries the transcript's session, prompt and tool call ids, the project and the resource attributes", () => {
    const transcript = readFileSync(run.transcriptPath!, "utf8");
    const promptIds = [...transcript.matchAll(/"promptId":"([^"]+)"/g)].map((m) => m[1]);
    for (const r of ofFirst) {
      expect(r.attributes["project"]).toBe(run.cwd.split("/").at(-1));
      expect(r.resource).toMatchObject({ "service.name": "utility", team: "platform", "deployment.environment": "test" });
      if (r.attributes["prompt.id"] !== undefined) expect(promptIds).toContain(r.attributes["prompt.id"]);
    }
    const calls = ofFirst.filter((r) => r.eventName === "utility.step" && r.attributes["utility.hook_event"] === "PreToolUse");
    for (const toolUseId of Object.values(ids)) expect(calls.map((r) => r.attributes["tool_use_id"])).toContain(toolUseId);
    expect(calls.every((r) => promptIds.includes(r.attributes["prompt.id"] as string))).toBe(true);
  });

  it("sends the refusal with its rule and reason, and the task's spend at its end", () => {
    const refusal = ofFirst.find((r) => r.eventName === "utility.refusal" && r.attributes["tool_use_id"] === ids.bad);
    expect(refusal?.attributes["utility.rule"]).toBe("utility_mismatch");
    expect(String(refusal?.attributes["utility.reason"])).not.toBe("");
    expect(ran(join(marks, "bad"))).toBe(false);
    const spend = ofFirst.filter((r) => r.eventName === "utility.task_spend");
    const task = spend.find(
      (r) => r.attributes["utility.scope"] === "main" && r.attributes["utility.task"] === refusal?.attributes["utility.task"],
    );
    expect(task?.attributes["tokens"]).toBeGreaterThan(0);
    expect(task?.attributes["utility.refusals"]).toBe(1);
  });

  it("sends the headers set", () => {
    expect(receiver.requests.every((r) => r.headers["x-team-token"] === "abc def")).toBe(true);
  });

  it("shows what was sent and dropped in utility status", async () => {
    expect(firstStatus).toMatch(/OTLP export to 127\.0\.0\.1:\d+: 0 records sent, 0 dropped, [1-9]\d* waiting/);
    await until(() => readStatus(after).includes('"queued":0'), 5_000);
    const second = await cli(["status", after.sessionId!], { env: { HOME: after.home } });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/OTLP export to 127\.0\.0\.1:\d+: [1-9]\d* records sent, 0 dropped, 0 waiting/);
  });
});

function readStatus(run: RunClaudeResult): string {
  try {
    return readFileSync(join(run.home, ".claude", "plugins", "data", "utility-inline", "otlp", `${run.sessionId}.json`), "utf8");
  } catch {
    return "";
  }
}

describe("the live OTLP export to a listener that never answers", () => {
  let receiver: Receiver;
  let run: RunClaudeResult;
  const marks = markerDir();
  const ids = { bad: id("silent-bad"), good: id("silent-good"), more: id("silent-more") };

  beforeAll(async () => {
    receiver = await startReceiver("silent");
    run = await session(receiver, marks, ids);
  }, 300_000);

  afterAll(async () => {
    run?.cleanup();
    await receiver?.stop();
  });

  it("refuses no call the gate would pass, and holds none past its deadline", () => {
    expect(ran(join(marks, "good"))).toBe(true);
    expect(ran(join(marks, "more"))).toBe(true);
    const calls = logOf(run).filter((r) => r.event === "PreToolUse");
    expect(calls.filter((r) => r.decision === "refused").map((r) => r.toolUseId)).toEqual([ids.bad]);
    for (const r of calls) expect(r.latencyMs).toBeLessThan(PRE_TOOL_USE_DEADLINE_MS);
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(receiver.requests.every((r) => r.answered === 0)).toBe(true);
  });

  it("says in utility status that nothing was sent", async () => {
    const status = await cli(["status", run.sessionId!], { env: { HOME: run.home } });
    expect(status.stdout).toMatch(/OTLP export to 127\.0\.0\.1:\d+: 0 records sent, \d+ dropped, \d+ waiting/);
  });
});
