// The session machine (src/engine/session/reduce.ts): every session-level event, directly.
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/engine/session/events.js";
import { reduce, reduceAll, scopeAt } from "../../../src/engine/session/reduce.js";
import { manualSource } from "../../../src/engine/gate-policy.js";
import { newScope, newSession, VOUCHED_PROMPTS_LIMIT, type SessionState } from "../../../src/engine/session/state.js";

const fresh = (): SessionState => ({ ...newSession("s"), main: newScope(0) });
const tokens = (input: number, output = 0) => ({ input, output, cacheCreation: 0, cacheRead: 0 });
const usage = (scope: "main" | `agent:${string}`, messageId: string, n: number, model = "claude-opus-4-5"): SessionEvent => ({
  kind: "scope",
  scope,
  event: { kind: "usage", messageId, model, tokens: tokens(n), toolUseIds: [] },
});
const vouch = (key: string, over: Partial<Extract<SessionEvent, { kind: "prompt_vouched" }>> = {}): SessionEvent => ({
  kind: "prompt_vouched",
  key,
  own: false,
  slash: false,
  ...over,
});
const line = (key: string, lineKind: "typed" | "notification" | "wakeup" = "typed"): SessionEvent => ({
  kind: "prompt_line",
  key,
  lineKind,
});

describe("reduce never changes the session it is given", () => {
  it("returns a changed copy; the input stays as it was", () => {
    const before = fresh();
    const snapshot = structuredClone(before);
    const after = reduceAll(before, [
      vouch("k", { switch: "on" }),
      line("k"),
      usage("main", "m1", 5),
      { kind: "subagent_started", agentId: "a1" },
    ]);
    expect(before).toEqual(snapshot);
    expect(after.session).not.toBe(before);
    expect(reduce(before, vouch("k")).session.prompts).toHaveProperty("k");
  });
});

describe("prompts: vouched by UserPromptSubmit, applied by their line", () => {
  it("a typed, vouched line starts a task; its vouch is used up", () => {
    const r = reduceAll(fresh(), [vouch("k1"), line("k1")]);
    expect(r.session.main.task).toBe(1);
    expect(r.session.prompts).toEqual({});
    expect(r.prompts).toEqual([{ key: "k1", kind: "typed" }]);
    // A second line with the same key (a shell appended it) finds no vouch.
    const again = reduce(r.session, line("k1"));
    expect(again.session.main.task).toBe(1);
    expect(again.prompts).toEqual([{ key: "k1", kind: "unvouched" }]);
  });

  it("a line no UserPromptSubmit vouched for starts nothing", () => {
    const r = reduce(fresh(), line("forged"));
    expect(r.session.main.task).toBe(0);
    expect(r.prompts).toEqual([{ key: "forged", kind: "unvouched" }]);
  });

  it("a notification or a wakeup starts no task, vouched or not, and uses its vouch", () => {
    for (const kind of ["notification", "wakeup"] as const) {
      const r = reduceAll({ ...fresh(), main: newScope(2) }, [vouch("k", { switch: "off" }), line("k", kind)]);
      expect(r.session.main.task).toBe(2);
      expect(r.session.prompts).toEqual({});
      expect(r.prompts).toEqual([{ key: "k", kind }]);
    }
  });

  it("one of the plugin's own commands starts no task, but the session's first prompt does", () => {
    const first = reduceAll(fresh(), [vouch("k1", { own: true }), line("k1")]);
    expect(first.session.main.task).toBe(1);
    const later = reduceAll(first.session, [vouch("k2", { own: true }), line("k2")]);
    expect(later.session.main.task).toBe(1);
  });

  it("each vouch gets the next sequence number; only the newest VOUCHED_PROMPTS_LIMIT are kept", () => {
    let s = fresh();
    for (let i = 0; i <= VOUCHED_PROMPTS_LIMIT; i++) s = reduce(s, vouch(`k${i}`)).session;
    expect(s.promptSeq).toBe(VOUCHED_PROMPTS_LIMIT + 1);
    expect(Object.keys(s.prompts!)).toHaveLength(VOUCHED_PROMPTS_LIMIT);
    expect(s.prompts).not.toHaveProperty("k0");
    expect(s.prompts![`k${VOUCHED_PROMPTS_LIMIT}`]).toEqual({ own: false, seq: VOUCHED_PROMPTS_LIMIT + 1 });
    // Vouched again: the newest place, and a new number.
    s = reduce(s, vouch("k1")).session;
    expect(Object.keys(s.prompts!).at(-1)).toBe("k1");
  });
});

describe("/utility on and off", () => {
  it("on takes effect at its vouch (it only tightens); its line then changes nothing", () => {
    const vouched = reduce(fresh(), vouch("k", { own: true, switch: "on" }));
    expect(vouched.session.manualGate).toBe(true);
    expect(vouched.switchedNow).toBe("on");
    const seen = reduce(vouched.session, line("k"));
    expect(seen.session.manualGate).toBe(true);
    expect(seen.prompts[0]!.switched).toBeUndefined();
  });

  it("off takes effect only when its line shows it typed", () => {
    const on = reduceAll(fresh(), [vouch("k1", { own: true, switch: "on" }), line("k1")]).session;
    const asked = reduce(on, vouch("k2", { own: true, switch: "off" }));
    expect(asked.session.manualGate).toBe(true);
    expect(asked.switchedNow).toBeUndefined();
    const typed = reduce(asked.session, line("k2"));
    expect(typed.session.manualGate).toBe(false);
    expect(typed.prompts[0]!.switched).toBe("off");
    const woken = reduce(asked.session, line("k2", "wakeup"));
    expect(woken.session.manualGate).toBe(true);
  });

  it("an older off seen after a newer on does not undo it", () => {
    const s = reduceAll(fresh(), [vouch("off", { own: true, switch: "off" }), vouch("on", { own: true, switch: "on" })]).session;
    const r = reduceAll(s, [line("off"), line("on")]);
    expect(r.session.manualGate).toBe(true);
    expect(r.prompts.map((p) => p.switched)).toEqual([undefined, undefined]);
  });

  it("a switch restored from the log gates the main scope", () => {
    expect(reduce(fresh(), { kind: "switch_restored" }).session.manualGate).toBe(true);
  });
});

describe("awaiting an activation", () => {
  it("a plain prompt awaits its own line only; a slash command, or one behind an awaited activation, the whole wait", () => {
    expect(reduce(fresh(), vouch("k")).session.main).toMatchObject({ awaitingActivation: true, awaitingPrompt: "k" });
    expect(reduce(fresh(), vouch("k", { slash: true })).session.main.awaitingPrompt).toBeUndefined();
    const behind = reduceAll(fresh(), [{ kind: "activation_awaited", scope: "main" }, vouch("k")]).session.main;
    expect(behind).toMatchObject({ awaitingActivation: true });
    expect(behind.awaitingPrompt).toBeUndefined();
    const chained = reduceAll(fresh(), [vouch("k1"), vouch("k2")]).session.main;
    expect(chained.awaitingPrompt).toBe("k2");
  });

  it("activation_seen clears it; activation_awaited sets the whole wait in any scope", () => {
    const s = reduceAll(fresh(), [vouch("k"), { kind: "activation_seen", scope: "main" }]).session.main;
    expect(s.awaitingActivation).toBeUndefined();
    expect(s.awaitingPrompt).toBeUndefined();
    const agent = reduce(fresh(), { kind: "activation_awaited", scope: "agent:a1" }).session;
    expect(agent.agents.a1).toMatchObject({ awaitingActivation: true });
  });
});

describe("a Skill call's skill, loaded at its result", () => {
  const gated = { ...manualSource(), file: "/p/.claude/skills/g/SKILL.md", gated: true };
  const admitted: SessionEvent = { kind: "activation_awaited", scope: "main", toolUseId: "t1", source: gated };
  const result = (failed: boolean): SessionEvent => ({
    kind: "scope",
    scope: "main",
    event: { kind: "result", toolUseId: "t1", failed, bytes: 1 },
  });

  it("a result that is no error loads it, once, and forgets the call", () => {
    const s = reduceAll(fresh(), [admitted, result(false), admitted, result(false)]).session.main;
    expect(s.sources).toEqual([gated]);
    expect(s.skillCalls).toBeUndefined();
  });

  it("an error, a denial or another call's result loads nothing", () => {
    expect(reduceAll(fresh(), [admitted, result(true)]).session.main.sources).toEqual([]);
    const denied = reduceAll(fresh(), [admitted, { kind: "scope", scope: "main", event: { kind: "denied", toolUseId: "t1" } }]);
    expect(denied.session.main.sources).toEqual([]);
    expect(denied.session.main.skillCalls).toBeUndefined();
    const other = reduceAll(fresh(), [
      admitted,
      { kind: "scope", scope: "main", event: { kind: "result", toolUseId: "t2", failed: false, bytes: 1 } },
    ]);
    expect(other.session.main.sources).toEqual([]);
    expect(other.session.main.skillCalls).toEqual({ t1: { source: gated } });
  });

  it("a skill that registers hooks is the session's once its call ran, across tasks; not when it failed", () => {
    const hooky: SessionEvent = { kind: "activation_awaited", scope: "main", toolUseId: "t1", hooks: "/p/h/SKILL.md" };
    const newTask: SessionEvent = { kind: "scope", scope: "main", event: { kind: "prompt", typed: true } };
    expect(reduceAll(fresh(), [hooky, result(false), newTask]).session.hookFiles).toEqual(["/p/h/SKILL.md"]);
    expect(reduceAll(fresh(), [hooky, result(false), hooky, result(false)]).session.hookFiles).toEqual(["/p/h/SKILL.md"]);
    expect(reduceAll(fresh(), [hooky, result(true)]).session.hookFiles).toBeUndefined();
  });

  it("a new task forgets a call whose result never came", () => {
    const s = reduceAll(fresh(), [admitted, { kind: "scope", scope: "main", event: { kind: "prompt", typed: true } }, result(false)]);
    expect(s.session.main.sources).toEqual([]);
  });
});

describe("subagents", () => {
  it("start in the main scope's task, numbered in order of start within it", () => {
    const s = reduceAll({ ...fresh(), main: newScope(3) }, [
      { kind: "subagent_started", agentId: "a1" },
      { kind: "subagent_started", agentId: "a2" },
      { kind: "subagent_started", agentId: "a1" },
    ]).session;
    expect(s.agents.a1).toMatchObject({ rootTask: 3, ordinal: 1, task: 1 });
    expect(s.agents.a2).toMatchObject({ rootTask: 3, ordinal: 2 });
    const next = reduceAll({ ...s, main: newScope(4) }, [{ kind: "subagent_started", agentId: "b1" }]).session;
    expect(next.agents.b1).toMatchObject({ rootTask: 4, ordinal: 1 });
  });

  it("an event for a subagent not seen yet starts it first", () => {
    const s = reduce(fresh(), usage("agent:x", "m", 3)).session;
    expect(s.agents.x).toMatchObject({ rootTask: 0, ordinal: 1 });
    expect(scopeAt(s, "agent:y")).toMatchObject({ ordinal: 2, rootTask: 0 });
    expect(s.agents).not.toHaveProperty("y");
  });

  it("a definition is taken once, with its type", () => {
    const def = { ...manualSource(), file: "/a/agents/h.md" };
    const s = reduceAll(fresh(), [
      { kind: "definition_loaded", agentId: "a1", agentType: "helper", definition: def },
      { kind: "definition_loaded", agentId: "a1", agentType: "other" },
      { kind: "definition_loaded", agentId: "a2", agentType: "plain" },
    ]).session;
    expect(s.agents.a1).toMatchObject({ agentType: "helper", definition: def });
    expect(s.agents.a2!.agentType).toBe("plain");
    expect(s.agents.a2!.definition).toBeUndefined();
  });
});

describe("a scope's skills, lines read and stops", () => {
  it("a skill is kept once per file", () => {
    const source = { ...manualSource(), file: "/s/SKILL.md" };
    const s = reduceAll(fresh(), [
      { kind: "skill_loaded", scope: "main", source },
      { kind: "skill_loaded", scope: "main", source: { ...source, gated: false } },
    ]).session;
    expect(s.main.sources).toEqual([source]);
  });

  it("skills of different files are all kept, in the order they loaded", () => {
    const one = { ...manualSource(), file: "/s/one/SKILL.md" };
    const two = { ...manualSource(), file: "/s/two/SKILL.md" };
    const s = reduceAll(fresh(), [
      { kind: "skill_loaded", scope: "main", source: one },
      { kind: "skill_loaded", scope: "main", source: two },
    ]).session;
    expect(s.main.sources.map((x) => x.file)).toEqual([one.file, two.file]);
  });

  it("lines read: the offset, and which file (forgotten when none is given)", () => {
    const s = reduce(fresh(), { kind: "lines_read", scope: "main", offset: 42, transcriptId: "1:2" }).session;
    expect(s.main).toMatchObject({ offset: 42, transcriptId: "1:2" });
    const t = reduce(s, { kind: "lines_read", scope: "main", offset: 50 }).session;
    expect(t.main.offset).toBe(50);
    expect(t.main.transcriptId).toBeUndefined();
  });

  it("a stop blocked is remembered for the task", () => {
    expect(reduce(fresh(), { kind: "stop_blocked", scope: "agent:a" }).session.agents.a!.stopBlocked).toBe(true);
  });

  it("the user's budgets are kept, and dropped when none is set", () => {
    const s = reduce(fresh(), { kind: "user_budgets", budgets: { tokenBudget: 9 } }).session;
    expect(s.userBudgets).toEqual({ tokenBudget: 9 });
    expect(reduce(s, { kind: "user_budgets", budgets: {} }).session.userBudgets).toBeUndefined();
    expect(reduce(s, { kind: "user_budgets" }).session.userBudgets).toBeUndefined();
  });

  it("a settings warning is remembered by its words", () => {
    expect(reduce(fresh(), { kind: "settings_warned", problem: "x is y" }).session.settingsWarned).toBe("x is y");
  });
});

describe("the session's spend: every scope, every task", () => {
  it("adds what each usage adds, by model, across scopes and tasks; a new task does not take it back", () => {
    const s = reduceAll(fresh(), [
      vouch("k1"),
      line("k1"),
      usage("main", "m1", 10),
      usage("main", "m1", 12),
      usage("agent:a", "s1", 5, "claude-haiku-4-5"),
      vouch("k2"),
      line("k2"),
      usage("main", "m2", 7),
    ]).session;
    expect(s.spend!.tokens).toEqual(tokens(24));
    expect(s.spend!.byModel).toEqual({ "claude-opus-4-5": tokens(19), "claude-haiku-4-5": tokens(5) });
    expect(s.main.spend!.tokens).toEqual(tokens(7));
  });

  it("counts tool calls and agents as the scopes do, and a refund takes a call back", () => {
    const call = (id: string, tool: string): SessionEvent => ({
      kind: "scope",
      scope: "main",
      event: { kind: "call", decision: "observed", tool, digest: id, effect: { kind: "exec" }, toolUseId: id },
    });
    const s = reduceAll(fresh(), [
      call("t1", "Bash"),
      call("t2", "Agent"),
      { kind: "scope", scope: "main", event: { kind: "turn_end", subagent: false } },
    ]).session;
    expect(s.spend).toMatchObject({ toolCalls: 0, agentsLaunched: 1 });
    const kept = reduceAll(fresh(), [
      call("t1", "Bash"),
      { kind: "scope", scope: "main", event: { kind: "result", toolUseId: "t1", failed: false, bytes: 1 } },
    ]).session;
    expect(kept.spend).toMatchObject({ toolCalls: 1, agentsLaunched: 0 });
  });

  it("call_line_seen confirms a denial of an earlier message (a refund, with its outcome)", () => {
    const events: SessionEvent[] = [
      { kind: "scope", scope: "main", event: { kind: "usage", messageId: "m1", model: "x", tokens: tokens(1), toolUseIds: ["t1"] } },
      {
        kind: "scope",
        scope: "main",
        event: { kind: "call", decision: "passed", tool: "Write", digest: "d", effect: { kind: "write", paths: ["/a"] }, toolUseId: "t1" },
      },
      { kind: "scope", scope: "main", event: { kind: "denied", toolUseId: "t1" } },
      { kind: "call_line_seen", scope: "main", toolUseId: "t2", messageId: "m2" },
    ];
    const r = reduceAll(fresh(), events);
    expect(r.session.main.step).toBe(0);
    expect(r.outcomes).toMatchObject([{ scope: "main", toolUseId: "t1", outcome: "denied" }]);
  });
});

describe("the session's spend of a message counted as it grows", () => {
  it("adds only what each later line of a message adds, in each of the four counts", () => {
    const grow = (n: number): SessionEvent => ({
      kind: "scope",
      scope: "main",
      event: {
        kind: "usage",
        messageId: "m1",
        model: "claude-opus-4-5",
        tokens: { input: 10, output: n, cacheCreation: 2 * n, cacheRead: 3 * n },
        toolUseIds: [],
      },
    });
    const s = reduceAll(fresh(), [grow(1), grow(4), grow(4), grow(5)]).session;
    const final = { input: 10, output: 5, cacheCreation: 10, cacheRead: 15 };
    expect(s.spend!.tokens).toEqual(final);
    expect(s.spend!.byModel).toEqual({ "claude-opus-4-5": final });
  });
});

describe("a transient reduction", () => {
  it("changes the given session in place and returns it; without the option the given one is left alone", () => {
    const given = reduceAll(fresh(), [usage("main", "m1", 3)]).session;
    const copied = reduceAll(given, [usage("main", "m2", 4)]);
    expect(copied.session).not.toBe(given);
    expect(given.spend!.tokens.input).toBe(3);
    const inPlace = reduceAll(given, [usage("main", "m2", 4)], { transient: true });
    expect(inPlace.session).toBe(given);
    expect(given.spend!.tokens.input).toBe(7);
  });
});
