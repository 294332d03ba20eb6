import { describe, expect, it } from "vitest";
import { parseSignals } from "../../../src/engine/report/fields.js";
import { parseCandidateTable, parseLastReport } from "../../../src/engine/report/parse.js";

const ROW = "- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0";
const signals = { gain: 0.6, stepCost: 0.1, uncertainty: 0.4, redundancy: 0 };
const problemsOf = (r: { ok: boolean; problems?: unknown[] } | undefined) => (r && !r.ok ? r.problems : []);
const REPORT = 'Action: retrieve\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0\nRationale: "worth it"';

describe("parseCandidateTable", () => {
  it("is undefined without a Candidates line", () => {
    expect(parseCandidateTable(ROW)).toBeUndefined();
    expect(parseCandidateTable("")).toBeUndefined();
  });

  it("reads the rows below Candidates, skipping fences and blank lines", () => {
    expect(parseCandidateTable(["```", "Candidates:", "", ROW, "```"].join("\n"))).toEqual({
      ok: true,
      value: [{ action: "retrieve", signals }],
    });
  });

  it("names a line below the table that is not a row", () => {
    expect(problemsOf(parseCandidateTable(["Candidates:", ROW, "and then some"].join("\n")))).toEqual([
      {
        field: "Candidates",
        found: '"and then some"',
        expected: "a row like `- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0`",
        message: 'In Candidates, "and then some" is not a candidate row; write `- <action>: Gain=… StepCost=… Uncertainty=… Redundancy=…`.',
      },
    ]);
  });

  it("gives the stray lines first, then the rows' own problems", () => {
    const r = problemsOf(parseCandidateTable(["Candidates:", ROW, ROW, "oops"].join("\n"))) as Array<{ message: string }>;
    expect(r.map((p) => p.message)).toEqual([
      'In Candidates, "oops" is not a candidate row; write `- <action>: Gain=… StepCost=… Uncertainty=… Redundancy=…`.',
      "Candidates lists retrieve twice; give each action one row.",
    ]);
  });

  it("refuses a table with no rows, saying how to write one", () => {
    expect(problemsOf(parseCandidateTable("Candidates:"))).toEqual([
      {
        field: "Candidates",
        found: "no rows",
        expected: "one row per candidate action",
        message:
          "Candidates has no rows; write one line per action like `- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0`.",
      },
    ]);
  });

  it("names a row whose action is not an action, as Candidates", () => {
    const [p] = problemsOf(parseCandidateTable("Candidates:\n- wander: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0")) as Array<{
      field: string;
      message: string;
    }>;
    expect(p!.field).toBe("Candidates");
    expect(p!.message).toMatch(/^In Candidates, Action "wander" is not an action/);
  });

  it("keeps a row's U= when it gives one", () => {
    expect(parseCandidateTable(`Candidates:\n${ROW} U=0.31`)).toEqual({
      ok: true,
      value: [{ action: "retrieve", signals, utility: 0.31 }],
    });
  });
});

describe("parseSignals' problems", () => {
  it("names an unknown field and the four it takes", () => {
    expect(problemsOf(parseSignals("Gain=0.7 StepCost=0.1 Uncertainty=0.6 Redundancy=0 Joy=1", "Breakdown", false))).toEqual([
      {
        field: "Breakdown Joy",
        found: '"Joy"',
        expected: "only Gain, StepCost, Uncertainty, Redundancy",
        message: 'Breakdown has an unknown field "Joy"; it takes Gain, StepCost, Uncertainty and Redundancy.',
      },
    ]);
  });

  it("takes U= only where allowed", () => {
    expect(parseSignals("Gain=0.7 StepCost=0.1 Uncertainty=0.6 Redundancy=0 U=0.2", "Candidates row verify", true)).toEqual({
      ok: true,
      value: { signals: { gain: 0.7, stepCost: 0.1, uncertainty: 0.6, redundancy: 0 }, utility: 0.2 },
    });
    expect(problemsOf(parseSignals("Gain=0.7 StepCost=0.1 Uncertainty=0.6 Redundancy=0 U=0.2", "Breakdown", false))).toHaveLength(1);
  });

  it("refuses a field given twice with different values, and takes it twice with the same", () => {
    expect(problemsOf(parseSignals("Gain=0.7 Gain=0.8 StepCost=0.1 Uncertainty=0.6 Redundancy=0", "Breakdown", false))).toEqual([
      {
        field: "Breakdown Gain",
        found: "0.7 and 0.8",
        expected: "one value",
        message: "Breakdown gives Gain twice with different values (0.7 and 0.8); give it once.",
      },
    ]);
    expect(parseSignals("Gain=0.7 Gain=0.7 StepCost=0.1 Uncertainty=0.6 Redundancy=0", "Breakdown", false).ok).toBe(true);
  });

  it("names each missing field once, and not one that was there but malformed", () => {
    const p = problemsOf(parseSignals("Gain=abc StepCost=0.1", "Breakdown", false)) as Array<{
      field: string;
      found: string;
      expected: string;
      message: string;
    }>;
    expect(p.map((x) => x.field)).toEqual(["Breakdown Gain", "Breakdown Uncertainty", "Breakdown Redundancy"]);
    expect(p[1]).toEqual({
      field: "Breakdown Uncertainty",
      found: "nothing",
      expected: "a number in [0, 1]",
      message: "Breakdown is missing Uncertainty; all four fields are required: Gain=… StepCost=… Uncertainty=… Redundancy=…",
    });
  });

  it("refuses a signal outside [0, 1], with its value", () => {
    expect(problemsOf(parseSignals("Gain=1.5 StepCost=0.1 Uncertainty=0.6 Redundancy=0", "Breakdown", false))).toEqual([
      {
        field: "Breakdown Gain",
        found: "1.5",
        expected: "a number in [0, 1]",
        message: "Gain is 1.5 in Breakdown; every signal must lie in [0, 1].",
      },
    ]);
    expect(problemsOf(parseSignals("Gain=0 StepCost=1 Uncertainty=0.6 Redundancy=0", "Breakdown", false))).toEqual([]);
  });
});

describe("a report's missing and doubled lines", () => {
  it.each([
    ["Utility", "0.28"],
    ["Breakdown", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0"],
    ["Rationale", '"one sentence on why this action"'],
  ])("names a missing %s line with an example", (name, example) => {
    const text = REPORT.split("\n")
      .filter((l) => !l.startsWith(`${name}:`))
      .join("\n");
    expect(problemsOf(parseLastReport(text))).toContainEqual({
      field: name,
      found: "nothing",
      expected: example,
      message: `The report has no ${name} line; add \`${name}: ${example}\`.`,
    });
  });

  it("names an Action line with nothing on it as missing", () => {
    expect(problemsOf(parseLastReport(REPORT.replace("Action: retrieve", "Action: **")))).toContainEqual({
      field: "Action",
      found: "nothing",
      expected: "tool_call",
      message: "The report has no Action line; add `Action: tool_call`.",
    });
  });

  it("refuses an empty Rationale", () => {
    expect(problemsOf(parseLastReport(REPORT.replace('"worth it"', '""')))).toEqual([
      {
        field: "Rationale",
        found: "an empty line",
        expected: "one sentence",
        message: "The Rationale is empty; say in one sentence why this action.",
      },
    ]);
  });

  it("refuses a line given twice with different values, and takes it twice with the same", () => {
    expect(problemsOf(parseLastReport(`${REPORT}\nUtility: 0.30`))).toContainEqual({
      field: "Utility",
      found: '"0.28" and "0.30"',
      expected: "one value",
      message: 'The report gives Utility twice with different values ("0.28" and "0.30"); give it once.',
    });
    expect(parseLastReport(`${REPORT}\nUtility: 0.28`)?.ok).toBe(true);
  });

  it.each([
    ['"worth it"', "worth it"],
    ["\u201cworth it\u201d", "worth it"],
    ["'worth it'", "worth it"],
    ["\u2018worth it\u2019", "worth it"],
    ['"worth it', "worth it"],
    ["worth   it", "worth it"],
  ])("unquotes the Rationale %s", (written, rationale) => {
    const r = parseLastReport(REPORT.replace('"worth it"', written));
    expect(r?.ok && r.value.rationale).toBe(rationale);
  });
});
