import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { DEFAULT_CONFIG, UTILITY_MAX, UTILITY_MIN } from "../../src/engine/defaults.js";
import { resolveOptIn } from "../../src/optin/resolve.js";
import { OPT_IN_KEYS, OptInSchema, formatProblemLine, type OptInProblem } from "../../src/optin/schema.js";
import { describeValue } from "../../src/optin/yaml-value.js";

const FILE = "skills/x/SKILL.md";

function problems(data: unknown): OptInProblem[] {
  const result = resolveOptIn(data, FILE);
  if (result.ok) throw new Error(`expected problems, got ${JSON.stringify(result.optIn)}`);
  return result.problems;
}

function optIn(data: unknown) {
  const result = resolveOptIn(data, FILE);
  if (!result.ok) throw new Error(result.problems.map((p) => p.message).join("\n"));
  return result.optIn;
}

describe("resolveOptIn: defaults", () => {
  it("no frontmatter, or none of the keys, means not opted in with SPEC §5 defaults", () => {
    for (const data of [undefined, null, {}, { name: "x", description: "y" }]) {
      expect(optIn(data)).toEqual({
        gated: false,
        floor: DEFAULT_CONFIG.floor,
        maxSteps: DEFAULT_CONFIG.maxSteps,
        lambdas: [...DEFAULT_CONFIG.lambdas],
        scope: "self",
        tools: {},
        budgets: {},
        guards: {},
        keys: [],
      });
    }
  });

  it("the zod schema gives the same defaults", () => {
    expect(OptInSchema.parse({})).toEqual({
      utility_gated: false,
      utility_floor: -0.5,
      utility_max_steps: 10,
      utility_lambdas: [1.0, 0.5, 0.8],
      utility_scope: "self",
      utility_tools: {},
    });
  });

  it("reads every key at the top level", () => {
    expect(
      optIn({
        utility_gated: true,
        utility_floor: -0.3,
        utility_max_steps: 6,
        utility_lambdas: [1, 0.4, 0.9],
        utility_scope: "dispatch",
        utility_tools: { verify: ["mcp__ci__run_tests"] },
        utility_token_budget: 50000,
        utility_cost_budget_usd: 0.5,
        utility_max_agents: 2,
        utility_max_tool_calls: 40,
        utility_agent_token_budget: 20000,
        utility_agent_cost_budget_usd: 0.2,
        utility_agent_max_tool_calls: 12,
        utility_step_cost: "computed",
        utility_stuck_after: 4,
        utility_confirm_above_uncertainty: 0.7,
      }),
    ).toEqual({
      gated: true,
      floor: -0.3,
      maxSteps: 6,
      lambdas: [1, 0.4, 0.9],
      scope: "dispatch",
      tools: { verify: ["mcp__ci__run_tests"] },
      budgets: {
        tokenBudget: 50000,
        costBudgetUsd: 0.5,
        maxAgents: 2,
        maxToolCalls: 40,
        agentTokenBudget: 20000,
        agentCostBudgetUsd: 0.2,
        agentMaxToolCalls: 12,
        stepCost: "computed",
      },
      guards: { stuckAfter: 4, confirmAboveUncertainty: 0.7 },
      keys: [...OPT_IN_KEYS],
    });
  });

  it("reads keys under metadata, and accepts the same value in both places", () => {
    const o = optIn({ utility_gated: true, metadata: { utility_gated: true, utility_max_steps: 4, author: "someone" } });
    expect(o.gated).toBe(true);
    expect(o.maxSteps).toBe(4);
    expect(o.keys).toEqual(["utility_gated", "utility_max_steps"]);
    expect(optIn({ utility_lambdas: [1, 0.5, 0.8], metadata: { utility_lambdas: [1.0, 0.5, 0.8] } }).lambdas).toEqual([1, 0.5, 0.8]);
  });

  it("ignores a metadata value that is not a mapping", () => {
    expect(optIn({ metadata: "free text", utility_gated: true }).gated).toBe(true);
  });
});

describe("resolveOptIn: utility_gated", () => {
  it('the string "true" is an error with an actionable sentence', () => {
    const [p] = problems({ utility_gated: "true" });
    expect(p).toMatchObject({ file: FILE, key: "utility_gated", found: 'the string "true"' });
    expect(p!.message).toBe(`${FILE}: utility_gated is the string "true"; expected a boolean (true or false, without quotes); write true.`);
  });

  it.each([["yes"], ["on"], [1], [0], [null], [[true]]])("%j is an error", (value) => {
    expect(problems({ utility_gated: value })[0]!.key).toBe("utility_gated");
  });
});

describe("resolveOptIn: utility_floor", () => {
  it("-3 is below the range of U", () => {
    const [p] = problems({ utility_floor: -3 });
    expect(p).toMatchObject({ key: "utility_floor", found: "-3" });
    expect(p!.expected).toContain(`${UTILITY_MIN} to ${UTILITY_MAX.toFixed(1)}`);
  });

  it("accepts both ends of [-2.3, 1.0] and rejects just outside", () => {
    expect(optIn({ utility_floor: UTILITY_MIN }).floor).toBe(UTILITY_MIN);
    expect(optIn({ utility_floor: UTILITY_MAX }).floor).toBe(UTILITY_MAX);
    expect(problems({ utility_floor: UTILITY_MIN - 0.01 })).toHaveLength(1);
    expect(problems({ utility_floor: UTILITY_MAX + 0.01 })).toHaveLength(1);
  });

  it("a quoted number, NaN and infinities are errors", () => {
    for (const value of ["-0.5", Number.NaN, Infinity, -Infinity]) expect(problems({ utility_floor: value })).toHaveLength(1);
  });

  it("any number in range is accepted as is (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: UTILITY_MIN, max: UTILITY_MAX, noNaN: true }), (floor) => {
        expect(optIn({ utility_floor: floor }).floor).toBe(floor);
      }),
    );
  });
});

describe("resolveOptIn: utility_max_steps", () => {
  it.each([[0], [-1], [2.5], ["10"]])("%j is an error", (value) => {
    const [p] = problems({ utility_max_steps: value });
    expect(p).toMatchObject({ key: "utility_max_steps", expected: "a whole number of at least 1" });
  });

  it("1 and large integers are accepted", () => {
    expect(optIn({ utility_max_steps: 1 }).maxSteps).toBe(1);
    expect(optIn({ utility_max_steps: 500 }).maxSteps).toBe(500);
  });
});

describe("resolveOptIn: utility_lambdas", () => {
  it("two values are an error that says how many were found", () => {
    const [p] = problems({ utility_lambdas: [1.0, 0.5] });
    expect(p).toMatchObject({ key: "utility_lambdas", found: "a list of 2 values [1,0.5]" });
    expect(p!.message).toContain("expected a list of exactly three numbers");
  });

  it.each([[[1, 0.5, 0.8, 0.1]], [[1, -0.5, 0.8]], [[1, "0.5", 0.8]], ["1.0, 0.5, 0.8"], [{ a: 1 }]])("%j is an error", (value) => {
    expect(problems({ utility_lambdas: value })[0]!.key).toBe("utility_lambdas");
  });

  it("zeros are allowed (a signal switched off)", () => {
    expect(optIn({ utility_lambdas: [0, 0, 0] }).lambdas).toEqual([0, 0, 0]);
  });
});

describe("resolveOptIn: utility_scope", () => {
  it("self and dispatch are accepted", () => {
    expect(optIn({ utility_scope: "self" }).scope).toBe("self");
    expect(optIn({ utility_scope: "dispatch" }).scope).toBe("dispatch");
  });

  it("subagent is refused with the reason", () => {
    const [p] = problems({ utility_scope: "subagent" });
    expect(p!.expected).toContain("comes from being spawned");
  });

  it("anything else is refused", () => {
    expect(problems({ utility_scope: "Dispatch" })[0]!.expected).toBe("self or dispatch");
  });
});

describe("resolveOptIn: utility_tools", () => {
  it("adds tool names per action", () => {
    expect(optIn({ utility_tools: { retrieve: ["mcp__docs__search"], delegate: [] } }).tools).toEqual({
      retrieve: ["mcp__docs__search"],
      delegate: [],
    });
  });

  it("an unknown action is named", () => {
    const [p] = problems({ utility_tools: { verfy: ["Bash"] } });
    expect(p).toMatchObject({ key: "utility_tools.verfy", found: "an unknown action" });
  });

  it("respond and stop take no tool call, so extending them is an error", () => {
    const ps = problems({ utility_tools: { stop: ["Bash"], respond: ["Read"] } });
    expect(ps.map((p) => p.key).sort()).toEqual(["utility_tools.respond", "utility_tools.stop"]);
    expect(ps[0]!.expected).toContain("takes no tool call");
  });

  it("a value that is not a list, and a bad name, are named with their place", () => {
    expect(problems({ utility_tools: { verify: "Bash" } })[0]!.key).toBe("utility_tools.verify");
    expect(problems({ utility_tools: { verify: ["Bash", "run tests"] } })[0]!.key).toBe("utility_tools.verify[1]");
    expect(problems({ utility_tools: ["Bash"] })[0]!.key).toBe("utility_tools");
  });

  it("under metadata the key says so", () => {
    expect(problems({ metadata: { utility_tools: { stop: ["Bash"] } } })[0]!.key).toBe("metadata.utility_tools.stop");
  });
});

describe("resolveOptIn: top level against metadata", () => {
  it("the same key with different values is an error naming both", () => {
    const [p] = problems({ utility_floor: -0.5, metadata: { utility_floor: -1 } });
    expect(p).toMatchObject({ key: "utility_floor", found: "-0.5 at the top level and -1 under metadata" });
    expect(p!.message).toBe(
      `${FILE}: utility_floor is -0.5 at the top level and -1 under metadata; expected one value: set the key in one place, or the same value in both.`,
    );
  });

  it("an invalid value under metadata is named with its place", () => {
    const [p] = problems({ metadata: { utility_gated: "true" } });
    expect(p!.key).toBe("metadata.utility_gated");
  });

  it("gated true and gated false in two places is an error, not a silent pick", () => {
    expect(problems({ utility_gated: true, metadata: { utility_gated: false } })).toHaveLength(1);
  });

  it("nested values are compared deeply: the same tool table in both places is one value, any difference is two", () => {
    const tools = { retrieve: ["mcp__docs__search"], verify: ["mcp__ci__run"] };
    expect(
      optIn({ utility_tools: tools, metadata: { utility_tools: { verify: ["mcp__ci__run"], retrieve: ["mcp__docs__search"] } } }).tools,
    ).toEqual(tools);
    expect(
      problems({ utility_tools: tools, metadata: { utility_tools: { retrieve: ["mcp__docs__search"], verify: ["mcp__ci__other"] } } }),
    ).toHaveLength(1);
    expect(problems({ utility_tools: tools, metadata: { utility_tools: { retrieve: ["mcp__docs__search"] } } })).toHaveLength(1);
    expect(problems({ utility_lambdas: [1, 0.5, 0.8], metadata: { utility_lambdas: [1, 0.8, 0.5] } })).toHaveLength(1);
  });
});

describe("resolveOptIn: unknown utility_* keys", () => {
  it("a typo is an error that suggests the key and lists the valid ones", () => {
    const [p] = problems({ utility_gate: true });
    expect(p).toMatchObject({ key: "utility_gate", found: "an unknown key (did you mean utility_gated?)" });
    for (const key of OPT_IN_KEYS) expect(p!.expected).toContain(key);
  });

  it("case and hyphen variants are caught too, top level and under metadata", () => {
    const keys = problems({ Utility_Gated: true, metadata: { "utility-floor": -0.5 } }).map((p) => p.key);
    expect(keys).toEqual(["Utility_Gated", "metadata.utility-floor"]);
  });

  it("keys that merely start with utility as a word are not touched", () => {
    expect(optIn({ utilityBelt: true, utility: "x" }).gated).toBe(false);
  });
});

describe("resolveOptIn: shape", () => {
  it("frontmatter that is not a mapping is an error", () => {
    expect(problems(["a", "b"])[0]).toMatchObject({ key: "frontmatter" });
    expect(problems("text")[0]).toMatchObject({ key: "frontmatter" });
  });

  it("reports every problem of a file at once", () => {
    const ps = problems({ utility_gated: "true", utility_floor: -3, utility_max_steps: 0, utility_lambdas: [1, 0.5] });
    expect(ps.map((p) => p.key)).toEqual(["utility_gated", "utility_floor", "utility_max_steps", "utility_lambdas"]);
  });

  it("every message is one sentence that starts with the file and the key", () => {
    const ps = problems({ utility_gated: "x", utility_scope: 3, utility_tools: { verfy: [] }, utility_gatd: 1 });
    for (const p of ps) {
      expect(p.message.startsWith(`${FILE}: ${p.key} is `)).toBe(true);
      expect(p.message.endsWith(".")).toBe(true);
      expect(p.message).not.toMatch(/\.\.$/);
      expect(p.message).not.toContain("\n");
      expect(formatProblemLine(p)).toBe(`${FILE}: ${p.key}: found ${p.found}; expected ${p.expected}`);
    }
  });
});

describe("describeValue", () => {
  it("says what a value is", () => {
    expect(describeValue("true")).toBe('the string "true"');
    expect(describeValue(-3)).toBe("-3");
    expect(describeValue(null)).toBe("empty");
    expect(describeValue([1, 0.5])).toBe("a list of 2 values [1,0.5]");
    expect(describeValue(new Date("2024-01-02T00:00:00Z"))).toBe("the date 2024-01-02");
    expect(describeValue("x".repeat(200)).length).toBeLessThan(80);
  });
});
