// SPEC §13: identical outcomes and stuck loops, as pure rules over a scope's history.
import { describe, expect, it } from "vitest";
import {
  describeSteps,
  findStuckLoop,
  identicalNotice,
  identicalOutcomeOf,
  noProgressReason,
  stuckHint,
  type RanResult,
} from "../../src/engine/no-progress.js";
import { STUCK_REDUNDANCY } from "../../src/engine/defaults.js";

const exec = { kind: "exec" } as const;
const run = (at: number, result: string | undefined, over: Partial<RanResult> = {}): RanResult => ({
  tool: "Bash",
  digest: "npm-test",
  effect: exec,
  at,
  toolUseId: `t${at}`,
  ...(result !== undefined ? { result } : {}),
  ...over,
});
const edit = (at: number): RanResult => ({
  tool: "Edit",
  digest: `edit${at}`,
  effect: { kind: "write", paths: ["/a.ts"] },
  at,
  result: "ok",
});
const CALL = { tool: "Bash", digest: "npm-test", effect: exec };

describe("identicalOutcomeOf", () => {
  it("finds the same call's last run when its result is byte-identical (the digest), whatever ran in between", () => {
    const history = [run(1, "FAIL"), edit(2)];
    expect(identicalOutcomeOf(history, { ...CALL, result: "FAIL" })).toBe(history[0]);
  });

  it("compares with the last run only: an older run with the same result is no match when the last one differed", () => {
    expect(identicalOutcomeOf([run(1, "FAIL"), run(2, "ok")], { ...CALL, result: "FAIL" })).toBeUndefined();
    const last = run(3, "FAIL");
    expect(identicalOutcomeOf([run(1, "ok"), run(2, "ok"), last], { ...CALL, result: "FAIL" })).toBe(last);
  });

  it("needs the same tool and the same input", () => {
    expect(identicalOutcomeOf([run(1, "FAIL", { tool: "Grep" })], { ...CALL, result: "FAIL" })).toBeUndefined();
    expect(identicalOutcomeOf([run(1, "FAIL", { digest: "other" })], { ...CALL, result: "FAIL" })).toBeUndefined();
  });

  it("is never found without a digest on either side (a result that held an image, a run not seen coming back)", () => {
    expect(identicalOutcomeOf([run(1, "FAIL")], CALL)).toBeUndefined();
    expect(identicalOutcomeOf([run(1, undefined)], { ...CALL, result: "FAIL" })).toBeUndefined();
  });

  it("never for polls and planning tools: polling a job is meant to say the same until it ends", () => {
    const poll = { tool: "BashOutput", digest: "b1", effect: { kind: "poll" } as const };
    expect(identicalOutcomeOf([{ ...poll, at: 1, result: "running" }], { ...poll, result: "running" })).toBeUndefined();
    const todo = { tool: "TodoWrite", digest: "d", effect: { kind: "neutral" } as const };
    expect(identicalOutcomeOf([{ ...todo, at: 1, result: "ok" }], { ...todo, result: "ok" })).toBeUndefined();
  });
});

describe("findStuckLoop", () => {
  const loop = [run(1, "FAIL"), edit(2), run(3, "FAIL"), edit(4), run(5, "FAIL"), edit(6)];

  it("is the last `after` runs of the call, oldest first, when they all returned the same result", () => {
    expect(findStuckLoop(loop, CALL, 3)).toEqual([loop[0], loop[2], loop[4]]);
    expect(findStuckLoop(loop, CALL, 2)).toEqual([loop[2], loop[4]]);
  });

  it("is none with fewer runs than `after`, or when the rule is off (0)", () => {
    expect(findStuckLoop(loop, CALL, 4)).toBeUndefined();
    expect(findStuckLoop(loop, CALL, 0)).toBeUndefined();
    expect(findStuckLoop([], CALL, 1)).toBeUndefined();
  });

  it("looks at the last runs only: one different result among them ends the loop", () => {
    expect(findStuckLoop([...loop, run(7, "ok")], CALL, 3)).toBeUndefined();
    expect(findStuckLoop([run(0, "ok"), ...loop], CALL, 3)).toEqual([loop[0], loop[2], loop[4]]);
    expect(findStuckLoop([run(1, "FAIL"), run(3, "ok"), run(5, "FAIL")], CALL, 3)).toBeUndefined();
  });

  it("needs every run's result: a run whose result never came back, or held an image, breaks it", () => {
    expect(findStuckLoop([run(1, undefined), run(3, undefined), run(5, undefined)], CALL, 3)).toBeUndefined();
    expect(findStuckLoop([run(1, "FAIL"), run(3, undefined), run(5, "FAIL")], CALL, 3)).toBeUndefined();
  });

  it("with 1, the last run alone is the loop (the schema allows 0 or 2 and more; the rule itself is plain)", () => {
    expect(findStuckLoop(loop, CALL, 1)).toEqual([loop[4]]);
  });

  it("counts only this call's runs, and never a poll's", () => {
    expect(findStuckLoop(loop, { ...CALL, digest: "other" }, 3)).toBeUndefined();
    expect(findStuckLoop(loop, { ...CALL, tool: "Grep" }, 3)).toBeUndefined();
    const sameInputOtherTool = [run(0, "FAIL", { tool: "Grep" }), run(1, "FAIL"), run(2, "FAIL")];
    expect(findStuckLoop(sameInputOtherTool, CALL, 3)).toBeUndefined();
    const poll = { tool: "TaskOutput", digest: "p", effect: { kind: "poll" } as const };
    const polls = [1, 2, 3].map((at) => ({ ...poll, at, result: "running" }));
    expect(findStuckLoop(polls, poll, 3)).toBeUndefined();
  });
});

describe("what the model is told", () => {
  it("names the steps in words", () => {
    expect(describeSteps([4])).toBe("step 4");
    expect(describeSteps([2, 4])).toBe("steps 2 and 4");
    expect(describeSteps([1, 3, 5])).toBe("steps 1, 3 and 5");
  });

  it("names the task of steps that are not the current task's, so they are not read as its own (issue 34)", () => {
    const runs = (task: number) => [
      { at: 3, task },
      { at: 4, task },
    ];
    expect(describeSteps(runs(8), 8)).toBe("steps 3 and 4");
    expect(describeSteps(runs(7), 8)).toBe("steps 3 and 4 of task 7");
    expect(
      describeSteps(
        [
          { at: 9, task: 7 },
          { at: 1, task: 8 },
        ],
        8,
      ),
    ).toBe("steps 9 (task 7) and 1");
    expect(describeSteps([{ at: 2, task: 7 }], 8)).toBe("step 2 of task 7");
    expect(describeSteps(runs(7))).toBe("steps 3 and 4");
  });

  it("an identical outcome: the call, its step and the step it repeated", () => {
    expect(identicalNotice("Bash", 5, { at: 2, task: 6 })).toContain("returned exactly what it returned at step 2 of task 6, byte");
    expect(identicalNotice("Bash", 5, { at: 3 })).toBe(
      "utility: your Bash call at step 5 returned exactly what it returned at step 3, byte for byte, although something that could change it ran in between: it told you nothing new.",
    );
  });

  it("an identical outcome of a retried failed call says so, not that something ran in between (first-hour walk 34, surprise 6)", () => {
    expect(identicalNotice("Bash", 2, { at: 1 }, true)).toBe(
      "utility: your Bash call at step 2 returned exactly what it returned at step 1, byte for byte, when that run failed: retrying it unchanged told you nothing new.",
    );
  });

  it("a stuck loop: the runs and their steps; refused, the threshold and what the report said", () => {
    const runs = [run(1, "F"), run(3, "F"), run(5, "F")];
    expect(stuckHint("Bash", runs)).toContain(
      "the last 3 runs of this Bash call (steps 1, 3 and 5) returned the same result, byte for byte",
    );
    const reason = noProgressReason("Bash", runs, 0.2);
    expect(reason).toContain("The last 3 runs of this Bash call (steps 1, 3 and 5)");
    expect(reason).toContain(`Redundancy is at least ${STUCK_REDUNDANCY}, not 0.2`);
    expect(reason).toContain(`rescore with Redundancy ≥ ${STUCK_REDUNDANCY}`);
  });
});
