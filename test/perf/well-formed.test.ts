// The state's fast path (src/state/well-formed.ts) may only accept what the
// schema accepts and returns unchanged; everything else must go to the schema.
import { describe, expect, it } from "vitest";
import { ACTIONS } from "../../src/engine/vocabulary.js";
import { ConfigSchema } from "../../src/engine/signals.js";
import {
  GateSourceSchema,
  RanCallSchema,
  ScopeStateSchema,
  SessionStateSchema,
  newScope,
  newSession,
  type SessionState,
} from "../../src/state/schema.js";
import { STATE_KEYS, isWellFormedState } from "../../src/state/well-formed.js";

// ---- the key lists follow the schema ----

interface ZodLike {
  _zod: { def: { type: string; shape?: Record<string, ZodLike>; options?: ZodLike[]; values?: unknown[] } };
}

function keysOf(schema: unknown): { required: string[]; optional: string[] } {
  const shape = (schema as ZodLike)._zod.def.shape!;
  const entries = Object.entries(shape);
  return {
    // A key with a default is optional to the schema; the fast path asks for it (stricter), so it counts as required here.
    required: entries
      .filter(([, s]) => s._zod.def.type !== "optional")
      .map(([k]) => k)
      .sort(),
    optional: entries
      .filter(([, s]) => s._zod.def.type === "optional")
      .map(([k]) => k)
      .sort(),
  };
}
const sorted = (shape: { readonly required: readonly string[]; readonly optional: readonly string[] }) => ({
  required: [...shape.required].sort(),
  optional: [...shape.optional].sort(),
});

describe("STATE_KEYS", () => {
  it("lists exactly the schema's keys (a schema change must update the fast path)", () => {
    expect(sorted(STATE_KEYS.session)).toEqual(keysOf(SessionStateSchema));
    expect(sorted(STATE_KEYS.scope)).toEqual(keysOf(ScopeStateSchema));
    expect(sorted(STATE_KEYS.gateSource)).toEqual(keysOf(GateSourceSchema));
    expect(sorted(STATE_KEYS.config)).toEqual(keysOf(ConfigSchema));
    expect(sorted(STATE_KEYS.ranCall)).toEqual(keysOf(RanCallSchema));
  });

  it("knows every kind of effect and its keys", () => {
    const effect = (RanCallSchema as unknown as ZodLike)._zod.def.shape!.effect!;
    const byKind = Object.fromEntries(
      effect._zod.def.options!.map((o) => [String(o._zod.def.shape!.kind!._zod.def.values![0]), keysOf(o)]),
    );
    expect(byKind).toEqual({
      read: sorted(STATE_KEYS.effectWithPaths),
      write: sorted(STATE_KEYS.effectWithPaths),
      exec: sorted(STATE_KEYS.effectExec),
      poll: sorted(STATE_KEYS.effectBare),
      neutral: sorted(STATE_KEYS.effectBare),
    });
  });
});

// ---- generated states ----

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function generator(seed: number) {
  const r = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
  const maybe = (p = 0.5) => r() < p;
  const effect = (): Json => {
    const kind = pick(["read", "write", "exec", "poll", "neutral"] as const);
    if (kind === "read" || kind === "write") return { kind, paths: Array.from({ length: Math.floor(r() * 3) }, (_, i) => `/p/${i}`) };
    if (kind === "exec") return maybe() ? { kind, background: maybe() } : { kind };
    return { kind };
  };
  const call = (i: number): Json => ({
    tool: pick(["Read", "Bash", "Edit", "mcp__x__y"]),
    digest: i.toString(16).padStart(32, "0"),
    effect: effect(),
    at: i,
    ...(maybe() ? { toolUseId: `toolu_${i}` } : {}),
    ...(maybe(0.2) ? { failed: maybe() } : {}),
  });
  const source = (): Json => ({
    file: `/skills/s${Math.floor(r() * 9)}/SKILL.md`,
    gated: maybe(),
    scope: pick(["self", "dispatch"]),
    config: { lambdas: [r() * 2, r(), r()], floor: -2.3 + r() * 3.3, maxSteps: 1 + Math.floor(r() * 40), highGainThreshold: r() },
    extraTools: maybe() ? { verify: ["Bash"], retrieve: [] } : {},
    ...(maybe(0.2) ? { problem: "bad opt-in" } : {}),
  });
  const scope = (): Json => ({
    task: 1 + Math.floor(r() * 5),
    step: Math.floor(r() * 20),
    refusals: Math.floor(r() * 4),
    offset: Math.floor(r() * 1e8),
    sources: Array.from({ length: Math.floor(r() * 3) }, source),
    pending: Object.fromEntries(Array.from({ length: Math.floor(r() * 3) }, (_, i) => [`toolu_p${i}`, call(i)])),
    history: Array.from({ length: Math.floor(r() * 12) }, (_, i) => call(i)),
    ...(maybe() ? { lastAction: pick(ACTIONS) } : {}),
    ...(maybe(0.3) ? { awaitingActivation: maybe() } : {}),
    ...(maybe(0.3) ? { stopBlocked: maybe() } : {}),
    ...(maybe(0.3) ? { agentType: "plugin:agent" } : {}),
    ...(maybe(0.3) ? { definition: source() } : {}),
    ...(maybe(0.2) ? { ended: maybe() } : {}),
  });
  const session = (): Json => ({
    version: 1,
    sessionId: `s-${Math.floor(r() * 1000)}`,
    manualGate: maybe(),
    main: scope(),
    agents: Object.fromEntries(Array.from({ length: Math.floor(r() * 3) }, (_, i) => [`agent${i}`, scope()])),
  });

  /** One random change somewhere in the tree: a key removed or added, a value replaced by something of another type or range. */
  const mutate = (root: Json): Json => {
    const copy = structuredClone(root);
    const containers: Array<{ [key: string]: Json } | Json[]> = [];
    const walk = (v: Json) => {
      if (v !== null && typeof v === "object") {
        containers.push(v);
        for (const child of Object.values(v)) walk(child);
      }
    };
    walk(copy);
    const target = pick(containers);
    const odd: Json[] = [
      null,
      true,
      false,
      0,
      -1,
      1.5,
      2,
      1e9,
      "",
      "x",
      "read",
      "exec",
      "self",
      "tool_call",
      [],
      [1],
      {},
      { kind: "poll" },
    ];
    if (Array.isArray(target)) {
      if (target.length > 0 && maybe()) target[Math.floor(r() * target.length)] = pick(odd);
      else target.push(pick(odd));
      return copy;
    }
    const keys = Object.keys(target);
    const action = r();
    if (action < 0.3 && keys.length > 0) delete target[pick(keys)];
    else if (action < 0.5)
      target[pick(["extra", "kind", "paths", "background", "failed", "problem", "lastAction", "__proto__"])] = pick(odd);
    else if (keys.length > 0) target[pick(keys)] = pick(odd);
    return copy;
  };
  return { session, mutate };
}

describe("isWellFormedState", () => {
  it("accepts what the hooks write: a new session, generated states, each unchanged by the schema", () => {
    expect(isWellFormedState(newSession("s1"))).toBe(true);
    expect(isWellFormedState({ ...newSession("s1"), agents: { a1: newScope(2) } })).toBe(true);
    const g = generator(1);
    for (let i = 0; i < 300; i++) {
      const state = JSON.parse(JSON.stringify(g.session()));
      expect(isWellFormedState(state)).toBe(true);
      const parsed = SessionStateSchema.safeParse(state);
      expect(parsed.success).toBe(true);
      expect(parsed.data).toEqual(state);
    }
  });

  it("never accepts what the schema would refuse or change (5000 mutated states)", () => {
    const g = generator(2);
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 5000; i++) {
      const state = JSON.parse(JSON.stringify(g.mutate(g.session())));
      if (!isWellFormedState(state)) {
        refused += 1;
        continue;
      }
      accepted += 1;
      const parsed = SessionStateSchema.safeParse(state);
      expect(parsed.success, JSON.stringify(state).slice(0, 400)).toBe(true);
      expect(parsed.data).toEqual(state);
    }
    // Both sides were exercised.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(1000);
  });

  it('leaves to the schema a "__proto__" key, which the schema\'s copy would not keep: the check alone refuses it', () => {
    const call = '{"tool":"Read","digest":"d","effect":{"kind":"read","paths":["/a"]},"at":1,"toolUseId":"t1"}';
    const state = (pending: string) =>
      `{"version":1,"sessionId":"s","manualGate":false,"main":{"task":1,"step":1,"refusals":0,"offset":0,"sources":[],"pending":{${pending}},"history":[]},"agents":{}}`;
    expect(isWellFormedState(JSON.parse(state(`"t1":${call}`)))).toBe(true); // the same entry under an ordinary key passes
    const proto = JSON.parse(state(`"__proto__":${call}`)) as SessionState;
    expect(Object.keys(proto.main.pending)).toEqual(["__proto__"]); // JSON.parse makes it an own key
    expect(SessionStateSchema.parse(proto)).not.toEqual(proto); // and the schema would not return it unchanged
    expect(isWellFormedState(proto)).toBe(false);
  });

  it("leaves to the schema what it would fill in or strip", () => {
    const base = newSession("s1");
    const noFloor = structuredClone(base) as unknown as { main: { sources: unknown[] } };
    noFloor.main.sources = [
      { file: "f", gated: true, scope: "self", config: { lambdas: [1, 0.5, 0.8], maxSteps: 10, highGainThreshold: 0.7 }, extraTools: {} },
    ];
    expect(isWellFormedState(noFloor)).toBe(false);
    expect(SessionStateSchema.safeParse(noFloor).success).toBe(true); // the default floor is filled in
    expect(isWellFormedState({ ...base, extra: 1 })).toBe(false);
    expect(isWellFormedState({ ...base, version: 2 })).toBe(false);
    expect(isWellFormedState(null)).toBe(false);
    expect(isWellFormedState([])).toBe(false);
  });
});
