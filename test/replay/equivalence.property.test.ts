/**
 * One truth (SPEC §15, issue 19): generated sessions run through the real hook
 * handlers (in the order Claude Code runs them, against a real data folder and
 * transcripts written as Claude Code writes them) and through replay of the
 * transcripts they leave. Both must decide every call alike (the rule that
 * refused it, a fallback to the user, a stuck loop and its steps), find the
 * same identical outcomes, and count the same spend, equal to the usage the
 * session's messages report. The generator makes loops that tell nothing
 * (the same command, the same result, an edit between) on purpose (SPEC §13).
 *
 * Runs: UTILITY_PROPERTY_RUNS (default below); a failure prints the session
 * fast-check shrank it to.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sessionSpend } from "../../src/engine/session/views.js";
import { totalTokens } from "../../src/engine/spend.js";
import { FileStateStore } from "../../src/state/store.js";
import { replayFiles } from "../../src/replay/files.js";
import type { UserSettings } from "../../src/engine/session/decide.js";
import { simulate, SKILLS, type SimCall, type SimMessage, type SimPrompt, type SimSession, type SimTurn } from "./session-sim.js";

const RUNS = Number(process.env.UTILITY_PROPERTY_RUNS ?? 2000);
const SHRINK_BUDGET_MS = 90_000;

const tokens = fc.record({
  input: fc.integer({ min: 0, max: 5000 }),
  output: fc.integer({ min: 1, max: 800 }),
  cacheCreation: fc.integer({ min: 0, max: 2000 }),
  cacheRead: fc.integer({ min: 0, max: 20000 }),
});
const outcome = fc.constantFrom("ran" as const, "ran" as const, "error" as const, "denied" as const);
const path = fc.constantFrom("/p/a.ts", "/p/b.ts", "/p");
const leafCall: fc.Arbitrary<SimCall> = fc.oneof(
  fc.record({ tool: fc.constant("Read" as const), path, outcome, result: fc.constantFrom("one", "two") }),
  fc.record({
    tool: fc.constant("Bash" as const),
    command: fc.constantFrom("ls", "npm test"),
    outcome,
    result: fc.constantFrom("ok", "FAIL"),
    background: fc.boolean(),
  }),
  fc.record({ tool: fc.constant("Write" as const), path, outcome }),
  fc.constant({ tool: "TodoWrite" as const }),
  fc.record({ tool: fc.constant("Skill" as const), skill: fc.constantFrom(...(Object.keys(SKILLS) as Array<keyof typeof SKILLS>)) }),
);
const report = fc.constantFrom(
  "none",
  "tool_call",
  "retrieve",
  "verify",
  "delegate",
  "wrong_utility",
  "malformed",
  "respond",
  "unsure",
  "redundant" as const,
);
const leafMessage: fc.Arbitrary<SimMessage> = fc.record({ report, calls: fc.array(leafCall, { maxLength: 3 }), tokens });
const agentCall: fc.Arbitrary<SimCall> = fc.record({
  tool: fc.constant("Agent" as const),
  messages: fc.array(leafMessage, { maxLength: 3 }),
});
const message: fc.Arbitrary<SimMessage> = fc.record({
  report,
  calls: fc.array(fc.oneof({ weight: 5, arbitrary: leafCall }, { weight: 1, arbitrary: agentCall }), { maxLength: 3 }),
  tokens,
});
const prompt: fc.Arbitrary<SimPrompt> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("typed" as const), text: fc.constantFrom("fix the bug", "go on") }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("slash" as const),
      command: fc.constant("/utility" as const),
      args: fc.constantFrom("on" as const, "off" as const, "status" as const, "report" as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "notification" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("wakeup" as const), text: fc.constantFrom("/utility off", "check again") }) },
);
/**
 * A loop that tells nothing (SPEC §13): the same command, returning the same
 * result (or now and then another), run again and again with an edit in
 * between that changes nothing it reads, each run in its own message.
 */
const loop: fc.Arbitrary<SimMessage[]> = fc
  .record({
    command: fc.constantFrom("npm test", "make"),
    runs: fc.array(fc.record({ result: fc.constantFrom("FAIL", "FAIL", "FAIL", "ok"), outcome, report }), { minLength: 2, maxLength: 6 }),
    edit: fc.constantFrom("/p/a.ts", "/p/b.ts"),
    tokens,
  })
  .map(({ command, runs, edit, tokens: t }) =>
    runs.flatMap(({ result, outcome: o, report: r }) => [
      { report: r, calls: [{ tool: "Bash" as const, command, outcome: o, result }], tokens: t },
      { report: "tool_call" as const, calls: [{ tool: "Write" as const, path: edit, outcome: "ran" as const }], tokens: t },
    ]),
  );
const turn: fc.Arbitrary<SimTurn> = fc.record({
  prompt,
  messages: fc
    .array(fc.oneof({ weight: 3, arbitrary: message.map((m) => [m]) }, { weight: 2, arbitrary: loop }), { maxLength: 4 })
    .map((groups) => groups.flat()),
  final: tokens,
  compactAfter: fc.boolean(),
});
/** A setting the user leaves unset two times in three (budgets spent early would hide every later rule). */
const rarely = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
export const sessionArb: fc.Arbitrary<SimSession> = fc
  .record({
    turns: fc.array(turn, { minLength: 1, maxLength: 4 }),
    tokenBudget: rarely(fc.integer({ min: 2000, max: 40000 })),
    sessionTokenBudget: rarely(fc.integer({ min: 5000, max: 80000 })),
    stuckAfter: fc.option(fc.constantFrom(0, 2, 3, 4), { nil: undefined }),
    confirmAbove: fc.option(fc.constantFrom(0.5, 0.7, 0.95), { nil: undefined }),
    askAnswer: fc.constantFrom("yes" as const, "no" as const),
  })
  .map((s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as unknown as SimSession);

interface Decided {
  decision: string;
  rule?: string;
  /** SPEC §14: left to the user. */
  fallback?: string;
  /** SPEC §13: a stuck loop's next run, after the runs at these steps. */
  stuck?: number[];
}

const decided = (d: {
  decision: string;
  rule?: string | undefined;
  fallback?: string | undefined;
  stuck?: number[] | undefined;
}): Decided => ({
  decision: d.decision,
  ...(d.rule ? { rule: d.rule } : {}),
  ...(d.fallback ? { fallback: d.fallback } : {}),
  ...(d.stuck ? { stuck: d.stuck } : {}),
});

interface HookRecord {
  event: string;
  toolUseId?: string;
  decision: string;
  rule?: string;
  fallback?: string;
  stuck?: { steps: number[] };
  outcome?: { identical?: { toolUseId?: string } };
}

function hookRecords(data: string, sessionId: string): HookRecord[] {
  return readFileSync(join(data, "sessions", `${sessionId}.jsonl`), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as HookRecord);
}

/** The hooks' PreToolUse records by tool_use_id (the last one, should a call be logged twice). */
function hooksDecisions(records: readonly HookRecord[]): Map<string, Decided> {
  const map = new Map<string, Decided>();
  for (const r of records)
    if (r.event === "PreToolUse" && r.toolUseId)
      map.set(r.toolUseId, decided({ decision: r.decision, rule: r.rule, fallback: r.fallback, stuck: r.stuck?.steps }));
  return map;
}

/** The calls the hooks found to be identical outcomes (their Outcome records), each with the call it repeated. */
function hooksIdentical(records: readonly HookRecord[]): string[] {
  return records
    .flatMap((r) => (r.event === "Outcome" && r.outcome?.identical ? [`${r.toolUseId}<${r.outcome.identical.toolUseId}`] : []))
    .sort();
}

/** The user's settings the session ran under, as replay takes them. */
function userOf(s: SimSession): UserSettings {
  return {
    budgets: s.tokenBudget !== undefined ? { tokenBudget: s.tokenBudget } : {},
    ...(s.sessionTokenBudget !== undefined ? { session: { sessionTokenBudget: s.sessionTokenBudget } } : {}),
    guards: {
      ...(s.stuckAfter !== undefined ? { stuckAfter: s.stuckAfter } : {}),
      ...(s.confirmAbove !== undefined ? { confirmAboveUncertainty: s.confirmAbove } : {}),
    },
  };
}

describe("the hooks and replay tell one truth (SPEC §15)", () => {
  it(`decide every call alike and count the same spend, over ${RUNS} generated sessions`, async () => {
    const started = Date.now();
    let failedOnce = false;
    const seen = { identical: 0, stuck: 0, refusedStuck: 0, asked: 0 };
    await fc.assert(
      fc.asyncProperty(sessionArb, async (s) => {
        // Shrinking nested sessions can take very long: past the budget, a candidate passes, so the smallest failure found so far is reported.
        if (Date.now() - started > SHRINK_BUDGET_MS && failedOnce) return;
        const run = await simulate(s);
        try {
          const records = hookRecords(run.data, run.sessionId);
          const hooks = hooksDecisions(records);
          const replay = replayFiles([run.transcript], { user: userOf(s) });
          const replayed = new Map<string, Decided>();
          const identical: string[] = [];
          for (const file of replay.files)
            for (const scope of file.scopes) {
              for (const d of scope.decided) replayed.set(d.toolUseId, decided({ ...d, ...(d.stuckSteps ? { stuck: d.stuckSteps } : {}) }));
              for (const f of scope.identicalOutcomes) identical.push(`${f.call.toolUseId}<${f.of.toolUseId}`);
            }
          failedOnce = true;
          expect(Object.fromEntries(replayed)).toEqual(Object.fromEntries(hooks));
          expect(identical.sort()).toEqual(hooksIdentical(records));
          seen.identical += identical.length;
          for (const d of hooks.values()) {
            if (d.stuck) seen.stuck += 1;
            if (d.rule === "no_progress") seen.refusedStuck += 1;
            if (d.fallback) seen.asked += 1;
          }
          const state = new FileStateStore(run.data).read(run.sessionId)!;
          const hookSpend = sessionSpend(state);
          expect(replay.totals.spend.tokens).toEqual(hookSpend.tokens);
          expect(totalTokens(hookSpend.tokens)).toBe(run.sent);
          failedOnce = false;
        } finally {
          run.cleanup();
        }
      }),
      { numRuns: RUNS },
    );
    // The generator reaches what it is for: identical outcomes, stuck loops (refused under the gate), calls left to the user.
    if (RUNS >= 100) expect(Object.entries(seen).filter(([, n]) => n === 0)).toEqual([]);
  }, 600_000);
});
