// Budgets an organization sets (issue 36, SPEC §17): Claude Code hands the
// plugin the managed value over the user's, option by option; the plugin
// keeps the smaller of the two for every budget and cap, and says which
// values in force are the organization's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TIGHTER_WHEN_SMALLER, withPolicy } from "../../src/optin/policy.js";
import { managedOptionsEnv, managedSettings } from "../../src/claude/plugin-settings.js";
import { parseUserConfig } from "../../src/optin/user-config.js";
import { renderStatus } from "../../src/summary/status-text.js";
import { newSession } from "../../src/engine/session/state.js";
import { budgetNames } from "../../src/engine/budget.js";

const CALLS = "CLAUDE_PLUGIN_OPTION_MAX_TOOL_CALLS";
const COST = "CLAUDE_PLUGIN_OPTION_SESSION_COST_BUDGET_USD";
const STEP = "CLAUDE_PLUGIN_OPTION_STEP_COST";

describe("withPolicy: a budget both set, the smaller wins", () => {
  it("keeps the organization's budget when the user's own is looser (what Claude Code passed is the organization's)", () => {
    const out = withPolicy({ given: { [CALLS]: "2" }, organization: { [CALLS]: "2" }, user: { [CALLS]: "50" } });
    expect(out.env[CALLS]).toBe("2");
    expect(out.organization).toEqual(["max_tool_calls"]);
  });

  it("keeps the user's own budget when it is tighter than the organization's, and does not call it the organization's", () => {
    const out = withPolicy({ given: { [CALLS]: "100" }, organization: { [CALLS]: "100" }, user: { [CALLS]: "5" } });
    expect(out.env[CALLS]).toBe("5");
    expect(out.organization).toEqual([]);
  });

  it("applies the organization's budget when Claude Code passed none or a looser one", () => {
    expect(withPolicy({ given: {}, organization: { [COST]: "5" }, user: {} }).env[COST]).toBe("5");
    expect(withPolicy({ given: { [COST]: "50" }, organization: { [COST]: "5" }, user: { [COST]: "50" } }).env[COST]).toBe("5");
  });

  it("a tie is the organization's", () => {
    const out = withPolicy({ given: { [CALLS]: "3" }, organization: { [CALLS]: "3" }, user: { [CALLS]: "3" } });
    expect(out).toEqual({ env: { [CALLS]: "3" }, organization: ["max_tool_calls"] });
  });

  it("an invalid or empty value of the user's never stands in for the organization's", () => {
    for (const own of ["-1", "0", "abc", " ", "0.5"]) {
      const out = withPolicy({ given: { [CALLS]: own }, organization: { [CALLS]: "10" }, user: { [CALLS]: own } });
      expect(out.env[CALLS]).toBe("10");
      expect(parseUserConfig(out.env).budgets.maxToolCalls).toBe(10);
    }
  });

  it("an option that is not a budget is the organization's as it set it", () => {
    const out = withPolicy({ given: { [STEP]: "measured" }, organization: { [STEP]: "computed" }, user: { [STEP]: "measured" } });
    expect(out).toEqual({ env: { [STEP]: "computed" }, organization: ["step_cost"] });
  });

  it("leaves the rest of what Claude Code passed alone, and names nothing when the organization sets nothing", () => {
    const given = { [CALLS]: "7", HOME: "/h" };
    expect(withPolicy({ given, organization: {}, user: {} })).toEqual({ env: given, organization: [] });
  });

  it("covers every budget and cap, and no option whose larger value is the tighter", () => {
    expect([...TIGHTER_WHEN_SMALLER].sort()).toEqual(
      [
        "agent_cost_budget_usd",
        "agent_max_tool_calls",
        "agent_token_budget",
        "cost_budget_usd",
        "max_agents",
        "max_tool_calls",
        "session_cost_budget_usd",
        "session_max_tool_calls",
        "session_token_budget",
        "token_budget",
        "window_cost_budget_usd",
      ].sort(),
    );
  });
});

describe("the managed settings files", () => {
  const dir = mkdtempSync(join(tmpdir(), "managed-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads managed-settings.json, then managed-settings.d/*.json in name order, a later file's option over an earlier one's", () => {
    mkdirSync(join(dir, "managed-settings.d"));
    const configs = (options: object) => JSON.stringify({ pluginConfigs: { "utility@m": { options } } });
    writeFileSync(join(dir, "managed-settings.json"), configs({ max_tool_calls: 9, token_budget: 1000 }));
    writeFileSync(join(dir, "managed-settings.d", "20-b.json"), configs({ max_tool_calls: 4 }));
    writeFileSync(join(dir, "managed-settings.d", "10-a.json"), configs({ max_tool_calls: 6, step_cost: "computed" }));
    writeFileSync(join(dir, "managed-settings.d", "30-c.txt"), configs({ max_tool_calls: 1 }));
    writeFileSync(join(dir, "managed-settings.d", "40-d.json"), "not json");
    expect(managedOptionsEnv(managedSettings(dir), "utility@m")).toEqual({
      CLAUDE_PLUGIN_OPTION_MAX_TOOL_CALLS: "4",
      CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "1000",
      CLAUDE_PLUGIN_OPTION_STEP_COST: "computed",
    });
    expect(managedOptionsEnv(managedSettings(dir), "utility@other")).toEqual({});
    expect(managedSettings(join(dir, "absent"))).toEqual([]);
  });
});

describe("/utility status names what the organization set", () => {
  it("says which budgets are the organization's and their values", () => {
    const userConfig = { ...parseUserConfig({ [CALLS]: "2" }), organization: [{ option: "max_tool_calls", value: "2" }] };
    const text = renderStatus("s", { dir: "/d", state: newSession("s"), records: [], userConfig });
    expect(text).toContain("\nset by your organization (managed settings; yours cannot loosen them): max_tool_calls 2\n");
  });

  it("says nothing of an organization when it set nothing", () => {
    const text = renderStatus("s", { dir: "/d", state: newSession("s"), records: [], userConfig: parseUserConfig({ [CALLS]: "2" }) });
    expect(text).not.toContain("organization");
  });
});

describe("a refusal names the organization's setting as the organization's", () => {
  it("names a budget in force from the organization, and the user's own as theirs", () => {
    const names = budgetNames({ maxToolCalls: 2, tokenBudget: 900 }, {}, ["max_tool_calls"]);
    expect(names.maxToolCalls).toBe("your organization's max_tool_calls setting");
    expect(names.tokenBudget).toBe("your token_budget setting");
  });

  it("names the frontmatter's when it is the smaller, whoever set the setting", () => {
    expect(budgetNames({ maxToolCalls: 5 }, { maxToolCalls: 3 }, ["max_tool_calls"]).maxToolCalls).toBe("utility_max_tool_calls");
  });
});
