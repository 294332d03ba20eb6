/**
 * How a plugin's userConfig values reach its hooks in the real client
 * (docs/claude-code-facts.md, "Plugin userConfig: how the user's budgets reach the hooks"):
 * settings.json `pluginConfigs["<plugin>@<marketplace>"].options` → every hook
 * of that plugin gets `CLAUDE_PLUGIN_OPTION_<KEY>` as a string; an option not
 * set is absent (its manifest default too); a hand-edited value is not checked.
 * The plugin's own parser (src/optin/user-config.ts) reads what arrives.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseUserConfig } from "../../src/optin/user-config.js";
import { PLUGIN_ROOT } from "../support/paths.js";
import { assertRunOk, makeScratchHome, runClaude } from "./support/claude.js";
import { makeProbePlugin, type HookCall } from "./support/probe-plugin.js";
import { text, toolUse } from "./support/scripted-model.js";

/** The plugin's own budget options, declared on the probe the way .claude-plugin/plugin.json declares them. */
const manifest = JSON.parse(readFileSync(join(PLUGIN_ROOT, ".claude-plugin", "plugin.json"), "utf8")) as {
  userConfig: Record<string, unknown>;
};

async function hookEnvWith(options: Record<string, unknown>): Promise<{ calls: HookCall[] }> {
  const plugin = makeProbePlugin({ events: ["PreToolUse"] });
  const home = makeScratchHome();
  try {
    const manifestPath = join(plugin.root, ".claude-plugin", "plugin.json");
    writeFileSync(manifestPath, JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, "utf8")), userConfig: manifest.userConfig }));
    const settingsPath = join(home, ".claude", "settings.json");
    // A plugin loaded with --plugin-dir has the id <name>@inline.
    writeFileSync(
      settingsPath,
      JSON.stringify({ ...JSON.parse(readFileSync(settingsPath, "utf8")), pluginConfigs: { "probe@inline": { options } } }),
    );
    const run = await runClaude({
      prompt: "go",
      pluginDir: plugin.root,
      home,
      allowedTools: ["Bash"],
      script: [[toolUse("Bash", { command: "echo hi" })], [text("done")]],
    });
    assertRunOk(run);
    run.cleanup();
    return { calls: plugin.calls() };
  } finally {
    plugin.cleanup();
  }
}

const optionEnv = (call: HookCall) => Object.fromEntries(Object.entries(call.env).filter(([k]) => k.startsWith("CLAUDE_PLUGIN_OPTION_")));

describe("plugin userConfig reaches the hooks as CLAUDE_PLUGIN_OPTION_*", () => {
  it("values set in settings.json arrive as strings; unset options, defaults included, are absent", async () => {
    const { calls } = await hookEnvWith({ token_budget: 50000, max_agents: 0, cost_budget_usd: 0.5 });
    expect(calls).toHaveLength(1);
    const env = optionEnv(calls[0]!);
    expect(env).toEqual({
      CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "50000",
      CLAUDE_PLUGIN_OPTION_MAX_AGENTS: "0",
      CLAUDE_PLUGIN_OPTION_COST_BUDGET_USD: "0.5",
    });
    expect(parseUserConfig(env)).toEqual({
      budgets: { tokenBudget: 50000, maxAgents: 0, costBudgetUsd: 0.5 },
      session: {},
      guards: {},
      problems: [],
    });
  }, 90_000);

  it("a hand-edited value outside the manifest's bounds is passed on unchecked, and the plugin's parser refuses it by name", async () => {
    const { calls } = await hookEnvWith({ token_budget: -5, step_cost: "bogus" });
    const env = optionEnv(calls[0]!);
    expect(env).toEqual({ CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "-5", CLAUDE_PLUGIN_OPTION_STEP_COST: "bogus" });
    const parsed = parseUserConfig(env);
    expect(parsed.budgets).toEqual({});
    expect(parsed.problems.map((p) => p.option)).toEqual(["token_budget", "step_cost"]);
  }, 90_000);
});
