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
import {
  allSituations,
  callOf,
  guessesOf,
  lastReportText,
  loadSituation,
  messageOf,
  readerPrompt,
  readerPromptDocument,
  runSituation,
} from "../../scripts/eval/run.mjs";

const DIR = join(ROOT, "test", "eval");
const situation = (id: string) => loadSituation(join(DIR, "situations", `${id}.json`));
const text = (kind: string, id: string) => readFileSync(join(DIR, "texts", kind, `${id}.txt`), "utf8");
const HOOK = join(ROOT, "plugin", "dist", "server.js");
const SLOW = 120_000;

describe("the situations", () => {
  const all = allSituations();

  it("are at least twelve, across self, subagent and dispatch: calls and endings, a budget near its end, refusals, a launch, a Skill call that acts as tool_call, a first call with no line", () => {
    expect(all.length).toBeGreaterThanOrEqual(12);
    expect(new Set(all.map((s) => s.scope))).toEqual(new Set(["self", "subagent", "dispatch"]));
    expect(all.some((s) => s.expect === "end")).toBe(true);
    expect(all.some((s) => s.planted !== undefined)).toBe(true);
    expect(all.some((s) => s.gate.skill === "short-budget")).toBe(true);
    expect(all.some((s) => s.call.tool === "Agent" && s.expect === "call")).toBe(true);
    expect(all.some((s) => s.call.tool === "Skill" && s.expect === "call")).toBe(true);
    expect(all.some((s) => s.gate.slash === true && (s.prelude ?? []).length === 0)).toBe(true);
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

  it("takes the places a reader had to guess, none for none", () => {
    expect(guessesOf("FILES: a\nGUESSES: the step count | quotes\nMESSAGE:\nx")).toEqual(["the step count", "quotes"]);
    expect(guessesOf("FILES: a\nGUESSES: none\nMESSAGE:\nx")).toEqual([]);
    expect(guessesOf("MESSAGE:\nGUESSES: not a field here")).toEqual([]);
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
    "the reader's prompt shows the hooks' own utility: lines (at the activation, after each earlier call), and names only the Markdown",
    async () => {
      const prompt = await readerPrompt(situation("self-02-run-test"));
      const line = (n: number, cost: string) =>
        `utility: ${n} of 10 steps taken · opus · StepCost retrieve/verify/tool_call/delegate ${cost} · respond 0.29 · stop 0`;
      expect(prompt).toContain(`[system] PreToolUse:Skill hook additional context: ${line(0, "0.29")}`);
      expect(prompt).toContain(`[system] PreToolUse:Read hook additional context: ${line(1, "0.361")}`);
      expect(prompt).toContain(`[system] PreToolUse:Read hook additional context: ${line(2, "0.432")}`);
      expect(prompt).toContain("`examples/skills/gated-example/SKILL.md`");
      expect(prompt).toContain("`plugin/skills/utility-scoring/SKILL.md`");
      expect(prompt).not.toContain("numbers.test");
    },
    SLOW,
  );

  it(
    "a gated subagent's prompt shows its SubagentStart line; a slash command on a session's first prompt shows none",
    async () => {
      expect(await readerPrompt(situation("sub-12-first-search"))).toContain(
        "[system] SubagentStart hook additional context: utility: 0 of 10 steps taken · haiku · StepCost retrieve/verify/tool_call 0.029 · respond 0.029 · stop 0",
      );
      const slash = await readerPrompt(situation("self-17-slash-first-call"));
      expect(slash).toContain("You: (the user typed /fix-bug; its SKILL.md is loaded)");
      expect(slash).not.toContain("utility: ");
    },
    SLOW,
  );

  it(
    "a Skill call whose skill runs shell passes under tool_call and is refused under verify; each attempt's StepCost is held against the line's",
    async () => {
      const id = "self-16-skill-shell";
      const reference = await runSituation(situation(id), [text("reference", id)]);
      expect(reference).toMatchObject({
        firstTry: true,
        attempts: [{ got: "passed", stepCost: { action: "tool_call", written: 0.574, line: 0.574, fromLine: true } }],
      });
      const verify = text("reference", id).replace("Action: tool_call", "Action: verify").replace("StepCost=0.574", "StepCost=0.5");
      const wrong = await runSituation(situation(id), [verify.replace("Utility: 0.08", "Utility: 0.15")]);
      expect(wrong).toMatchObject({
        firstTry: false,
        attempts: [{ got: "refused (tool_not_permitted)", stepCost: { line: 0.574, fromLine: false } }],
      });
      expect(wrong.attempts[0]!.message).toContain("so it counts as tool_call");
    },
    SLOW,
  );

  it(
    "READER-PROMPT.md is what the harness generates now (regenerate it: node scripts/eval/run.mjs --reader-prompt)",
    async () => {
      expect(readFileSync(join(DIR, "READER-PROMPT.md"), "utf8")).toBe(await readerPromptDocument());
    },
    SLOW,
  );
});
