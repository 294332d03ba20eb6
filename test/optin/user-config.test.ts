import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUDGET_KEYS } from "../../src/engine/budget.js";
import {
  describeUserConfigProblems,
  optionEnvName,
  parseUserConfig,
  PRICES_OPTION,
  USER_BUDGET_OPTIONS,
  USER_GUARD_OPTIONS,
} from "../../src/optin/user-config.js";
import { SESSION_BUDGET_OPTIONS } from "../../src/engine/session-budget.js";
import { ROOT } from "../support/paths.js";

const env = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [optionEnvName(k), v]));

describe("the user's budgets from CLAUDE_PLUGIN_OPTION_* (plugin userConfig)", () => {
  it("names the variables as Claude Code does: upper case, other characters as _", () => {
    expect(optionEnvName("token_budget")).toBe("CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET");
    expect(optionEnvName("a-b.c")).toBe("CLAUDE_PLUGIN_OPTION_A_B_C");
  });

  it("reads every budget; values arrive as strings", () => {
    const c = parseUserConfig(env({ token_budget: "50000", cost_budget_usd: "0.75", max_agents: "0", step_cost: "computed" }));
    expect(c.problems).toEqual([]);
    expect(c.budgets).toEqual({ tokenBudget: 50000, costBudgetUsd: 0.75, maxAgents: 0, stepCost: "computed" });
  });

  it("an absent or empty option is not set", () => {
    const none = { budgets: {}, session: {}, guards: {}, problems: [] };
    expect(parseUserConfig({})).toEqual(none);
    expect(parseUserConfig(env({ token_budget: "", max_agents: "  ", window_hours: "", stuck_after: " " }))).toEqual(none);
  });

  it.each([
    ["token_budget", "0", "0", "a whole number of at least 1"],
    ["token_budget", "1.5", "1.5", "a whole number of at least 1"],
    ["token_budget", "abc", 'the string "abc"', "a whole number of at least 1"],
    ["cost_budget_usd", "0", "0", "greater than 0"],
    ["cost_budget_usd", "-2", "-2", "greater than 0"],
    ["cost_budget_usd", "1e999", "the number Infinity", "greater than 0"],
    ["max_agents", "-1", "-1", "a whole number of at least 0"],
    ["step_cost", "bogus", 'the string "bogus"', "reported or computed"],
  ])("%s=%s is rejected naming the option, the variable, what was found and what is expected", (option, value, found, expected) => {
    const c = parseUserConfig(env({ [option]: value }));
    expect(c.budgets).toEqual({});
    expect(c.problems).toHaveLength(1);
    const p = c.problems[0]!;
    expect(p).toMatchObject({ option, env: optionEnvName(option), found });
    expect(p.expected).toContain(expected);
    expect(p.message).toContain(`${option} (${optionEnvName(option)}) is ${found}`);
    expect(p.message).toContain("/plugin configure utility");
  });

  it("a bad option does not drop the good ones", () => {
    const c = parseUserConfig(env({ token_budget: "100", max_agents: "many" }));
    expect(c.budgets).toEqual({ tokenBudget: 100 });
    expect(describeUserConfigProblems(c)).toContain("max_agents");
    expect(describeUserConfigProblems(parseUserConfig({}))).toBeUndefined();
  });

  it("the price override is one line of JSON, checked", () => {
    expect(parseUserConfig(env({ prices: '{"opus":{"input":4,"output":20}}' })).prices).toEqual({ opus: { input: 4, output: 20 } });
    const broken = parseUserConfig(env({ prices: "{opus: 4" }));
    expect(broken.prices).toBeUndefined();
    expect(broken.problems[0]?.option).toBe("prices");
    expect(parseUserConfig(env({ prices: '{"gpt":{"input":1}}' })).problems[0]?.expected).toContain("opus, sonnet or haiku");
    expect(parseUserConfig(env({ prices: '{"opus":{"input":-1}}' })).problems).toHaveLength(1);
  });
});

describe("the manifest declares the same options", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "plugin", ".claude-plugin", "plugin.json"), "utf8")) as {
    userConfig: Record<string, { type: string; options?: string[]; min?: number }>;
  };

  it("one userConfig option per budget key, and the price override", () => {
    expect(Object.keys(manifest.userConfig).sort()).toEqual(
      [...Object.values(USER_BUDGET_OPTIONS), ...SESSION_BUDGET_OPTIONS, ...Object.values(USER_GUARD_OPTIONS), PRICES_OPTION].sort(),
    );
    expect(BUDGET_KEYS.map((k) => USER_BUDGET_OPTIONS[k])).toEqual(["token_budget", "cost_budget_usd", "max_agents", "step_cost"]);
  });

  it("with the types and bounds the parser enforces", () => {
    const u = manifest.userConfig;
    expect(u.token_budget).toMatchObject({ type: "number", min: 1 });
    expect(u.cost_budget_usd?.type).toBe("number");
    expect(u.max_agents).toMatchObject({ type: "number", min: 0 });
    expect(u.step_cost).toMatchObject({ type: "string", options: ["reported", "computed"] });
    expect(u.prices?.type).toBe("string");
  });
});
