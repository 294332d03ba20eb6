/** The SPEC §12 budget keys in frontmatter, validated like the other opt-in keys (SPEC §5). */
import { describe, expect, it } from "vitest";
import { resolveOptIn } from "../../src/optin/resolve.js";
import type { OptInProblem } from "../../src/optin/schema.js";

const FILE = "skills/x/SKILL.md";

function problems(data: unknown): OptInProblem[] {
  const r = resolveOptIn(data, FILE);
  if (r.ok) throw new Error("expected problems");
  return r.problems;
}

describe("budget keys in frontmatter", () => {
  it("reads each at the top level or under metadata", () => {
    const r = resolveOptIn(
      {
        utility_gated: true,
        utility_max_agents: 0,
        metadata: { utility_token_budget: 1, utility_step_cost: "reported", utility_cost_budget_usd: 0.01 },
      },
      FILE,
    );
    expect(r.ok && r.optIn.budgets).toEqual({ maxAgents: 0, tokenBudget: 1, stepCost: "reported", costBudgetUsd: 0.01 });
    expect(r.ok && r.optIn.keys).toEqual([
      "utility_gated",
      "utility_token_budget",
      "utility_cost_budget_usd",
      "utility_max_agents",
      "utility_step_cost",
    ]);
  });

  it("a file without budget keys has no budgets", () => {
    const r = resolveOptIn({ utility_gated: true }, FILE);
    expect(r.ok && r.optIn.budgets).toEqual({});
  });

  it.each([
    ["utility_token_budget", 0, "0", "a whole number of at least 1"],
    ["utility_token_budget", 2.5, "2.5", "a whole number of at least 1"],
    ["utility_token_budget", "1000", 'the string "1000"', "a whole number of at least 1"],
    ["utility_cost_budget_usd", 0, "0", "greater than 0"],
    ["utility_cost_budget_usd", -1, "-1", "greater than 0"],
    ["utility_cost_budget_usd", ".5", 'the string ".5"', "greater than 0"],
    ["utility_max_agents", -1, "-1", "a whole number of at least 0"],
    ["utility_max_agents", 1.5, "1.5", "a whole number of at least 0"],
    ["utility_step_cost", "estimated", 'the string "estimated"', "reported or computed"],
    ["utility_step_cost", true, "true", "reported or computed"],
  ])("%s: %j is rejected with file, key, found and expected", (key, value, found, expected) => {
    const [p, ...rest] = problems({ utility_gated: true, [key]: value });
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ file: FILE, key, found });
    expect(p!.expected).toContain(expected);
  });

  it("the same key at the top level and under metadata with two values is an error", () => {
    const [p] = problems({ utility_max_agents: 1, metadata: { utility_max_agents: 3 } });
    expect(p).toMatchObject({ key: "utility_max_agents", found: "1 at the top level and 3 under metadata" });
  });

  it("a look-alike of a budget key is named with the key it resembles", () => {
    const [p] = problems({ utility_max_agent: 2 });
    expect(p!.found).toContain("did you mean utility_max_agents?");
  });
});
