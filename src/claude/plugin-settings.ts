/**
 * The plugin's options as a settings file sets them
 * (`pluginConfigs["<id>"].options`): the user's, for a command run outside
 * Claude Code, whose environment has no CLAUDE_PLUGIN_OPTION_*, and the
 * organization's managed settings files. Returned in that environment's
 * shape (every value a string), so the same parser reads both. Sensitive
 * options live elsewhere; this plugin has none.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { optionEnvName } from "./option-env.js";
import { configDir, listDir, MANAGED_DIR, type Env } from "./places.js";

/** A JSON file's value; undefined when it is missing or not JSON. */
export function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** The ids a settings object sets options for under `pluginConfigs`. */
export function configuredIds(settings: unknown): string[] {
  const configs = (settings as { pluginConfigs?: unknown } | null | undefined)?.pluginConfigs;
  return configs && typeof configs === "object" ? Object.keys(configs) : [];
}

/** One settings object's options for `pluginId`, in the CLAUDE_PLUGIN_OPTION_* shape. */
export function optionsIn(settings: unknown, pluginId: string): Record<string, string> {
  const configs = (settings as { pluginConfigs?: Record<string, { options?: Record<string, unknown> }> } | null | undefined)?.pluginConfigs;
  const options = configs && typeof configs === "object" && Object.hasOwn(configs, pluginId) ? configs[pluginId]?.options : undefined;
  if (!options || typeof options !== "object") return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(options)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out[optionEnvName(key)] = String(value);
  }
  return out;
}

export function pluginOptionsEnv(env: Env, pluginId: string): Record<string, string> {
  return optionsIn(readJson(join(configDir(env), "settings.json")), pluginId);
}

/**
 * The managed settings files as Claude Code 2.1.328 reads them on Linux:
 * `managed-settings.json`, then `managed-settings.d/*.json` in name order
 * (a later file's option over an earlier one's). Unreadable ones are skipped.
 */
export function managedSettings(dir: string = MANAGED_DIR): unknown[] {
  const dropIns = join(dir, "managed-settings.d");
  const files = [
    join(dir, "managed-settings.json"),
    ...listDir(dropIns)
      .filter((name) => name.endsWith(".json") && !name.startsWith("."))
      .map((name) => join(dropIns, name)),
  ];
  return files.map(readJson).filter((settings) => settings !== undefined);
}

/** The organization's options for `pluginId` across the managed files, a later file's over an earlier one's. */
export function managedOptionsEnv(settings: readonly unknown[], pluginId: string): Record<string, string> {
  return Object.assign({}, ...settings.map((one) => optionsIn(one, pluginId))) as Record<string, string>;
}
