/**
 * Slow text (issue 10, item 3): text the model writes before a call must not
 * keep PreToolUse busy past its deadline, whatever its shape. Each case is a
 * long run of one character where a backtracking pattern used to go
 * quadratic (tens of seconds at these sizes, past Claude Code's 15 s hook
 * timeout, which then runs the call). Run as real hook processes in a gated
 * scope: each must refuse, on time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_REPORT_TEXT_CHARS, PRE_TOOL_USE_DEADLINE_MS } from "../../../src/engine/defaults.js";
import { pool, sandbox, type Sandbox } from "../support.js";
import { callAfter } from "./support.js";

let box: Sandbox;
beforeAll(() => void (box = sandbox("utility-slow-")));
afterAll(() => box.remove());

/** As long as a report text may be, less room for the rest of the case. */
const N = MAX_REPORT_TEXT_CHARS - 200;
const SIGNALS = "Utility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: x";

export const HOSTILE_TEXTS: Record<string, string> = {
  "spaces after the Action value": `Action: a${" ".repeat(N)}x\n${SIGNALS}`,
  "stars after the Action value": `Action: a${"*".repeat(N)}x\n${SIGNALS}`,
  "a label line with spaces and no colon": `Action${" ".repeat(N)}x`,
  "spaces inside the Utility value": `Action: tool_call\nUtility: 1${" ".repeat(N)}x\nRationale: x`,
  "one long name in the Breakdown": `Action: tool_call\nUtility: 0.28\nBreakdown: ${"a".repeat(N)}\nRationale: x`,
  "spaces between Breakdown names": `Action: tool_call\nUtility: 0.28\nBreakdown: a${" ".repeat(N)}x\nRationale: x`,
  "underscores after a Candidates name": `Candidates:\n- a${"_".repeat(N)}:\n- b${"_".repeat(10)}x\nAction: tool_call\n${SIGNALS}`,
  "a Candidates row with a paragraph separator": `Candidates:\n- a: x${"=".repeat(N)}\u2029y\nAction: tool_call\n${SIGNALS}`,
};

describe("slow text in a gated scope", () => {
  it.each(Object.keys(HOSTILE_TEXTS))("%s: refused, well inside the deadline", async (name) => {
    const text = HOSTILE_TEXTS[name]!;
    expect(text.length).toBeLessThanOrEqual(MAX_REPORT_TEXT_CHARS);
    const d = await callAfter(box, { before: text });
    expect(d.proc.stderr).toBe("");
    expect(d.denied, d.proc.stdout).toBe(true);
    expect(d.reason).toMatch(/^utility gate: /);
    expect(d.proc.ms).toBeLessThan(PRE_TOOL_USE_DEADLINE_MS);
  });

  it("a control: the same sizes of ordinary prose before a good report pass", async () => {
    const d = await callAfter(box, { before: `${"Some prose. ".repeat(Math.floor(N / 12))}\n\nAction: tool_call\n${SIGNALS}` });
    expect(d.proc.stderr).toBe("");
    expect(d.denied, d.reason).toBe(false);
  });
});

describe("a report text too large to be one", () => {
  it("is refused by its size, naming the size and the limit", async () => {
    const before = `${"x".repeat(MAX_REPORT_TEXT_CHARS)}\n\nAction: tool_call\n${SIGNALS}`;
    const d = await callAfter(box, { before });
    expect(d.denied).toBe(true);
    expect(d.reason).toContain(`is ${before.length} characters long, more than the ${MAX_REPORT_TEXT_CHARS} an action report may take`);
  });

  it("one character under the limit is read", async () => {
    const report = `Action: tool_call\n${SIGNALS}`;
    const d = await callAfter(box, { before: `${"x".repeat(MAX_REPORT_TEXT_CHARS - report.length - 2)}\n\n${report}` });
    expect(d.denied, d.reason).toBe(false);
  });

  it("several at once each decide on time (2 at a time, the machine's cores)", async () => {
    const names = Object.keys(HOSTILE_TEXTS).slice(0, 4);
    const results = await pool(names.length, 2, (i) => callAfter(box, { before: HOSTILE_TEXTS[names[i]!]! }));
    for (const d of results) {
      expect(d.denied).toBe(true);
      expect(d.proc.ms).toBeLessThan(PRE_TOOL_USE_DEADLINE_MS);
    }
  });
});
