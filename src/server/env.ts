/**
 * The environment the hook handlers see in the warm server, made equal to a
 * command hook's. Claude Code gives an MCP server neither CLAUDE_PID nor the
 * plugin's options (CLAUDE_PLUGIN_OPTION_*): the manifest passes each option
 * in the server's `env` as `${user_config.KEY}`, which Claude Code fills with
 * the value, the manifest's default when the user set none, or "" when there
 * is neither (docs/claude-code-facts.md). A command hook sees an option that
 * is not set as absent, its default included; so here an empty value and a
 * value equal to the default are dropped.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { optionEnvName } from "../optin/user-config.js";

type Env = Record<string, string | undefined>;

/** Each option's manifest default, by its environment variable. */
function optionDefaults(pluginRoot: string | undefined): Map<string, string> {
  const defaults = new Map<string, string>();
  if (!pluginRoot) return defaults;
  try {
    const manifest = JSON.parse(readFileSync(join(pluginRoot, ".claude-plugin", "plugin.json"), "utf8")) as {
      userConfig?: Record<string, { default?: unknown }>;
    };
    for (const [key, option] of Object.entries(manifest.userConfig ?? {}))
      if (option.default !== undefined) defaults.set(optionEnvName(key), String(option.default));
  } catch {
    // no manifest: no defaults to drop
  }
  return defaults;
}

export function serverEnv(env: Env, parentPid: number): Env {
  const out: Env = { ...env, CLAUDE_PID: env.CLAUDE_PID || String(parentPid) };
  const defaults = optionDefaults(env.CLAUDE_PLUGIN_ROOT);
  for (const [name, value] of Object.entries(out)) {
    if (!name.startsWith("CLAUDE_PLUGIN_OPTION_")) continue;
    if (value === undefined || value.trim() === "" || defaults.get(name) === value) delete out[name];
  }
  return out;
}
