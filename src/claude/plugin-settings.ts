/**
 * The plugin's options as the user set them, read from Claude Code's
 * settings file (`pluginConfigs["<id>"].options`), for a command run outside
 * Claude Code, whose environment has no CLAUDE_PLUGIN_OPTION_*. Returned in
 * that environment's shape (every value a string), so the same parser reads
 * both. Sensitive options live elsewhere; this plugin has none.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { optionEnvName } from "./option-env.js";
import { configDir, type Env } from "./places.js";

export function pluginOptionsEnv(env: Env, pluginId: string): Record<string, string> {
  let settings: unknown;
  try {
    settings = JSON.parse(readFileSync(join(configDir(env), "settings.json"), "utf8"));
  } catch {
    return {};
  }
  const configs = (settings as { pluginConfigs?: Record<string, { options?: Record<string, unknown> }> } | null)?.pluginConfigs;
  const options = configs && Object.hasOwn(configs, pluginId) ? configs[pluginId]?.options : undefined;
  if (!options || typeof options !== "object") return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(options)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out[optionEnvName(key)] = String(value);
  }
  return out;
}
