/**
 * One truth (SPEC §15, issue 19): generated sessions run through the real hook
 * handlers (in the order Claude Code runs them, against a real data folder and
 * transcripts written as Claude Code writes them) and through replay of the
 * transcripts they leave. Both must decide every call alike and count the
 * same spend, equal to the usage the session's messages report.
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
const report = fc.constantFrom("none", "tool_call", "retrieve", "verify", "delegate", "wrong_utility", "malformed", "respond" as const);
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
const turn: fc.Arbitrary<SimTurn> = fc.record({
  prompt,
  messages: fc.array(message, { maxLength: 4 }),
  final: tokens,
  compactAfter: fc.boolean(),
});
export const sessionArb: fc.Arbitrary<SimSession> = fc.record(
  { turns: fc.array(turn, { minLength: 1, maxLength: 4 }), tokenBudget: fc.integer({ min: 2000, max: 40000 }) },
  { requiredKeys: ["turns"] },
);

interface Decided {
  decision: string;
  rule?: string;
}

/** The hooks' PreToolUse records by tool_use_id (the last one, should a call be logged twice). */
function hooksDecisions(data: string, sessionId: string): Map<string, Decided> {
  const map = new Map<string, Decided>();
  for (const line of readFileSync(join(data, "sessions", `${sessionId}.jsonl`), "utf8").split("\n")) {
    if (!line) continue;
    const r = JSON.parse(line) as { event: string; toolUseId?: string; decision: string; rule?: string };
    if (r.event === "PreToolUse" && r.toolUseId) map.set(r.toolUseId, { decision: r.decision, ...(r.rule ? { rule: r.rule } : {}) });
  }
  return map;
}

describe("the hooks and replay tell one truth (SPEC §15)", () => {
  it(`decide every call alike and count the same spend, over ${RUNS} generated sessions`, async () => {
    const started = Date.now();
    let failedOnce = false;
    await fc.assert(
      fc.asyncProperty(sessionArb, async (s) => {
        // Shrinking nested sessions can take very long: past the budget, a candidate passes, so the smallest failure found so far is reported.
        if (Date.now() - started > SHRINK_BUDGET_MS && failedOnce) return;
        const run = await simulate(s);
        try {
          const hooks = hooksDecisions(run.data, run.sessionId);
          const replay = replayFiles([run.transcript], {
            user: s.tokenBudget !== undefined ? { budgets: { tokenBudget: s.tokenBudget } } : undefined,
          });
          const replayed = new Map<string, Decided>();
          for (const file of replay.files)
            for (const scope of file.scopes)
              for (const d of scope.decided) replayed.set(d.toolUseId, { decision: d.decision, ...(d.rule ? { rule: d.rule } : {}) });
          failedOnce = true;
          expect(Object.fromEntries(replayed)).toEqual(Object.fromEntries(hooks));
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
  }, 600_000);
});
