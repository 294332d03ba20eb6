import { describe, expect, it } from "vitest";
import type { Scope } from "../../../src/engine/vocabulary.js";
import { checkReport, rationaleDocumentsOverride, type CheckOutcome } from "../../../src/engine/report/check.js";
import { parseLastReport } from "../../../src/engine/report/parse.js";
import { defaultConfig, type Config } from "../../../src/engine/signals.js";

const config = defaultConfig();

function check(text: string, options: { scope?: Scope; step?: number; config?: Config } = {}): CheckOutcome {
  const parsed = parseLastReport(text);
  if (!parsed?.ok) throw new Error(`fixture does not parse: ${JSON.stringify(parsed)}`);
  return checkReport(parsed.value, { scope: options.scope ?? "self", step: options.step ?? 0, config: options.config ?? config });
}

const report = (action: string, utility: string, breakdown: string, rationale = "because") =>
  `Action: ${action}\nUtility: ${utility}\nBreakdown: ${breakdown}\nRationale: ${rationale}`;

const CANONICAL = report("tool_call", "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0");

function refusal(outcome: CheckOutcome) {
  if (outcome.ok) throw new Error("expected a refusal");
  return outcome.refusal;
}

describe("checkReport", () => {
  it("accepts the canonical example", () => {
    const outcome = check(CANONICAL);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.evaluation.termination.terminate).toBe(false);
  });

  it("refuses a Utility that disagrees with its breakdown and gives the recomputed value", () => {
    const r = refusal(check(CANONICAL.replace("0.28", "0.30")));
    expect(r.rule).toBe("utility_mismatch");
    expect(r.message).toContain("= 0.28");
    expect(r.message).toContain("Write Utility: 0.28");
  });

  it("compares after rounding half away from zero", () => {
    // 0.7 − 0.5·0.83 = 0.285 → 0.29
    expect(check(report("tool_call", "0.29", "Gain=0.7 StepCost=0 Uncertainty=0.83 Redundancy=0")).ok).toBe(true);
    expect(refusal(check(report("tool_call", "0.28", "Gain=0.7 StepCost=0 Uncertainty=0.83 Redundancy=0"))).rule).toBe("utility_mismatch");
  });

  it("uses the configured λ", () => {
    const custom = { ...config, lambdas: [1, 0, 0] as [number, number, number] };
    expect(check(report("tool_call", "0.58", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0"), { config: custom }).ok).toBe(true);
  });

  it("refuses delegate in subagent scope and lists the scope's actions", () => {
    const r = refusal(check(report("delegate", "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0"), { scope: "subagent" }));
    expect(r.rule).toBe("unknown_action");
    expect(r.message).toContain("respond, retrieve, tool_call, verify, stop");
    expect(check(report("delegate", "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0"), { scope: "dispatch" }).ok).toBe(true);
  });

  it("refuses once the step budget is spent, whatever the scores", () => {
    expect(check(CANONICAL, { step: 9 }).ok).toBe(true);
    const r = refusal(check(CANONICAL, { step: 10 }));
    expect(r.rule).toBe("budget_spent");
    expect(r.message).toContain("10 of 10");
  });

  it.each(["respond", "stop"])("refuses a tool call under %s: the loop has ended", (action) => {
    const r = refusal(check(report(action, "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0")));
    expect(r.rule).toBe("loop_ended");
  });

  it("refuses below the floor without a high gain", () => {
    const r = refusal(check(report("retrieve", "-0.80", "Gain=0.2 StepCost=0.5 Uncertainty=1 Redundancy=0")));
    expect(r.rule).toBe("below_floor");
    expect(r.message).toContain("-0.80");
  });

  it("judges the high-gain override on the long form only: a short form below the floor is refused, whatever its Rationale", () => {
    const low = "Gain=0.7 StepCost=1 Uncertainty=1 Redundancy=0"; // U = −0.8
    for (const why of ["worth it", "High-gain override: Gain=0.7 on the missing piece"]) {
      const r = refusal(check(report("retrieve", "-0.80", low, why)));
      expect(r.rule).toBe("override_undocumented");
      expect(r.message).toContain("judged on the long form only");
      expect(r.message).toContain("stop included");
    }
  });

  describe("the high-gain override under a floor above −λ2 (stop can lose)", () => {
    const raised = { ...config, floor: 0 };
    // tool_call U = 0.7 − 0.5 − 0.3 = −0.1 < floor 0; stop U = −0.45.
    const table = (rationale: string, stopRow = true) =>
      [
        "Candidates:",
        "- tool_call: Gain=0.7 StepCost=0.5 Uncertainty=0.6 Redundancy=0",
        ...(stopRow ? ["- stop: Gain=0 StepCost=0 Uncertainty=0.9 Redundancy=0"] : []),
        report("tool_call", "-0.10", "Gain=0.7 StepCost=0.5 Uncertainty=0.6 Redundancy=0", rationale),
      ].join("\n");

    it("passes only when the Rationale names the override and the Gain", () => {
      expect(refusal(check(table("worth it"), { config: raised })).rule).toBe("override_undocumented");
      expect(refusal(check(table("override applies"), { config: raised })).rule).toBe("override_undocumented");
      expect(refusal(check(table("Gain 0.7 is high"), { config: raised })).rule).toBe("override_undocumented");
      expect(check(table("High-gain override: Gain=0.7 on the missing piece"), { config: raised }).ok).toBe(true);
      expect(check(table('"Overriding the floor since Gain is 0.70."'), { config: raised }).ok).toBe(true);
    });

    it("a table without a stop row is refused like the short form", () => {
      const r = refusal(check(table("High-gain override: Gain=0.7", false), { config: raised }));
      expect(r.message).toContain("judged on the long form only");
    });

    it("at the default floor stop beats any action below it, so the table refuses by the argmax", () => {
      const r = refusal(
        check(
          table("High-gain override: Gain=0.7")
            .replace("StepCost=0.5", "StepCost=1")
            .replace("Utility: -0.10", "Utility: -0.60")
            .replace("Gain=0.7 StepCost=0.5", "Gain=0.7 StepCost=1"),
        ),
      );
      expect(r.rule).toBe("not_argmax");
      expect(r.message).toContain("stop has U = -0.45");
    });
  });

  describe("the long form", () => {
    const table = (action: string, utility: string, breakdown: string) =>
      [
        "Candidates:",
        "- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0",
        "- tool_call: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0",
        "- stop: Gain=0.0 StepCost=0.0 Uncertainty=0.5 Redundancy=0.0",
        report(action, utility, breakdown),
      ].join("\n");

    it("accepts the argmax", () => {
      expect(check(table("retrieve", "0.30", "Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0")).ok).toBe(true);
    });

    it("refuses an Action that is not the argmax and names the argmax", () => {
      const r = refusal(check(table("tool_call", "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0")));
      expect(r.rule).toBe("not_argmax");
      expect(r.message).toContain("retrieve has U = 0.30");
    });

    it("refuses the loser of an exact tie and explains the tie-break", () => {
      const tie = [
        "Candidates:",
        "- tool_call: Gain=0.5 StepCost=0 Uncertainty=0 Redundancy=0",
        "- verify: Gain=0.5 StepCost=0 Uncertainty=0 Redundancy=0",
        report("tool_call", "0.50", "Gain=0.5 StepCost=0 Uncertainty=0 Redundancy=0"),
      ].join("\n");
      const r = refusal(check(tie));
      expect(r.rule).toBe("not_argmax");
      expect(r.message).toMatch(/verify has U = 0.50 against 0.50 \(a tie goes to stop, respond, verify/);
    });

    it("refuses a Breakdown that differs from the Action's row", () => {
      expect(
        refusal(
          check(
            table("retrieve", "0.30", "Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0").replace(
              "- retrieve: Gain=0.6",
              "- retrieve: Gain=0.65",
            ),
          ),
        ).rule,
      ).toBe("malformed");
    });

    it("refuses an Action with no row", () => {
      const text = table("verify", "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0");
      expect(refusal(check(text)).rule).toBe("malformed");
    });

    it("refuses a row U= that disagrees", () => {
      const text = table("retrieve", "0.30", "Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0").replace(
        "Redundancy=0.0\n- tool_call",
        "Redundancy=0.0 U=0.5\n- tool_call",
      );
      expect(refusal(check(text)).rule).toBe("utility_mismatch");
    });

    it("applies the floor to every non-stop candidate: one above the floor keeps the loop going", () => {
      const text = [
        "Candidates:",
        "- retrieve: Gain=0.1 StepCost=0.5 Uncertainty=0.1 Redundancy=0",
        "- tool_call: Gain=0.1 StepCost=1 Uncertainty=1 Redundancy=1",
        report("retrieve", "-0.45", "Gain=0.1 StepCost=0.5 Uncertainty=0.1 Redundancy=0"),
      ].join("\n");
      expect(check(text).ok).toBe(true);
    });

    it("names what is wrong in each refusal of the table", () => {
      const ok = table("retrieve", "0.30", "Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0");
      expect(refusal(check(ok.replace("Redundancy=0.0\n- tool_call", "Redundancy=0.0 U=0.5\n- tool_call"))).message).toBe(
        "Candidates row retrieve gives U=0.5, but 0.6 − 1.0·0.1 − 0.5·0.4 − 0.8·0.0 = 0.30.",
      );
      expect(refusal(check(table("verify", "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0"))).message).toBe(
        "Action verify has no row in Candidates; the Action must be one of the scored candidates.",
      );
      expect(refusal(check(ok.replace("- retrieve: Gain=0.6", "- retrieve: Gain=0.65"))).message).toBe(
        "The Breakdown of retrieve differs from its Candidates row; copy the row's four values into the Breakdown.",
      );
      expect(refusal(check(table("tool_call", "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0"))).message).toBe(
        "Action tool_call is not the argmax of Candidates: retrieve has U = 0.30 against 0.28. Under the gate the best action is mandatory: take retrieve, or rescore.",
      );
    });

    it("accepts rows whose U= agrees", () => {
      const ok = table("retrieve", "0.30", "Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0");
      expect(check(ok.replace("Redundancy=0.0\n- tool_call", "Redundancy=0.0 U=0.30\n- tool_call")).ok).toBe(true);
    });

    it("refuses a candidate outside the scope, even when the Action is inside it", () => {
      const text = [
        "Candidates:",
        "- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0",
        "- delegate: Gain=0.1 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0",
        report("retrieve", "0.30", "Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0"),
      ].join("\n");
      expect(refusal(check(text, { scope: "subagent" }))).toEqual({
        rule: "unknown_action",
        message:
          "Action delegate is not available in subagent scope; the actions here are respond, retrieve, tool_call, verify, stop. Rescore with those only.",
      });
      expect(check(text, { scope: "self" }).ok).toBe(true);
    });

    it("an override is justified by a candidate's Gain at the threshold exactly", () => {
      const text = [
        "Candidates:",
        "- retrieve: Gain=0.6 StepCost=1 Uncertainty=0.6 Redundancy=0",
        "- tool_call: Gain=0.7 StepCost=1 Uncertainty=1 Redundancy=0.5",
        "- stop: Gain=0 StepCost=0 Uncertainty=1 Redundancy=1",
        report("retrieve", "-0.70", "Gain=0.6 StepCost=1 Uncertainty=0.6 Redundancy=0", "high-gain override: tool_call has Gain 0.7"),
      ].join("\n");
      // The override is judged on the long form with a stop row (docs/guidance-decisions.md); stop here scores -1.30.
      expect(check(text).ok).toBe(true);
      expect(refusal(check(text.replace("has Gain 0.7", "has Gain 0.6"))).rule).toBe("override_undocumented");
    });

    it("accepts an override justified by another candidate's Gain", () => {
      const text = [
        "Candidates:",
        "- retrieve: Gain=0.6 StepCost=0.5 Uncertainty=0.6 Redundancy=0",
        "- tool_call: Gain=0.8 StepCost=0.5 Uncertainty=1 Redundancy=0.5",
        "- stop: Gain=0 StepCost=0 Uncertainty=0.9 Redundancy=0",
        report("retrieve", "-0.20", "Gain=0.6 StepCost=0.5 Uncertainty=0.6 Redundancy=0", "high-gain override: tool_call has Gain 0.8"),
      ].join("\n");
      expect(check(text, { config: { ...config, floor: 0 } }).ok).toBe(true);
    });
  });
});

describe("rationaleDocumentsOverride", () => {
  it("needs both the word and the value", () => {
    expect(rationaleDocumentsOverride("override, gain 0.75", [0.75])).toBe(true);
    expect(rationaleDocumentsOverride("override, gain 0.7", [0.75])).toBe(false);
    expect(rationaleDocumentsOverride("gain .75 is high", [0.75])).toBe(false);
  });

  it("reads integers too, and any of the justifying gains will do", () => {
    expect(rationaleDocumentsOverride("override: Gain 1", [1])).toBe(true);
    expect(rationaleDocumentsOverride("override: Gain 0.9", [0.8, 0.9])).toBe(true);
  });

  it("reads whole numbers only: a value inside a longer one does not count", () => {
    expect(rationaleDocumentsOverride("override: Gain 0.85", [0.85])).toBe(true);
    expect(rationaleDocumentsOverride("override: Gain .85", [0.85])).toBe(true);
    expect(rationaleDocumentsOverride("override at step 10.85", [0.85])).toBe(false);
    expect(rationaleDocumentsOverride("override 1.0.85", [0.85])).toBe(false);
    expect(rationaleDocumentsOverride("override(0.85)", [0.85])).toBe(true);
  });
});
