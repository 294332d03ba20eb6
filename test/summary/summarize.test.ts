import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LogRecord } from "../../src/log/record.js";
import { parseLogText } from "../../src/summary/load.js";
import { renderLogTable } from "../../src/summary/log-table.js";
import { renderReportText } from "../../src/summary/report-text.js";
import { NO_REPORT, summarize } from "../../src/summary/summarize.js";
import { roundUtility, utility } from "../../src/engine/utility.js";
import { ROOT } from "../support/paths.js";

const LOG = join(ROOT, "test", "fixtures", "logs", "gated-session.jsonl");
const { records, skipped } = parseLogText(readFileSync(LOG, "utf8"));

function record(over: Partial<LogRecord>): LogRecord {
  return {
    v: 1,
    time: "2026-01-01T00:00:00.000Z",
    event: "PreToolUse",
    session: "s1",
    scope: "self",
    task: 1,
    step: 1,
    maxSteps: 10,
    lambdas: [1, 0.5, 0.8],
    decision: "observed",
    gated: false,
    latencyMs: 10,
    ...over,
  };
}

describe("the fixture log", () => {
  it("reads 25 records and skips a future shape and a torn last line", () => {
    expect(records).toHaveLength(25);
    expect(skipped).toBe(2);
  });

  it("holds only reports whose Utility agrees with their Breakdown", () => {
    for (const { report, lambdas } of records.filter((r) => r.report)) {
      const { gain, stepCost, uncertainty, redundancy } = report!;
      expect(roundUtility(utility({ gain, stepCost, uncertainty, redundancy }, lambdas))).toBe(report!.utility);
    }
  });
});

describe("summarize", () => {
  const summary = summarize(records);

  it("splits the session by scope, in the order scopes first appear", () => {
    expect(summary.scopes.map((s) => [s.key, s.scope, s.agentId, s.agentType])).toEqual([
      ["main", "self", undefined, undefined],
      ["agent:a7f3c2e1", "subagent", "a7f3c2e1", "Explore"],
    ]);
    expect(summary).toMatchObject({
      session: "3f2a9c1e-7b4d-4e8a-9c21-5d6e7f8a9b0c",
      records: 25,
      from: "2026-03-02T10:15:04.000Z",
      to: "2026-03-02T10:18:25.900Z",
    });
  });

  it("counts steps by action, refusals by rule, overrides, repeats, stops blocked", () => {
    const [main, agent] = summary.scopes;
    expect(main).toMatchObject({
      steps: 12,
      stepsByAction: { retrieve: 4, verify: 4, tool_call: 3, delegate: 1 },
      refusals: 4,
      refusalsByRule: { exact_repeat: 1, tool_not_permitted: 1, no_report: 1, below_floor: 1 },
      repeats: 2,
      repeatsRefused: 1,
      stopsBlocked: 1,
      gatedBy: ["/home/ana/.claude/skills/careful-refactor/SKILL.md"],
    });
    expect(main!.overrides).toEqual([
      {
        task: 1,
        step: 7,
        action: "tool_call",
        gain: 0.85,
        utility: -0.62,
        rationale: expect.stringContaining("Override: U is below the floor"),
      },
    ]);
    expect(agent).toMatchObject({ steps: 3, stepsByAction: { [NO_REPORT]: 3 }, refusals: 0, repeats: 1, repeatsRefused: 0, gatedBy: [] });
    expect(summary.totals).toEqual({ steps: 15, refusals: 4, overrides: 1, repeats: 3, stopsBlocked: 1 });
  });

  it("reports the budget per task and the task closest to its limit", () => {
    const [main, agent] = summary.scopes;
    expect(main!.tasks).toEqual([
      { task: 1, steps: 9, maxSteps: 10, refusals: 3, gated: true, gatedBy: "/home/ana/.claude/skills/careful-refactor/SKILL.md" },
      { task: 2, steps: 3, maxSteps: 10, refusals: 1, gated: true, gatedBy: "/home/ana/.claude/skills/careful-refactor/SKILL.md" },
    ]);
    expect(main!.budget).toEqual({ task: 1, steps: 9, maxSteps: 10 });
    // The step budget binds a gated task only: the ungated subagent has none to be close to.
    expect(agent!.budget).toBeUndefined();
    expect(main!.latencyMs!.max).toBeGreaterThanOrEqual(main!.latencyMs!.median);
  });

  it("ignores error records and copes with nothing at all", () => {
    expect(summarize([record({ event: "error", decision: "error" })]).scopes).toEqual([]);
    expect(summarize([])).toMatchObject({ session: undefined, records: 0, scopes: [], totals: { steps: 0 } });
    expect(renderReportText([])).toContain("nothing recorded yet");
  });

  it("counts a refused call once, never as a step; an ungated observed call as a step without a report", () => {
    const s = summarize([record({ decision: "refused", rule: "no_report", step: 0 }), record({ decision: "observed", step: 1 })])
      .scopes[0]!;
    expect(s).toMatchObject({ steps: 1, stepsByAction: { [NO_REPORT]: 1 }, refusals: 1, refusalsByRule: { no_report: 1 } });
  });
});

describe("renderReportText (what /utility report shows)", () => {
  const text = renderReportText(records);

  it("is a short per-scope summary", () => {
    expect(text).toBe(
      [
        "session 3f2a9c1e-7b4d-4e8a-9c21-5d6e7f8a9b0c: 25 records, 2026-03-02T10:15:04.000Z → 2026-03-02T10:18:25.900Z",
        "main (self): gated by /home/ana/.claude/skills/careful-refactor/SKILL.md",
        "  steps 12: retrieve 4, verify 4, tool_call 3, delegate 1",
        "  refused 4: below_floor 1, exact_repeat 1, no_report 1, tool_not_permitted 1",
        "    below_floor, latest: U = -0.65 is below the floor -0.5 and no candidate has Gain ≥ 0.7: the loop terminates.",
        "    exact_repeat, latest: This Read call is an exact repeat of one that ran at step 1 with nothing in between that could change its result, so Redundancy is 1, not 0.",
        "    no_report, latest: No action report before this Edit call.",
        "    tool_not_permitted, latest: Action retrieve does not permit Bash; retrieve permits read-only tools (Read, Grep, Glob, LS, NotebookRead, WebFetch, WebSearch, ListMcpResourcesTool…",
        "  high-gain overrides (below the floor, let on for their Gain) 1; task 1 step 7: tool_call Gain 0.85 (U -0.62)",
        "  repeats caught 2 (1 refused)",
        "  outcomes: ran 0, failed 0, never arrived 12; results 0 bytes", // a log from before outcomes were recorded
        "  stops blocked 1",
        "  steps: task 1 9/10 (3 refused), task 2 3/10 (1 refused)",
        "    override rationale: Override: U is below the floor but Gain=0.85 ≥ 0.7 — a shared splitter removes three hand-written p…",
        "subagent a7f3c2e1 (Explore): not gated",
        "  steps 3",
        "  refused 0",
        "  repeats caught 1 (0 refused)",
        "  outcomes: ran 0, failed 0, never arrived 3; results 0 bytes",
        "  steps: task 1 3",
        "total: 15 steps, 4 refused, 1 override, 3 repeats caught, 1 stop blocked",
        "",
      ].join("\n"),
    );
  });

  it("never passes control characters from the log to a terminal", () => {
    const evil = renderReportText([
      record({
        decision: "passed",
        report: {
          action: "retrieve",
          utility: -0.6,
          gain: 0.8,
          stepCost: 0.5,
          uncertainty: 0.4,
          redundancy: 0.5,
          rationale: "\u001b[2J\u0007wiped",
          override: { action: "retrieve", gain: 0.8 },
        },
        gatedBy: "/x/\u001b]0;title\u0007SKILL.md",
      }),
    ]);
    // eslint-disable-next-line no-control-regex -- the test is that no control character is left
    expect(evil).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(evil).toContain("\\u001b[2J\\u0007wiped");
  });
});

describe("renderLogTable (utility log)", () => {
  it("shows one aligned row per record, with refusal and block reasons beneath", () => {
    const table = renderLogTable(records).split("\n");
    expect(table[0]).toMatch(
      /^ #\s+time\s+scope\s+task\s+step\s+event\s+tool\s+decision\s+rule\s+action\s+U\s+repeat\s+outcome\s+hook ms$/,
    );
    expect(table.filter((line) => /^\s*\d+\s+\d\d:\d\d:\d\d/.test(line))).toHaveLength(25);
    expect(table.find((line) => line.includes("exact_repeat"))).toMatch(
      /^ 4 {2}10:15:26 {2}self {2}.*Read {6}refused {3}exact_repeat {8}retrieve {4}0\.21 {2}of 1/,
    );
    expect(table.filter((line) => line.trimStart().startsWith("↳"))).toHaveLength(5); // 4 refusals and 1 blocked stop
    expect(renderLogTable([])).toBe("no records\n");
  });
});

describe("outcomes (SPEC §8)", () => {
  const pre = (id: string, step: number) => record({ toolUseId: id, tool: "Read", step });
  const outcome = (id: string, step: number, result: "ran" | "failed", resultBytes: number) =>
    record({
      event: "Outcome",
      toolUseId: id,
      tool: "Read",
      step,
      outcome: { result, resultBytes, durationMs: 12, learnedBy: "PreToolUse" },
    });
  const log = [
    pre("t1", 1),
    pre("t2", 2),
    outcome("t1", 1, "ran", 2048),
    pre("t3", 3),
    outcome("t3", 3, "failed", 10),
    record({ toolUseId: "t4", decision: "refused", rule: "no_report" }),
  ];

  it("utility log shows each step's outcome on its row, and a step whose outcome never arrived as such", () => {
    const rows = renderLogTable(log)
      .split("\n")
      .filter((line) => /^\s*\d+\s+\d\d:/.test(line));
    expect(rows).toHaveLength(4); // the Outcome records join their steps' rows
    expect(rows[0]).toContain("ran 2.0 KB 12 ms");
    expect(rows[1]).toContain("never arrived");
    expect(rows[2]).toContain("failed 10 B 12 ms");
    expect(rows[3]).not.toMatch(/never arrived|ran|failed \d/); // a refusal takes no step: it has no outcome
  });

  it("the report counts steps by outcome", () => {
    const s = summarize(log).scopes[0]!;
    expect(s.steps).toBe(3);
    expect(s.outcomes).toEqual({ ran: 1, failed: 1, denied: 0, missing: 1, resultBytes: 2058 });
    expect(renderReportText(log)).toContain("outcomes: ran 1, failed 1, never arrived 1; results 2058 bytes");
  });
});
