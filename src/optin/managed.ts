/**
 * The plugin's options in force (SPEC §17): what Claude Code passed, with the
 * organization's managed settings applied (src/optin/policy.ts). Reads the
 * managed settings files; only when one of them sets options for a
 * `utility@…` id are the plugin's id looked up and the user's settings file
 * read, so a machine with no policy pays one failed file read.
 */
import { pluginRefOf } from "../claude/plugin-id.js";
import { configuredIds, managedOptionsEnv, managedSettings, pluginOptionsEnv } from "../claude/plugin-settings.js";
import type { Env } from "../claude/places.js";
import { optionEnvName, USER_OPTIONS } from "./options.js";
import { withPolicy, type WithPolicy } from "./policy.js";
import { parseUserConfig, type UserConfig } from "./user-config.js";

/** The options in force, and which are the organization's. `dataDir` names the plugin when the environment does not. */
export function optionsInForce(env: Env, dataDir?: string): WithPolicy {
  const managed = managedSettings();
  if (!managed.flatMap(configuredIds).some((id) => id.startsWith("utility@"))) return { env, organization: [] };
  const id = pluginRefOf(env, dataDir ?? env.CLAUDE_PLUGIN_DATA).id;
  const organization = managedOptionsEnv(managed, id);
  if (Object.keys(organization).length === 0) return { env, organization: [] };
  return withPolicy({ given: env, organization, user: pluginOptionsEnv(env, id) });
}

/** Options whose value status never shows (a header's token, a URL's password). */
const SENSITIVE = new Set(USER_OPTIONS.filter((o) => o.sensitive).map((o) => o.option));

/** An option's value as `/utility status` may name it: a sensitive one is only said to be set. */
export function shownValue(option: string, value: string): string {
  return SENSITIVE.has(option) ? "(set, not shown)" : value.trim();
}

/**
 * The options a hook of the plugin would be handed, for a command the user
 * runs from a shell, where Claude Code sets no CLAUDE_PLUGIN_OPTION_*: the
 * user's own `pluginConfigs` from settings.json (its environment's values
 * over them). Inside Claude Code's shells, the environment as it is.
 */
export function optionsFromSettings(env: Env, dataDir?: string): Env {
  if (Object.keys(env).some((name) => name.startsWith("CLAUDE_PLUGIN_OPTION_"))) return env;
  return { ...pluginOptionsEnv(env, pluginRefOf(env, dataDir ?? env.CLAUDE_PLUGIN_DATA).id), ...env };
}

/** The user's configuration as it binds: parseUserConfig of the options in force, naming the valid ones the organization set. */
export function readUserConfig(env: Env, dataDir?: string): UserConfig {
  const { env: inForce, organization } = optionsInForce(env, dataDir);
  const config = parseUserConfig(inForce);
  const valid = organization
    .filter((option) => !config.problems.some((p) => p.option === option))
    .map((option) => ({ option, value: shownValue(option, inForce[optionEnvName(option)]!) }));
  return valid.length > 0 ? { ...config, organization: valid } : config;
}
