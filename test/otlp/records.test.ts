// The OTLP record mapping (src/otlp/records.ts) and the settings that turn the export on (src/optin/otlp-config.ts): pure.
import { describe, expect, it } from "vitest";
import { EVENT_NAMES, stepRecords, taskRecord } from "../../src/otlp/records.js";
import { parseOtlpConfig, parsePairs } from "../../src/optin/otlp-config.js";
import { endedTaskRows, stoppedScope } from "../../src/otlp/live.js";
import { progressLine } from "../../src/otlp/progress.js";
import { logsUrl } from "../../src/otlp/types.js";
import type { StepRow, TaskRow } from "../../src/export/rows.js";

const STEP: StepRow = {
  id: "row1",
  time: 1_700_000_000,
  time_ms: 1_700_000_000_123,
  developer: "ana@laptop",
  project: "shop",
  session_id: "sess-1",
  prompt_key: "k1",
  prompt_id: "prompt-1",
  scope: "main",
  agent_type: "",
  task: 2,
  step: 3,
  event: "PreToolUse",
  tool: "Bash",
  tool_use_id: "toolu_1",
  decision: "passed",
  rule: "",
  reason: "",
  gated: 1,
  action: "verify",
  utility: 0.3,
  model: "claude-opus-5",
  message_id: "msg_1",
  input_tokens: 10,
  output_tokens: 5,
  cache_creation_tokens: 0,
  cache_read_tokens: 7,
  repeat: 0,
  stuck: 0,
  identical: 0,
  outcome: "",
  latency_ms: 4,
};

const TASK: TaskRow = {
  id: "sess-1/main/2",
  version: 9,
  started: 1_700_000_000,
  ended: 1_700_000_060,
  developer: "ana@laptop",
  project: "shop",
  session_id: "sess-1",
  prompt_id: "prompt-1",
  scope: "main",
  task: 2,
  steps: 4,
  refusals: 1,
  tokens: 1234,
  cost_usd: 0.0123,
  models: ["claude-opus-5"],
};

describe("a step row's records", () => {
  it("is one utility.step carrying Claude Code's own attribute names, empty values left out", () => {
    const [step, ...rest] = stepRecords(STEP);
    expect(rest).toEqual([]);
    expect(step!.eventName).toBe(EVENT_NAMES.step);
    expect(step!.timeMs).toBe(STEP.time_ms);
    expect(step!.attributes).toMatchObject({
      "event.name": "utility.step",
      "session.id": "sess-1",
      "prompt.id": "prompt-1",
      tool_use_id: "toolu_1",
      tool_name: "Bash",
      model: "claude-opus-5",
      project: "shop",
      "utility.task": 2,
      "utility.step": 3,
      "utility.decision": "passed",
      "utility.gated": true,
      "utility.record_id": "row1",
    });
    expect(step!.attributes).not.toHaveProperty("utility.rule");
    expect(step!.attributes).not.toHaveProperty("utility.agent_type");
  });

  it("adds a refusal with its rule and reason, and a budget stop for a spent budget", () => {
    const refused = stepRecords({ ...STEP, decision: "refused", rule: "budget_spent", reason: "This task's token budget is spent" });
    expect(refused.map((r) => r.eventName)).toEqual([EVENT_NAMES.step, EVENT_NAMES.refusal, EVENT_NAMES.budgetStop]);
    expect(refused[1]!.attributes).toMatchObject({ "utility.rule": "budget_spent", "utility.reason": "This task's token budget is spent" });
    expect(refused[1]!.body).toContain("refused (budget_spent)");
    const other = stepRecords({ ...STEP, decision: "refused", rule: "not_argmax", reason: "r" });
    expect(other.map((r) => r.eventName)).toEqual([EVENT_NAMES.step, EVENT_NAMES.refusal]);
  });

  it("adds an identical outcome and a stuck loop", () => {
    const records = stepRecords({ ...STEP, event: "Outcome", identical: 1, stuck: 1 });
    expect(records.map((r) => r.eventName)).toEqual([EVENT_NAMES.step, EVENT_NAMES.identical, EVENT_NAMES.stuck]);
    for (const r of records) expect(r.attributes["tool_use_id"]).toBe("toolu_1");
  });
});

describe("a task's spend", () => {
  it("is one utility.task_spend with tokens, dollars, steps and refusals", () => {
    const r = taskRecord(TASK);
    expect(r.eventName).toBe(EVENT_NAMES.taskSpend);
    expect(r.timeMs).toBe(TASK.ended * 1000);
    expect(r.attributes).toMatchObject({
      "session.id": "sess-1",
      "prompt.id": "prompt-1",
      tokens: 1234,
      cost_usd: 0.0123,
      "utility.steps": 4,
    });
    expect(r.body).toBe("task 2 of main: 1234 tokens, $0.0123, 4 steps, 1 refused");
  });

  it("goes out when the scope stops or its next task begins, once", () => {
    const rows = [TASK, { ...TASK, id: "sess-1/main/3", task: 3 }, { ...TASK, id: "sess-1/agent:a/1", scope: "agent:a", task: 1 }];
    expect(endedTaskRows(rows, [], undefined).map((r) => r.id)).toEqual(["sess-1/main/2"]);
    expect(endedTaskRows(rows, ["sess-1/main/2"], "main").map((r) => r.id)).toEqual(["sess-1/main/3"]);
    expect(endedTaskRows(rows, [], "agent:a").map((r) => r.id)).toEqual(["sess-1/main/2", "sess-1/agent:a/1"]);
    expect(stoppedScope("Stop", {})).toBe("main");
    expect(stoppedScope("SubagentStop", { agent_id: "a" })).toBe("agent:a");
    expect(stoppedScope("PreToolUse", {})).toBeUndefined();
  });
});

describe("the otlp_* settings", () => {
  const env = (o: Record<string, string>) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [`CLAUDE_PLUGIN_OPTION_${k.toUpperCase()}`, v]));

  it("are off unless otlp_endpoint is set", () => {
    expect(parseOtlpConfig({})).toEqual({ problems: [] });
    expect(parseOtlpConfig(env({ otlp_headers: "a=b" }))).toEqual({ problems: [] });
  });

  it("read the endpoint, protocol, headers (URL-decoded) and resource attributes", () => {
    const { target, problems } = parseOtlpConfig(
      env({
        otlp_endpoint: "http://collector:4318",
        otlp_protocol: "http/json",
        otlp_headers: "Authorization=Bearer%20x,team=a",
        otlp_resource_attributes: "team=platform",
      }),
    );
    expect(problems).toEqual([]);
    expect(target).toEqual({
      endpoint: "http://collector:4318",
      protocol: "http/json",
      headers: { Authorization: "Bearer x", team: "a" },
      resource: { "service.name": "utility", team: "platform" },
    });
    expect(logsUrl(target!.endpoint)).toBe("http://collector:4318/v1/logs");
    expect(logsUrl("http://c/v1/logs/")).toBe("http://c/v1/logs");
  });

  it("name an invalid setting and never show a header's value", () => {
    const { target, problems } = parseOtlpConfig(
      env({ otlp_endpoint: "ftp://x", otlp_protocol: "grpc", otlp_headers: "secret-without-equals" }),
    );
    expect(target).toBeUndefined();
    expect(problems).toHaveLength(3);
    expect(problems.join(" ")).not.toContain("secret-without-equals");
    expect(parsePairs("a=1, b = 2 ,")).toEqual({ a: "1", b: "2" });
    expect(parsePairs("=x")).toBeUndefined();
  });
});

describe("/utility status's line", () => {
  it("counts what was sent, dropped and waits, and the last error", () => {
    expect(progressLine(undefined)).toBeUndefined();
    const line = progressLine({
      offset: 9,
      promptKey: "",
      tasksSent: [],
      sent: 12,
      dropped: 3,
      queued: 1,
      endpoint: "c:4318",
      lastError: "connect ECONNREFUSED",
    });
    expect(line).toBe("OTLP export to c:4318: 12 records sent, 3 dropped, 1 waiting; last error: connect ECONNREFUSED");
  });
});
