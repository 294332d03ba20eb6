// The machine copies a scope's maps and lists only when an event changes them
// (copy on write), and changes nothing at all in place for a transient caller
// (replay). Both must give the state the plain fold gives, and the plain fold
// must never touch the state it was given: every input here is deep-frozen, so
// a write through a shared map or list throws.
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { effectOf, inputDigest } from "../../../src/engine/redundancy.js";
import type { SessionEvent } from "../../../src/engine/session/events.js";
import { reduceAll } from "../../../src/engine/session/reduce.js";
import type { ScopeEvent } from "../../../src/engine/session/scope-events.js";
import { applyEvents } from "../../../src/engine/session/scope-reducer.js";
import { newScope, newSession, type ScopeState, type SessionState } from "../../../src/engine/session/state.js";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as object)) deepFreeze(inner);
  }
  return value;
}

/** A deep copy, to compare against after the fact. */
const copy = <T>(value: T): T => structuredClone(value);

const ids = fc.constantFrom("t1", "t2", "t3", "t4");
const messages = fc.constantFrom("m1", "m2", "m3");
const inputs = fc.constantFrom(
  { file_path: "/a" },
  { file_path: "/b" },
  { command: "ls" },
  { command: "sleep 9", run_in_background: true },
);
const tools = fc.constantFrom("Read", "Bash", "Write", "Agent", "TodoWrite");

const scopeEvent: fc.Arbitrary<ScopeEvent> = fc.oneof(
  fc.record({ kind: fc.constant("prompt" as const), typed: fc.boolean() }),
  fc
    .record({
      id: ids,
      tool: tools,
      input: inputs,
      decision: fc.constantFrom("passed" as const, "observed" as const, "refused" as const, "neutral" as const),
    })
    .map(({ id, tool, input, decision }) => ({
      kind: "call" as const,
      decision,
      tool,
      digest: inputDigest(input),
      effect: effectOf(tool, input),
      toolUseId: id,
    })),
  fc
    .record({
      kind: fc.constant("result" as const),
      toolUseId: ids,
      failed: fc.boolean(),
      bytes: fc.nat(100),
      jobId: fc.option(fc.constant("job1"), { nil: undefined }),
    })
    .map(({ jobId, ...e }) => (jobId ? { ...e, jobId } : e)),
  fc.record({ kind: fc.constant("denied" as const), toolUseId: ids }),
  fc.record({ kind: fc.constant("confirmed" as const), messageId: messages }),
  fc.constant({ kind: "compact" as const }),
  fc.record({ kind: fc.constant("background_ended" as const), jobId: fc.constant("job1") }),
  fc.record({
    kind: fc.constant("usage" as const),
    messageId: messages,
    model: fc.constantFrom("claude-opus-4-5", "claude-haiku-4-5"),
    tokens: fc.record({ input: fc.nat(50), output: fc.nat(50), cacheCreation: fc.nat(50), cacheRead: fc.nat(50) }),
    toolUseIds: fc.array(ids, { maxLength: 2 }),
  }),
  fc.record({ kind: fc.constant("turn_end" as const), subagent: fc.boolean() }),
);

describe("the scope reducer copies only what an event changes", () => {
  it("never changes the state it is given, and folds alike one event at a time, all at once, and in place", () => {
    fc.assert(
      fc.property(fc.array(scopeEvent, { maxLength: 40 }), (events) => {
        let pure: ScopeState = deepFreeze(newScope());
        let inPlace: ScopeState = newScope();
        const outcomes: unknown[] = [];
        const inPlaceOutcomes: unknown[] = [];
        for (const event of events) {
          const before = copy(pure);
          const next = applyEvents(pure, [event]);
          expect(pure).toEqual(before);
          outcomes.push(...next.outcomes);
          pure = deepFreeze(next.state);
          const again = applyEvents(inPlace, [event], true);
          inPlaceOutcomes.push(...again.outcomes);
          inPlace = again.state;
        }
        const whole = applyEvents(deepFreeze(newScope()), events);
        expect(inPlace).toEqual(pure);
        expect(whole.state).toEqual(pure);
        expect(inPlaceOutcomes).toEqual(outcomes);
        expect(whole.outcomes).toEqual(outcomes);
      }),
      { numRuns: 400 },
    );
  });
});

describe("the session machine, transient", () => {
  const keyed = fc.tuple(fc.constantFrom("main" as const, "agent:a1" as const, "agent:a2" as const), scopeEvent);
  const sessionEvent: fc.Arbitrary<SessionEvent> = fc.oneof(
    { weight: 8, arbitrary: keyed.map(([scope, event]) => ({ kind: "scope" as const, scope, event })) },
    { weight: 1, arbitrary: fc.constantFrom("a1", "a2").map((agentId) => ({ kind: "subagent_started" as const, agentId })) },
    { weight: 1, arbitrary: fc.constant({ kind: "prompt_vouched" as const, key: "p1", own: false, slash: false }) },
    { weight: 1, arbitrary: fc.constant({ kind: "prompt_line" as const, key: "p1", lineKind: "typed" as const }) },
  );

  it("gives the state and the session's spend the copying fold gives, and the copying fold leaves its input alone", () => {
    fc.assert(
      fc.property(fc.array(sessionEvent, { maxLength: 40 }), (events) => {
        let pure: SessionState = deepFreeze(newSession("s"));
        let transient: SessionState = newSession("s");
        for (const event of events) {
          const before = copy(pure);
          const next = reduceAll(pure, [event]);
          expect(pure).toEqual(before);
          pure = deepFreeze(next.session);
          transient = reduceAll(transient, [event], { transient: true }).session;
        }
        expect(transient).toEqual(pure);
      }),
      { numRuns: 400 },
    );
  });
});
