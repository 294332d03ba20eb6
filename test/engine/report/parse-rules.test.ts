// The report parser's rules one by one (SPEC §4), through its exported functions: how a line is
// cleaned, how a number and an action are read, which lines belong to a report, and how a
// problem is worded. Each case holds one rule that the broader cases in parse.test.ts and
// parse-problems.test.ts pass through without pinning.
import { describe, expect, it } from "vitest";
import { parseNumber, parseSignals } from "../../../src/engine/report/fields.js";
import { candidateRow, normalizeLine } from "../../../src/engine/report/lines.js";
import { parseCandidateTable, parseLastReport, parseReports } from "../../../src/engine/report/parse.js";

const BREAKDOWN = "Breakdown: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0";
const SIGNALS = { gain: 0.6, stepCost: 0.1, uncertainty: 0.4, redundancy: 0 };
const ROW = "- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0";

function report(over: { action?: string; utility?: string; breakdown?: string; rationale?: string } = {}): string {
  return [
    `Action: ${over.action ?? "retrieve"}`,
    `Utility: ${over.utility ?? "0.30"}`,
    over.breakdown ?? BREAKDOWN,
    `Rationale: ${over.rationale ?? "read the file first"}`,
  ].join("\n");
}

function value(text: string) {
  const result = parseLastReport(text);
  if (!result?.ok) throw new Error(`expected a report, got ${JSON.stringify(result)}`);
  return result.value;
}

function problems(text: string) {
  const result = parseLastReport(text);
  if (!result || result.ok) throw new Error(`expected a rejected report, got ${JSON.stringify(result)}`);
  return result.problems;
}

describe("normalizeLine: what Markdown and chat put at a line's start is removed, nothing inside it", () => {
  it.each([
    ["a list bullet after indentation", "   - Action: retrieve", "Action: retrieve"],
    ["a quote mark after indentation", "  > Action: retrieve", "Action: retrieve"],
    ["a bullet inside a quote", "> - Action: retrieve", "Action: retrieve"],
    ["a numbered item inside a nested quote", "> > 12. Action: retrieve", "Action: retrieve"],
    ["three quote marks run together", ">>> Action: retrieve", "Action: retrieve"],
    ["a bullet followed by several spaces", "-    Action: retrieve", "Action: retrieve"],
    ["a CR line end", "Action: retrieve\r", "Action: retrieve"],
  ])("removes %s", (_name, raw, line) => {
    expect(normalizeLine(raw)).toBe(line);
  });

  it.each([
    ["a quote mark inside the line", "Rationale: a > b"],
    ["a dash and a number with a dot inside the line", "Rationale: step - then 2. again"],
    ["a star and a plus inside the line", "Rationale: a * b + c"],
    ["a CR inside the line", "Utility: 0.30\rjunk"],
    ["a dash glued to the word (no bullet)", "-Action: retrieve"],
    ["a number glued to the word (no list item)", "2.5 apples"],
  ])("keeps %s", (_name, line) => {
    expect(normalizeLine(line)).toBe(line);
  });

  it("a field line holding a lone CR is no report line: the report misses that field", () => {
    const text = report().replace("Utility: 0.30", "Utility: 0.30\rjunk");
    expect(problems(text).map((p) => p.field)).toEqual(["Utility"]);
    expect(problems(text)[0]!.found).toBe("nothing");
  });
});

describe("parseNumber: a plain decimal, nothing more (SPEC §4)", () => {
  it.each([
    ["12.5", 12.5],
    ["7.", 7],
    [".75", 0.75],
    ["-0.5", -0.5],
    ["+0.5", 0.5],
    ["\u22120.5", -0.5],
    ["**0.5**", 0.5],
    [" `0.5` ", 0.5],
  ])("reads %j", (raw, expected) => {
    expect(parseNumber("Utility", raw)).toEqual({ ok: true, value: expected });
  });

  it("reads minus zero as zero", () => {
    const parsed = parseNumber("Utility", "-0.0");
    expect(parsed.ok && Object.is(parsed.value, 0)).toBe(true);
  });

  it.each(["a0.5", "0.5a", "0.5 0.6", "--0.5", "+-0.5", "\u2212\u22120.5", ".", "", "0..5", "1.2.3", "0x10"])("refuses %j", (raw) => {
    expect(parseNumber("Utility", raw).ok).toBe(false);
  });

  it("names the field, shows what was found and says how to write it", () => {
    expect(parseNumber("Breakdown Gain", "high")).toEqual({
      ok: false,
      problems: [
        {
          field: "Breakdown Gain",
          found: '"high"',
          expected: "a plain decimal number such as 0.7",
          message: 'Breakdown Gain is "high", which is not a plain decimal number; write it like 0.7.',
        },
      ],
    });
  });
});

describe("the Action line", () => {
  it("an unknown action is an unknown_action problem naming Action and the actions there are", () => {
    expect(problems(report({ action: "search" }))).toEqual([
      {
        field: "Action",
        found: '"search"',
        expected: "one of respond, retrieve, tool_call, verify, delegate, stop",
        message: 'Action "search" is not an action; use one of respond, retrieve, tool_call, verify, delegate, stop.',
        kind: "unknown_action",
      },
    ]);
  });

  it("an action in upper case gets the lower-case hint; a word that is no action in any case gets none", () => {
    expect(problems(report({ action: "RETRIEVE" }))[0]!.message).toContain("(action ids are lower case: retrieve)");
    expect(problems(report({ action: "Search" }))[0]!.message).toBe(
      'Action "Search" is not an action; use one of respond, retrieve, tool_call, verify, delegate, stop.',
    );
  });
});

describe("which lines belong to a report", () => {
  it("a report fenced with ~~~ reads like one fenced with ```", () => {
    expect(value(`~~~\n${report()}\n~~~`).action).toBe("retrieve");
  });

  it("a ~~~ fence line ends a wrapped Rationale and is not part of it", () => {
    expect(value(`~~~\n${report()}\n~~~\nNow I read it.`).rationale).toBe("read the file first");
  });

  it("a Rationale that mentions a fence inside the line keeps it", () => {
    expect(value(report({ rationale: "wrap it in ``` and ~~~ marks" })).rationale).toBe("wrap it in ``` and ~~~ marks");
  });

  it("only a Rationale wraps: prose after a later field does not join it", () => {
    const text = ["Action: retrieve", "Rationale: read the file first", "Utility: 0.30", "I will now read it.", BREAKDOWN].join("\n");
    expect(value(text).rationale).toBe("read the file first");
  });

  it("prose after the Action line does not join a Rationale given later", () => {
    const text = ["Action: retrieve", "I will now read it.", "Utility: 0.30", BREAKDOWN, "Rationale: read the file first"].join("\n");
    expect(value(text).rationale).toBe("read the file first");
  });

  it("a Rationale written on the line below its label is read from there", () => {
    const text = [...report().split("\n").slice(0, 3), "Rationale:", '"read the file first"'].join("\n");
    expect(value(text).rationale).toBe("read the file first");
  });

  it("a line that looks like a candidate row, outside a table, is prose", () => {
    const text = `${report()}\n\n- note: retries=3 were enough`;
    expect(value(text)).toMatchObject({ action: "retrieve", rationale: "read the file first" });
    expect(value(text)).not.toHaveProperty("candidates");
  });

  it("fields before any Action line belong to no report", () => {
    expect(parseLastReport("Utility: 0.30\nRationale: stray")).toBeUndefined();
    expect(value(`Utility: 0.99\n${report()}`).utility).toBe(0.3);
  });

  it("a Candidates line ends the report before it: a field after it belongs to no report", () => {
    const reports = parseReports(`Action: retrieve\nCandidates:\nUtility: 0.30\n${BREAKDOWN}\nRationale: r`);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.ok || reports[0]!.problems.map((p) => p.field)).toEqual(["Utility", "Breakdown", "Rationale"]);
  });

  it("the last of three reports is the one that counts", () => {
    const text = [report({ action: "respond" }), report({ action: "verify" }), report({ action: "stop" })].join("\n\n");
    expect(parseReports(text)).toHaveLength(3);
    expect(value(text).action).toBe("stop");
  });

  it("a short-form report has no candidates, and a table before its Action line gives them", () => {
    expect(value(report())).not.toHaveProperty("candidates");
    expect(value(`Candidates:\n${ROW}\n${report()}`).candidates).toEqual([{ action: "retrieve", signals: SIGNALS }]);
  });
});

describe("a field with nothing on it is missing", () => {
  it.each(["Utility", "Breakdown"])("%s with only decoration on it (`* *`) is named as a missing line", (name) => {
    const text = report().replace(new RegExp(`^${name}: .*$`, "m"), `${name}: * *`);
    expect(problems(text)).toContainEqual(expect.objectContaining({ field: name, found: "nothing" }));
  });

  it("a Rationale with only decoration on it (`* *`) is named as a missing line, not as an empty one", () => {
    expect(problems(report({ rationale: "* *" }))).toEqual([
      {
        field: "Rationale",
        found: "nothing",
        expected: '"one sentence on why this action"',
        message: 'The report has no Rationale line; add `Rationale: "one sentence on why this action"`.',
      },
    ]);
  });

  it("a quoted empty Rationale in single quotes is empty", () => {
    expect(problems(report({ rationale: "''" }))[0]).toMatchObject({ field: "Rationale", found: "an empty line" });
  });
});

describe("the Rationale's quotes", () => {
  it.each([
    ["an opening curly quote alone", "\u201cread it", "read it"],
    ["a closing straight quote alone", 'read it"', "read it"],
    ["quotes inside an unquoted rationale", 'run "npm test" first', 'run "npm test" first'],
    ["a quote inside, after an opening quote that is never closed", '"run "npm test first', 'run "npm test first'],
    ["spaces inside the quotes", '" read it "', "read it"],
    ["an unclosed opening quote and the space after it", '" read it', "read it"],
    ["a lone apostrophe, which quotes nothing", "'", "'"],
    ["a leading apostrophe alone, which may be part of the text", "'tis read", "'tis read"],
  ])("%s", (_name, written, rationale) => {
    expect(value(report({ rationale: written })).rationale).toBe(rationale);
  });
});

describe("a line given twice", () => {
  it("a Rationale wrapped from the line below its label, then given again differently, names both values as written", () => {
    const text = [...report().split("\n").slice(0, 3), "Rationale:", "read it", "", "Rationale: skip it"].join("\n");
    expect(problems(text)).toEqual([
      {
        field: "Rationale",
        found: '"read it" and "skip it"',
        expected: "one value",
        message: 'The report gives Rationale twice with different values ("read it" and "skip it"); give it once.',
      },
    ]);
  });

  it("the same Rationale given again after it was wrapped from the line below its label is not a conflict", () => {
    const text = [...report().split("\n").slice(0, 3), "Rationale:", "read it", "", "Rationale: read it"].join("\n");
    expect(value(text).rationale).toBe("read it");
  });
});

describe("the signals of a candidate row (SPEC §4 long form)", () => {
  it("a row's malformed signal is named with the row", () => {
    const result = parseCandidateTable("Candidates:\n- verify: Gain=lots StepCost=0.1 Uncertainty=0.4 Redundancy=0.0");
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          field: "Candidates row verify Gain",
          found: '"lots"',
          expected: "a plain decimal number such as 0.7",
          message: 'Candidates row verify Gain is "lots", which is not a plain decimal number; write it like 0.7.',
        },
      ],
    });
  });

  it("a row's U= is named U in its problems, malformed or doubled", () => {
    const fields = (rest: string) => {
      const result = parseSignals(`Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0 ${rest}`, "Candidates row retrieve", true);
      return result.ok ? [] : result.problems.map((p) => p.message);
    };
    expect(fields("U=abc")).toEqual(['Candidates row retrieve U is "abc", which is not a plain decimal number; write it like 0.7.']);
    expect(fields("U=0.3 Utility=0.4")).toEqual([
      "Candidates row retrieve gives U twice with different values (0.3 and 0.4); give it once.",
    ]);
  });

  it("Utility= spelled out on a row is its U", () => {
    expect(parseCandidateTable(`Candidates:\n${ROW} Utility=0.25`)).toEqual({
      ok: true,
      value: [{ action: "retrieve", signals: SIGNALS, utility: 0.25 }],
    });
  });

  it("a row without U= has no utility at all, and signals read without one have none", () => {
    const table = parseCandidateTable(`Candidates:\n${ROW}`);
    expect(table?.ok && table.value[0]).not.toHaveProperty("utility");
    const signals = parseSignals("Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0", "Breakdown", false);
    expect(signals.ok && signals.value).not.toHaveProperty("utility");
  });

  it("signal names are read without case or punctuation", () => {
    expect(parseSignals("gain=0.6 step_cost=0.1 UNCERTAINTY=0.4 **Redundancy**=0", "Breakdown", false)).toEqual({
      ok: true,
      value: { signals: SIGNALS },
    });
  });

  it("a U= in the Breakdown is an unknown field, named without its decoration", () => {
    const result = parseSignals("Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0 **U**=0.3", "Breakdown", false);
    expect(result.ok || result.problems).toEqual([
      {
        field: "Breakdown U",
        found: '"**U**"',
        expected: "only Gain, StepCost, Uncertainty, Redundancy",
        message: 'Breakdown has an unknown field "U"; it takes Gain, StepCost, Uncertainty and Redundancy.',
      },
    ]);
  });

  it("a signal out of range and one missing are both named, in the order of the signals", () => {
    const result = parseSignals("Gain=2 Uncertainty=0.4 Redundancy=-1", "Breakdown", false);
    expect(result.ok || result.problems.map((p) => p.message)).toEqual([
      "Breakdown is missing StepCost; all four fields are required: Gain=… StepCost=… Uncertainty=… Redundancy=…",
      "Gain is 2 in Breakdown; every signal must lie in [0, 1].",
      "Redundancy is -1 in Breakdown; every signal must lie in [0, 1].",
    ]);
  });
});

describe("parseCandidateTable: only what is below the Candidates line", () => {
  it("prose before the Candidates line is no stray row", () => {
    expect(parseCandidateTable(`Here is my table.\n\nCandidates:\n${ROW}`)).toEqual({
      ok: true,
      value: [{ action: "retrieve", signals: SIGNALS }],
    });
  });

  it("a second Candidates line starts the table over", () => {
    const verify = "- verify: Gain=0.5 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0";
    const result = parseCandidateTable(`Candidates:\n${ROW}\nCandidates:\n${verify}`);
    expect(result?.ok && result.value.map((c) => c.action)).toEqual(["verify"]);
  });

  it("a ~~~ fence around the table is skipped", () => {
    expect(parseCandidateTable(`~~~\nCandidates:\n${ROW}\n~~~`)?.ok).toBe(true);
  });
});

describe("candidateRow: a row's name is the visible word right after its decoration", () => {
  it("trailing underscores are decoration, as in __retrieve__:", () => {
    expect(candidateRow("__retrieve__: Gain=0.6")).toEqual({ name: "retrieve", rest: "Gain=0.6" });
    expect(candidateRow("tool_call_: Gain=0.6")).toEqual({ name: "tool_call", rest: "Gain=0.6" });
  });

  it.each([
    ["a space between the decoration and the name", "** retrieve: Gain=0.6"],
    ["a name that starts with a colon", ":: Gain=0.6"],
    ["a name that starts with an equals sign", "=: Gain=0.6"],
  ])("no row: %s", (_name, line) => {
    expect(candidateRow(line)).toBeUndefined();
  });

  it("a table line with a space inside the bold before the name is a stray line, not the row it resembles", () => {
    const result = parseCandidateTable("Candidates:\n** retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0");
    expect(result?.ok || result?.problems.map((p) => p.found)).toEqual([
      '"** retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0"',
      "no rows",
    ]);
  });
});

describe("problems that name their field", () => {
  it("a doubled candidate row is a Candidates problem naming the action", () => {
    expect(parseCandidateTable(`Candidates:\n${ROW}\n${ROW}`)).toEqual({
      ok: false,
      problems: [
        {
          field: "Candidates",
          found: "retrieve twice",
          expected: "one row per action",
          message: "Candidates lists retrieve twice; give each action one row.",
        },
      ],
    });
  });

  it("a malformed Utility line is named Utility", () => {
    expect(problems(report({ utility: "about 0.3" }))).toEqual([
      {
        field: "Utility",
        found: '"about 0.3"',
        expected: "a plain decimal number such as 0.7",
        message: 'Utility is "about 0.3", which is not a plain decimal number; write it like 0.7.',
      },
    ]);
  });

  it("the Breakdown takes no U=: a U= there is an unknown field (the Utility line gives it)", () => {
    const text = report({ breakdown: `${BREAKDOWN} U=0.30` });
    expect(problems(text).map((p) => p.field)).toEqual(["Breakdown U"]);
  });

  it("a Rationale that is the word undefined is text like any other", () => {
    expect(value(report({ rationale: "undefined" })).rationale).toBe("undefined");
  });
});
