/**
 * The guidance evaluation harness (scripts/eval/run.mjs) on stored texts: it
 * runs them through the real, built hook processes and judges each the way
 * docs/guidance-eval.md counts it. The texts under texts/reference are the
 * helper's own answer key, not a reader's: they show each situation can be
 * solved; texts/wrong show a failure is seen as one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths.js";
import { allSituations, callOf, lastReportText, loadSituation, messageOf, readerPrompt, runSituation } from "../../scripts/eval/run.mjs";

const DIR = join(ROOT, "test", "eval");
const situation = (id: string) => loadSituation(join(DIR, "situations", `${id}.json`));
const text = (kind: string, id: string) => readFileSync(join(DIR, "texts", kind, `${id}.txt`), "utf8");
const HOOK = join(ROOT, "plugin", "dist", "hooks", "pre-tool-use.js");
const SLOW = 120_000;

describe("the situations", () => {
  const all = allSituations();

  it("are at least ten, across self, subagent and dispatch, with calls and endings, budgets and refusals", () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
    expect(new Set(all.map((s) => s.scope))).toEqual(new Set(["self", "subagent", "dispatch"]));
    expect(all.some((s) => s.expect === "end")).toBe(true);
    expect(all.some((s) => s.planted !== undefined)).toBe(true);
    expect(all.some((s) => s.gate.skill === "eval:short-budget")).toBe(true);
    for (const s of all)
      expect(Object.keys(s)).toEqual(expect.arrayContaining(["id", "scope", "model", "gate", "prompt", "call", "expect"]));
  });

  it("each has a reference text", () => {
    const reference = readdirSync(join(DIR, "texts", "reference"));
    for (const s of all) expect(reference).toContain(`${s.id}.txt`);
  });
});

describe("reading a reader's answer", () => {
  it("takes the message after MESSAGE:, and a CALL line before it", () => {
    const answer = 'FILES: a, b\nCALL: Read {"file_path":"src/x.py"}\nMESSAGE:\nAction: retrieve\nUtility: 0.1';
    expect(messageOf(answer)).toBe("Action: retrieve\nUtility: 0.1");
    expect(callOf(answer)).toEqual({ tool: "Read", input: { file_path: "src/x.py" } });
    expect(callOf("MESSAGE:\nCALL: Bash {}")).toBeUndefined();
    expect(messageOf("Action: stop")).toBe("Action: stop");
  });

  it("counts the report alone for its tokens, not the answer after it", () => {
    const message =
      'Intro.\nAction: respond\nUtility: 0.51\nBreakdown: Gain=0.9 StepCost=0.29 Uncertainty=0.2 Redundancy=0.0\nRationale: "done"\n\nThe long answer.';
    expect(lastReportText(message)).toBe(
      'Action: respond\nUtility: 0.51\nBreakdown: Gain=0.9 StepCost=0.29 Uncertainty=0.2 Redundancy=0.0\nRationale: "done"',
    );
  });
});

describe.runIf(existsSync(HOOK))("the harness through the real PreToolUse hook", () => {
  it.each(["self-01-first-read", "sub-12-first-search", "disp-14-launch"])(
    "%s: the reference text passes on the first try, at under 80 report tokens",
    async (id) => {
      const result = await runSituation(situation(id), [text("reference", id)]);
      expect(result).toMatchObject({ id, firstTry: true, attempts: [{ got: "passed" }] });
      expect(result.attempts[0]!.reportTokens).toBeLessThan(80);
    },
    SLOW,
  );

  it(
    "an ending situation: a respond report is judged ended, by the hook's own refusal of the call",
    async () => {
      const result = await runSituation(situation("self-09-budget-spent"), [text("reference", "self-09-budget-spent")]);
      expect(result).toMatchObject({ firstTry: true, attempts: [{ got: "ended (respond)", rule: "budget_spent" }] });
    },
    SLOW,
  );

  it(
    "a planted refusal: the real message comes back, and the retry passes",
    async () => {
      const result = await runSituation(situation("self-10-refused-arithmetic"), [text("reference", "self-10-refused-arithmetic")]);
      expect(result.attempts[0]).toMatchObject({ planted: true, rule: "utility_mismatch" });
      expect(result.attempts[0]!.message).toContain("Write Utility: 0.14.");
      expect(result).toMatchObject({ firstTry: true, attempts: [{}, { got: "passed" }] });
    },
    SLOW,
  );

  it(
    "a wrong report fails the first try; its retry after the refusal is judged as the second",
    async () => {
      const id = "self-01-first-read";
      const result = await runSituation(situation(id), [text("wrong", id), text("reference", id)]);
      expect(result).toMatchObject({ firstTry: false, secondTry: true });
      expect(result.attempts[0]).toMatchObject({ got: "refused (tool_not_permitted)" });
      expect(result.attempts[0]!.message).toContain("PreToolUse:Read hook error: utility gate: Action tool_call does not permit Read");
    },
    SLOW,
  );

  it(
    "a call where the situation calls for an ending is a failure even though the hook refuses it",
    async () => {
      const id = "self-09-budget-spent";
      const result = await runSituation(situation(id), [text("wrong", id)]);
      expect(result).toMatchObject({ firstTry: false, attempts: [{ got: "refused (budget_spent)" }] });
    },
    SLOW,
  );

  it(
    "a reader that makes no call is judged by the real Stop hook: an ending situation passes",
    async () => {
      const id = "self-09-budget-spent";
      const result = await runSituation(situation(id), [text("2026-12-01-r1", id)]);
      expect(result).toMatchObject({ firstTry: true, attempts: [{ got: "ended (no call; Stop hook let it stop)" }] });
    },
    SLOW,
  );

  it(
    "making no call where the situation calls for one is a failure, and a stop after an untaken report is blocked",
    async () => {
      const noCall = "FILES: plugin/skills/utility-scoring/SKILL.md\nCALL: none\nMESSAGE:\nDone.";
      const ended = await runSituation(situation("self-01-first-read"), [noCall]);
      expect(ended).toMatchObject({ firstTry: false, attempts: [{ got: "ended (no call; Stop hook let it stop)", ok: false }] });
      const untaken = `FILES: plugin/skills/utility-scoring/SKILL.md\nCALL: none\nMESSAGE:\n${messageOf(text("reference", "self-01-first-read"))}`;
      const blocked = await runSituation(situation("self-01-first-read"), [untaken]);
      expect(blocked).toMatchObject({ firstTry: false, attempts: [{ got: "stop blocked" }] });
    },
    SLOW,
  );

  it(
    "the reader's prompt shows the hook's own utility: line after each earlier call, and names only the Markdown",
    async () => {
      const prompt = await readerPrompt(situation("self-02-run-test"));
      expect(prompt).toContain(
        "[system] PreToolUse:Read hook additional context: utility: step 1/10 · opus · StepCost 0.361 · respond 0.29",
      );
      expect(prompt).toContain(
        "[system] PreToolUse:Read hook additional context: utility: step 2/10 · opus · StepCost 0.432 · respond 0.29",
      );
      expect(prompt).toContain("`examples/skills/gated-example/SKILL.md`");
      expect(prompt).toContain("`plugin/skills/utility-scoring/SKILL.md`");
      expect(prompt).not.toContain("numbers.test");
    },
    SLOW,
  );
});
