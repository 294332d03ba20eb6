import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ACTIONS, actionsOf, ENDING_ACTIONS, type Action } from "../../../src/engine/vocabulary.js";
import { UTILITY_MAX, UTILITY_MIN } from "../../../src/engine/defaults.js";
import { checkReport } from "../../../src/engine/report/check.js";
import { formatReport } from "../../../src/engine/report/format.js";
import { parseLastReport } from "../../../src/engine/report/parse.js";
import { defaultConfig } from "../../../src/engine/signals.js";
import { selectAction } from "../../../src/engine/select.js";
import { roundUtility, utility } from "../../../src/engine/utility.js";

const config = defaultConfig();
// Signals as a model writes them: up to three decimals in [0, 1].
const signal = fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000);
const signals = fc.record({ gain: signal, stepCost: signal, uncertainty: signal, redundancy: signal });
const action = fc.constantFrom(...ACTIONS);

describe("properties", () => {
  it("U stays within [−2.3, 1.0] for any signals in [0, 1] and the default λ", () => {
    fc.assert(
      fc.property(signals, (s) => {
        const u = utility(s, config.lambdas);
        return u >= UTILITY_MIN - 1e-12 && u <= UTILITY_MAX + 1e-12;
      }),
      { numRuns: 5000 },
    );
  });

  it("format → parse gives back the same report", () => {
    fc.assert(
      fc.property(
        action,
        signals,
        fc.string({ minLength: 1, maxLength: 60 }).filter((s) => /\S/.test(s) && !/["\n\r]/.test(s)),
        (a, s, why) => {
          const text = formatReport({ action: a, signals: s, lambdas: config.lambdas, rationale: why });
          const parsed = parseLastReport(text);
          expect(parsed?.ok).toBe(true);
          if (!parsed?.ok) return;
          expect(parsed.value.action).toBe(a);
          expect(parsed.value.signals).toEqual(s);
          expect(parsed.value.utility).toBe(roundUtility(utility(s, config.lambdas)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("format → parse → check never reports an arithmetic or argmax error for the engine's own choice", () => {
    const table = fc.uniqueArray(fc.record({ action, signals }), { minLength: 1, maxLength: 6, selector: (c) => c.action });
    fc.assert(
      fc.property(table, fc.integer({ min: 0, max: 12 }), (candidates, step) => {
        const best = selectAction(candidates, config.lambdas).best;
        const text = formatReport({
          action: best.action,
          signals: best.signals,
          lambdas: config.lambdas,
          rationale: "override noted: Gain 0.7",
          candidates,
        });
        const parsed = parseLastReport(text);
        expect(parsed?.ok).toBe(true);
        if (!parsed?.ok) return;
        const outcome = checkReport(parsed.value, { scope: "dispatch", step, config });
        if (outcome.ok) return;
        const allowed = ["budget_spent", "loop_ended", "below_floor", "override_undocumented"];
        expect(allowed).toContain(outcome.refusal.rule);
        if (outcome.refusal.rule === "loop_ended") expect(ENDING_ACTIONS).toContain(best.action as Action);
        if (outcome.refusal.rule === "budget_spent") expect(step).toBeGreaterThanOrEqual(config.maxSteps);
      }),
      { numRuns: 2000 },
    );
  });

  it("subagent scope never offers delegate", () => {
    expect(actionsOf("subagent")).not.toContain("delegate");
    expect(actionsOf("self")).toHaveLength(6);
  });
});
