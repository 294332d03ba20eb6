// The formatter's output, whole, without the seed reports (format.test.ts compares with those).
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../../src/engine/defaults.js";
import { formatReport, formatSignal } from "../../../src/engine/report/format.js";

const signals = { gain: 0.7, stepCost: 0.12, uncertainty: 0.6, redundancy: 0 };

describe("formatReport, whole", () => {
  it("the short form: three lines, and a fourth for a Rationale, its double quotes made single", () => {
    expect(formatReport({ action: "tool_call", signals, lambdas: DEFAULT_CONFIG.lambdas })).toBe(
      "Action: tool_call\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0",
    );
    expect(
      formatReport({ action: "tool_call", signals, lambdas: DEFAULT_CONFIG.lambdas, rationale: 'run "npm test"' }).split("\n")[3],
    ).toBe(`Rationale: "run 'npm test'"`);
    expect(formatReport({ action: "tool_call", signals, lambdas: DEFAULT_CONFIG.lambdas, rationale: "" }).split("\n")[3]).toBe(
      'Rationale: ""',
    );
  });

  it("the long form: the Candidates header and one row per candidate first", () => {
    const text = formatReport({
      action: "tool_call",
      signals,
      lambdas: DEFAULT_CONFIG.lambdas,
      candidates: [
        { action: "tool_call", signals },
        { action: "stop", signals: { gain: 0, stepCost: 0, uncertainty: 0.5, redundancy: 0 } },
      ],
    });
    expect(text.split("\n")).toEqual([
      "Candidates:",
      "- tool_call: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0",
      "- stop: Gain=0.0 StepCost=0.0 Uncertainty=0.5 Redundancy=0.0",
      "Action: tool_call",
      "Utility: 0.28",
      "Breakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0",
    ]);
    expect(formatReport({ action: "stop", signals, lambdas: DEFAULT_CONFIG.lambdas, candidates: [] }).split("\n")[0]).toBe("Candidates:");
  });

  it("writes signals as a model would", () => {
    expect([0, 1, 0.5, 0.12, 0.1 + 0.2].map(formatSignal)).toEqual(["0.0", "1.0", "0.5", "0.12", "0.3"]);
  });
});
