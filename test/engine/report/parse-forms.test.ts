// How a report may be written around, through parseLastReport only (what the gate calls): the
// parser's insides are being rewritten, and these hold whatever it becomes.
import { describe, expect, it } from "vitest";
import { parseLastReport } from "../../../src/engine/report/parse.js";

const LINES = [
  "Action: retrieve",
  "Utility: 0.30",
  "Breakdown: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0",
  "Rationale: read the file first",
];
const SIGNALS = { gain: 0.6, stepCost: 0.1, uncertainty: 0.4, redundancy: 0 };

function parsed(text: string) {
  const result = parseLastReport(text);
  if (!result?.ok) throw new Error(`expected a report, got ${JSON.stringify(result)}`);
  return result.value;
}

describe("a report written around", () => {
  it("with CRLF line ends", () => {
    expect(parsed(LINES.join("\r\n"))).toMatchObject({
      action: "retrieve",
      utility: 0.3,
      signals: SIGNALS,
      rationale: "read the file first",
    });
  });

  it("quoted once or twice (> and > >), with or without a space", () => {
    for (const prefix of ["> ", ">", "> > ", ">>"])
      expect(parsed(LINES.map((l) => prefix + l).join("\n")).signals, prefix).toEqual(SIGNALS);
  });

  it("as a list, bulleted or numbered past 9", () => {
    for (const bullet of ["- ", "* ", "+ ", "• "]) expect(parsed(LINES.map((l) => bullet + l).join("\n")).action, bullet).toBe("retrieve");
    expect(parsed(LINES.map((l, i) => `${i + 10}. ${l}`).join("\n")).utility).toBe(0.3);
    expect(parsed(LINES.map((l, i) => `${i + 10}) ${l}`).join("\n")).utility).toBe(0.3);
  });

  it("in bold or code around the values", () => {
    const text = [
      "Action: **retrieve**",
      "Utility: `0.30`",
      "Breakdown: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0",
      "Rationale: r",
    ].join("\n");
    expect(parsed(text)).toMatchObject({ action: "retrieve", utility: 0.3 });
    expect(parsed(text.replace("`0.30`", "__0.30__")).utility).toBe(0.3);
  });

  it("with the Rationale in straight or curly quotes, which are not part of it", () => {
    for (const [open, close] of [
      ['"', '"'],
      ["\u201c", "\u201d"],
      ["'", "'"],
      ["\u2018", "\u2019"],
    ]) {
      expect(parsed([...LINES.slice(0, 3), `Rationale: ${open}read it${close}`].join("\n")).rationale, open).toBe("read it");
    }
    expect(parsed([...LINES.slice(0, 3), 'Rationale: "read it'].join("\n")).rationale).toBe("read it");
    expect(parsed([...LINES.slice(0, 3), "Rationale: read it\u201d"].join("\n")).rationale).toBe("read it");
  });

  it("with a Rationale wrapped over two lines", () => {
    expect(parsed([...LINES, "and then edit it"].join("\n")).rationale).toBe("read the file first and then edit it");
  });

  it("a signal written twice with two values, or missing, is a problem", () => {
    expect(parseLastReport(LINES.join("\n").replace("Redundancy=0.0", "Redundancy=0.0 Gain=0.7"))?.ok).toBe(false);
    expect(parseLastReport(LINES.join("\n").replace("Redundancy=0.0", "Redundancy=0.0 Gain=0.6"))?.ok).toBe(true);
    expect(parseLastReport(LINES.join("\n").replace(" Redundancy=0.0", ""))?.ok).toBe(false);
  });
});
