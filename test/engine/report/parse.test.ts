import { describe, expect, it } from "vitest";
import { parseLastReport, parseReports } from "../../../src/engine/report/parse.js";

const CANONICAL = [
  "Action: tool_call",
  "Utility: 0.28",
  "Breakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0",
  'Rationale: "Clear gap exists; tool call likely fills it at acceptable cost."',
].join("\n");

const EXPECTED = {
  action: "tool_call",
  utility: 0.28,
  signals: { gain: 0.7, stepCost: 0.12, uncertainty: 0.6, redundancy: 0 },
  rationale: "Clear gap exists; tool call likely fills it at acceptable cost.",
};

function parsed(text: string) {
  const result = parseLastReport(text);
  if (!result) throw new Error("no report found");
  return result;
}

function problemsOf(text: string): string {
  const result = parsed(text);
  if (result.ok) throw new Error("expected the report to be rejected");
  return result.problems.map((p) => p.message).join("\n");
}

describe("parse: tolerant of what models do to text", () => {
  it.each([
    ["the plain short form", CANONICAL],
    ["surrounding prose", `I need to look at the failing test first.\n\n${CANONICAL}\n\nRunning it now.`],
    ["a code fence", "```\n" + CANONICAL + "\n```"],
    ["a fence with a language", "```text\n" + CANONICAL + "\n```"],
    [
      "list bullets",
      CANONICAL.split("\n")
        .map((l) => `- ${l}`)
        .join("\n"),
    ],
    [
      "star bullets and numbers",
      CANONICAL.split("\n")
        .map((l, i) => (i % 2 ? `* ${l}` : `${i + 1}. ${l}`))
        .join("\n"),
    ],
    ["**bold:** labels", CANONICAL.replace(/^(\w+):/gm, "**$1:**")],
    ["**bold**: labels", CANONICAL.replace(/^(\w+):/gm, "**$1**:")],
    ["extra spaces", CANONICAL.replace(/: /g, " :   ").replace(/=/g, " = ").replace(/^/gm, "   ")],
    ["CRLF line ends", CANONICAL.replace(/\n/g, "\r\n")],
    ["a block quote", CANONICAL.replace(/^/gm, "> ")],
    ["backticked values", CANONICAL.replace("tool_call", "`tool_call`")],
    ["blank lines between fields", CANONICAL.replace(/\n/g, "\n\n")],
    [
      "fields in another order after Action",
      [CANONICAL.split("\n")[0], CANONICAL.split("\n")[2], CANONICAL.split("\n")[3], CANONICAL.split("\n")[1]].join("\n"),
    ],
    [
      "breakdown fields in any order",
      CANONICAL.replace(
        "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0",
        "Redundancy=0.0, Uncertainty=0.6, Gain=0.7, StepCost=0.12",
      ),
    ],
    ["many decimals", CANONICAL.replace("Gain=0.7", "Gain=0.700000").replace("Utility: 0.28", "Utility: 0.280")],
  ])("%s", (_name, text) => {
    const result = parsed(text);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (result.ok) expect(result.value).toEqual(EXPECTED);
  });

  it("accepts a Rationale without quotes", () => {
    const result = parsed(CANONICAL.replace(/"/g, ""));
    expect(result.ok && result.value.rationale).toBe(EXPECTED.rationale);
  });

  it("joins a Rationale that runs onto the next line (the seed's own layout)", () => {
    const text =
      'Action: tool_call\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Clear gap exists; tool call likely fills it at\n            acceptable cost."';
    const result = parsed(text);
    expect(result.ok && result.value.rationale).toBe(EXPECTED.rationale);
  });

  it("ends a wrapped Rationale at a blank line", () => {
    const result = parsed(`${CANONICAL.replace(/"/g, "")}\n\nNow I run the tool.`);
    expect(result.ok && result.value.rationale).toBe(EXPECTED.rationale);
  });

  it("accepts negative utilities, with an ASCII or a Unicode minus", () => {
    const text =
      "Action: retrieve\nUtility: −0.80\nBreakdown: Gain=0.7 StepCost=1 Uncertainty=1 Redundancy=0\nRationale: high-gain override, Gain 0.7";
    const result = parsed(text);
    expect(result.ok && result.value.utility).toBe(-0.8);
    expect(parsed(text.replace("−", "-")).ok).toBe(true);
  });

  it("reads the long form with its candidate table", () => {
    const text = [
      "Candidates:",
      "- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0",
      "- tool_call: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0",
      "- respond: Gain=0.2 StepCost=0.0 Uncertainty=0.7 Redundancy=0.0",
      "Action: retrieve",
      "Utility: 0.30",
      "Breakdown: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0",
      'Rationale: "Read before acting."',
    ].join("\n");
    const result = parsed(text);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.candidates?.map((c) => c.action)).toEqual(["retrieve", "tool_call", "respond"]);
  });

  it("accepts a U= on a candidate row", () => {
    const text =
      "Candidates:\n- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0 U=0.30\nAction: retrieve\nUtility: 0.30\nBreakdown: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0\nRationale: x";
    const result = parsed(text);
    expect(result.ok && result.value.candidates?.[0]?.utility).toBe(0.3);
  });

  it("finds every report and counts the last one", () => {
    const second = CANONICAL.replace("tool_call", "retrieve");
    const all = parseReports(`${CANONICAL}\n\nOn second thought:\n\n${second}`);
    expect(all).toHaveLength(2);
    const last = parseLastReport(`${CANONICAL}\n\n${second}`);
    expect(last?.ok && last.value.action).toBe("retrieve");
  });

  it("returns undefined when the text holds no report", () => {
    expect(parseLastReport("Let me read the file.")).toBeUndefined();
    expect(parseLastReport("The Utility: of this is unclear")).toBeUndefined();
  });
});

describe("parse: strict about meaning", () => {
  it.each(["Action", "Utility", "Breakdown", "Rationale"])("a missing %s line is named", (label) => {
    const text = CANONICAL.split("\n")
      .filter((l) => !l.startsWith(label))
      .join("\n");
    if (label === "Action") {
      expect(parseLastReport(text)).toBeUndefined();
      return;
    }
    expect(problemsOf(text)).toContain(`no ${label} line`);
  });

  it.each(["Gain", "StepCost", "Uncertainty", "Redundancy"])("a missing %s in the Breakdown is named", (field) => {
    const text = CANONICAL.replace(new RegExp(`${field}=[\\d.]+ ?`), "");
    expect(problemsOf(text)).toContain(`missing ${field}`);
  });

  it("a field duplicated with two values is an error; the same value twice is not", () => {
    expect(problemsOf(`${CANONICAL}\nUtility: 0.30`)).toMatch(/Utility twice with different values/);
    expect(parsed(`${CANONICAL}\nUtility: 0.28`).ok).toBe(true);
    expect(problemsOf(CANONICAL.replace("Redundancy=0.0", "Redundancy=0.0 Gain=0.9"))).toMatch(/Gain twice/);
  });

  it.each([
    ["a word", "high"],
    ["a percentage", "70%"],
    ["NaN", "NaN"],
    ["Infinity", "Infinity"],
    ["an exponent", "7e-1"],
    ["an exponent on a decimal", "0.7e0"],
    ["a fraction", "7/10"],
  ])("a non-number Gain (%s) is an error naming Gain", (_name, value) => {
    expect(problemsOf(CANONICAL.replace("Gain=0.7", `Gain=${value}`))).toMatch(/Breakdown Gain is .* not a plain decimal number/);
  });

  it.each([
    [".7", 0.7],
    ["-0", 0],
    ["0.70", 0.7],
    ["+0.7", 0.7],
  ])("plain decimals like %s are numbers", (value, expected) => {
    const result = parsed(CANONICAL.replace("Gain=0.7", `Gain=${value}`));
    if (!result.ok) expect.fail(JSON.stringify(result.problems));
    expect(Object.is(result.value.signals.gain, expected)).toBe(true);
  });

  it("a signal outside [0, 1] is an error naming the signal, never clamped", () => {
    expect(problemsOf(CANONICAL.replace("Gain=0.7", "Gain=1.2"))).toMatch(/Gain is 1.2 in Breakdown; every signal must lie in \[0, 1\]/);
    expect(problemsOf(CANONICAL.replace("Redundancy=0.0", "Redundancy=-0.1"))).toMatch(/Redundancy is -0.1/);
  });

  it("an unknown action is named", () => {
    expect(problemsOf(CANONICAL.replace("tool_call", "search"))).toMatch(
      /Action "search" is not an action; use one of respond, retrieve, tool_call, verify, delegate, stop/,
    );
  });

  it("a Unicode look-alike of an action id is unknown, and shown escaped", () => {
    const cyrillic = "t\u043e\u043el_call"; // Cyrillic о twice
    expect(problemsOf(CANONICAL.replace("tool_call", cyrillic))).toContain("t\\u{43e}\\u{43e}l_call");
    expect(problemsOf(CANONICAL.replace("tool_call", "tool_call\u200b"))).toContain("\\u{200b}");
    expect(problemsOf(CANONICAL.replace("tool_call", "ｔool_call"))).toMatch(/is not an action/);
  });

  it("an action in the wrong case is refused with a hint", () => {
    expect(problemsOf(CANONICAL.replace("tool_call", "Tool_Call"))).toMatch(/lower case: tool_call/);
  });

  it("an unknown Breakdown field is named", () => {
    expect(problemsOf(CANONICAL.replace("Redundancy=0.0", "Redundancy=0.0 Novelty=0.3"))).toMatch(/unknown field "Novelty"/);
  });

  it("a candidate row with an unknown action or a duplicate is an error", () => {
    const base = "Action: retrieve\nUtility: 0.30\nBreakdown: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0\nRationale: x";
    const row = "- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0";
    expect(problemsOf(`Candidates:\n${row}\n- browse: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0\n${base}`)).toMatch(
      /In Candidates, Action "browse"/,
    );
    expect(problemsOf(`Candidates:\n${row}\n${row}\n${base}`)).toMatch(/lists retrieve twice/);
  });

  it("an empty Rationale is an error", () => {
    expect(problemsOf(CANONICAL.replace(/Rationale: .*/, 'Rationale: ""'))).toMatch(/Rationale is empty/);
  });
});
