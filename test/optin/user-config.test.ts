import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUDGET_KEYS } from "../../src/engine/budget.js";
import type { PluginRef } from "../../src/claude/plugin-id.js";
import { RETENTION_DEFAULTS } from "../../src/engine/defaults.js";
import { optionEnvName, PRICES_EXAMPLE } from "../../src/optin/options.js";
import {
  describeUserConfigProblems,
  parseUserConfig,
  PRICES_OPTION,
  RETENTION_OPTIONS,
  retentionOf,
  settingsFix,
  USER_BUDGET_OPTIONS,
  USER_GUARD_OPTIONS,
} from "../../src/optin/user-config.js";
import { SESSION_BUDGET_OPTIONS } from "../../src/engine/session-budget.js";
import { ROOT } from "../support/paths.js";
import { OTLP_OPTIONS } from "../../src/optin/otlp-config.js";
import { CLICKHOUSE_OPTION } from "../../src/optin/clickhouse-config.js";

const INSTALLED: PluginRef = { id: "utility@acme-tools", inline: false, settingsFile: "~/.claude/settings.json" };
const INLINE: PluginRef = { id: "utility@inline", inline: true, root: "/src/utility/plugin", settingsFile: "~/.claude/settings.json" };
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
  ])("%s=%s is rejected naming the option as the user sets it, what was found and what is expected", (option, value, found, expected) => {
    const c = parseUserConfig(env({ [option]: value }));
    expect(c.budgets).toEqual({});
    expect(c.problems).toHaveLength(1);
    const p = c.problems[0]!;
    expect(p).toMatchObject({ option, env: optionEnvName(option), found, enforcement: true });
    expect(p.expected).toContain(expected);
    const said = describeUserConfigProblems(c, INSTALLED)!;
    expect(said).toContain(`your utility@acme-tools setting ${option} is ${found}; expected ${p.expected}.`);
    expect(said).not.toContain("utility_");
  });

  it("a bad option does not drop the good ones", () => {
    const c = parseUserConfig(env({ token_budget: "100", max_agents: "many" }));
    expect(c.budgets).toEqual({ tokenBudget: 100 });
    expect(describeUserConfigProblems(c, INSTALLED)).toContain("max_agents");
    expect(describeUserConfigProblems(parseUserConfig({}), INSTALLED)).toBeUndefined();
  });

  it("names every invalid setting, then the exact commands that set and clear the first", () => {
    const c = parseUserConfig(env({ token_budget: "-1", prices: "not json" }));
    expect(describeUserConfigProblems(c, INSTALLED)).toBe(
      `your utility@acme-tools settings token_budget is -1; expected a whole number of at least 1. prices is the string "not json"; expected ${c.problems[1]!.expected}. ` +
        `To set it: /plugin configure utility@acme-tools in Claude Code, or echo '{"token_budget":"200000"}' | claude plugin configure utility@acme-tools --values-stdin. ` +
        `To clear it (back to its default), delete "token_budget" from pluginConfigs["utility@acme-tools"].options in ~/.claude/settings.json.`,
    );
  });

  it("for a plugin loaded with --plugin-dir, the configure command names the same folder", () => {
    expect(settingsFix(INLINE, "max_agents")).toBe(
      `To set it: echo '{"max_agents":"3"}' | claude --plugin-dir /src/utility/plugin plugin configure utility@inline --values-stdin. ` +
        `To clear it (back to its default), delete "max_agents" from pluginConfigs["utility@inline"].options in ~/.claude/settings.json.`,
    );
  });

  it("the example value in each fix is one the parser takes (the prices example as a JSON string value)", () => {
    for (const option of [...Object.values(USER_BUDGET_OPTIONS), PRICES_OPTION, ...Object.values(RETENTION_OPTIONS)]) {
      const json = /echo '([^']*)'/.exec(settingsFix(INSTALLED, option))![1]!;
      const values = JSON.parse(json) as Record<string, string>;
      expect(Object.keys(values)).toEqual([option]);
      expect(parseUserConfig(env(values)).problems, option).toEqual([]);
    }
  });

  it("only the enforcement problems refuse: a retention setting is a warning", () => {
    const c = parseUserConfig(env({ log_retention_days: "0", max_agents: "x" }));
    expect(c.problems.map((p) => [p.option, p.enforcement])).toEqual([
      ["max_agents", true],
      ["log_retention_days", false],
    ]);
    expect(describeUserConfigProblems(c, INSTALLED, "enforcement")).toContain("max_agents");
    expect(describeUserConfigProblems(c, INSTALLED, "enforcement")).not.toContain("log_retention_days");
    expect(describeUserConfigProblems(parseUserConfig(env({ log_max_mb: "a lot" })), INSTALLED, "enforcement")).toBeUndefined();
  });

  it("retention: the options set and valid, the defaults for the rest", () => {
    expect(retentionOf(parseUserConfig({}))).toEqual(RETENTION_DEFAULTS);
    const c = parseUserConfig(env({ log_retention_days: "7", log_max_mb: "0.5" }));
    expect(retentionOf(c)).toEqual({ maxAgeDays: 7, maxMb: RETENTION_DEFAULTS.maxMb });
    expect(c.problems.map((p) => [p.option, p.found, p.expected])).toEqual([["log_max_mb", "0.5", "a number of at least 1"]]);
    // What the manifest's `min: 1` lets through is valid: Claude Code checks no whole numbers.
    expect(retentionOf(parseUserConfig(env({ log_retention_days: "1.5", log_max_mb: "1" })))).toEqual({ maxAgeDays: 1.5, maxMb: 1 });
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

  it("one userConfig option per budget key, session and window budget, guard, the price override, the retention rule, the OTLP export and the live ClickHouse export", () => {
    expect(Object.keys(manifest.userConfig).sort()).toEqual(
      [
        ...Object.values(USER_BUDGET_OPTIONS),
        ...SESSION_BUDGET_OPTIONS,
        ...Object.values(USER_GUARD_OPTIONS),
        PRICES_OPTION,
        ...Object.values(RETENTION_OPTIONS),
        ...Object.values(OTLP_OPTIONS),
        CLICKHOUSE_OPTION,
      ].sort(),
    );
    expect((manifest.userConfig as Record<string, { sensitive?: boolean }>).otlp_headers?.sensitive).toBe(true);
    expect((manifest.userConfig as Record<string, { sensitive?: boolean }>).clickhouse_url?.sensitive).toBe(true);
    expect(BUDGET_KEYS.map((k) => USER_BUDGET_OPTIONS[k])).toEqual([
      "token_budget",
      "cost_budget_usd",
      "max_agents",
      "max_tool_calls",
      "agent_token_budget",
      "agent_cost_budget_usd",
      "agent_max_tool_calls",
      "step_cost",
    ]);
  });

  it("the price example is one: the manifest's, the README's and the messages' (valid, as the parser reads it)", () => {
    const description = (manifest.userConfig.prices as unknown as { description: string }).description;
    const shown = (text: string) =>
      [...text.matchAll(/\{\\?"(?:opus|sonnet|haiku)\\?":\{[^}]*\}\}/g)].map((m) => m[0].replaceAll('\\"', '"'));
    expect(shown(description)).toEqual([PRICES_EXAMPLE]);
    const readme = shown(readFileSync(join(ROOT, "README.md"), "utf8"));
    expect(
      readme.every((example) => example === PRICES_EXAMPLE),
      readme.join(" "),
    ).toBe(true);
    expect(parseUserConfig(env({ prices: PRICES_EXAMPLE })).problems).toEqual([]);
  });

  it("with the types and bounds the parser enforces", () => {
    const u = manifest.userConfig;
    expect(u.token_budget).toMatchObject({ type: "number", min: 1 });
    // Claude Code's `min` is inclusive and the budget must be above 0: a cent is the least it takes.
    expect(u.cost_budget_usd).toMatchObject({ type: "number", min: 0.01 });
    expect(u.max_agents).toMatchObject({ type: "number", min: 0 });
    expect(u.step_cost).toMatchObject({ type: "string", options: ["reported", "computed"] });
    expect(u.prices?.type).toBe("string");
    expect(u.log_retention_days).toMatchObject({ type: "number", min: 1 });
    expect(u.log_max_mb).toMatchObject({ type: "number", min: 1 });
  });

  it("every bound the manifest declares, the parser enforces: its least value passes, just below it fails", () => {
    for (const [option, spec] of Object.entries(manifest.userConfig)) {
      if (spec.min === undefined) continue;
      expect(parseUserConfig(env({ [option]: String(spec.min) })).problems, option).toEqual([]);
      expect(parseUserConfig(env({ [option]: String(spec.min - 0.5) })).problems, option).toHaveLength(1);
    }
  });

  it("the manifest's price example is the parser's, and it parses", () => {
    const description = (manifest.userConfig.prices as unknown as { description: string }).description;
    expect(description).toContain(PRICES_EXAMPLE);
    expect(parseUserConfig(env({ prices: PRICES_EXAMPLE })).prices).toEqual(JSON.parse(PRICES_EXAMPLE));
  });
});
