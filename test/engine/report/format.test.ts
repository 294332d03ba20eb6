import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../../src/engine/defaults.js";
import { formatReport, formatSignal } from "../../../src/engine/report/format.js";
import { FIXTURES } from "../../support/paths.js";

const signals = { gain: 0.7, stepCost: 0.12, uncertainty: 0.6, redundancy: 0 };
const rationale = "Clear gap exists; tool call likely fills it at acceptable cost.";

/** The original skill's canonical worked example, its "Resulting report" as written there (rationale wrapped). */
function seedReport(): string[] {
  return readFileSync(join(FIXTURES, "reports", "canonical-example.txt"), "utf8")
    .trimEnd()
    .split("\n");
}

describe("formatReport", () => {
  it("produces exactly the seed's Action, Utility and Breakdown lines for the canonical example", () => {
    const seed = seedReport();
    const ours = formatReport({ action: "tool_call", signals, lambdas: DEFAULT_CONFIG.lambdas }).split("\n");
    expect(ours).toEqual(seed.slice(0, 3));
  });

  it("produces the seed's Rationale line when given that rationale", () => {
    const seedRationale = seedReport()
      .slice(3)
      .map((l) => l.trim())
      .join(" ");
    const ours = formatReport({ action: "tool_call", signals, lambdas: DEFAULT_CONFIG.lambdas, rationale }).split("\n")[3];
    expect(ours).toBe(seedRationale);
  });

  it("writes the long form with one row per candidate before the Action line", () => {
    const text = formatReport({
      action: "retrieve",
      signals: { gain: 0.6, stepCost: 0.1, uncertainty: 0.4, redundancy: 0 },
      lambdas: DEFAULT_CONFIG.lambdas,
      candidates: [{ action: "retrieve", signals: { gain: 0.6, stepCost: 0.1, uncertainty: 0.4, redundancy: 0 } }],
    });
    expect(text.split("\n").slice(0, 3)).toEqual([
      "Candidates:",
      "- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0",
      "Action: retrieve",
    ]);
  });

  it.each([
    [0, "0.0"],
    [1, "1.0"],
    [0.7, "0.7"],
    [0.12, "0.12"],
    [0.1 + 0.2, "0.3"],
  ])("formats the signal %s as %s", (value, text) => {
    expect(formatSignal(value)).toBe(text);
  });
});
