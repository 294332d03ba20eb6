import type { UserSettings } from "../engine/session/decide.js";
import { pluginRefOf } from "../claude/plugin-id.js";
import { describeUserConfigProblems } from "../optin/user-config.js";
import { readUserConfig } from "../optin/managed.js";

/** The user's settings for the session machine, and what the user is told of the invalid ones. */
export interface HookSettings extends UserSettings {
  /** Every invalid setting, with the fix: shown once per session, on screen (SPEC §10). */
  warning?: string;
}

/**
 * The user's plugin settings as this hook's environment carries them
 * (CLAUDE_PLUGIN_OPTION_*), with the organization's managed settings applied
 * (SPEC §17: a budget both set, the smaller wins). Only when one is invalid is the plugin's id looked
 * up (a file read), to name the exact command that fixes it.
 */
export function userSettings(env: Readonly<Record<string, string | undefined>>): HookSettings {
  const config = readUserConfig(env);
  const settings: HookSettings = {
    budgets: config.budgets,
    ...(Object.keys(config.session).length > 0 ? { session: config.session } : {}),
    ...(Object.keys(config.guards).length > 0 ? { guards: config.guards } : {}),
    ...(config.prices ? { prices: config.prices } : {}),
    ...(config.organization ? { organization: config.organization.map((o) => o.option) } : {}),
  };
  if (config.problems.length === 0) return settings;
  const plugin = pluginRefOf(env);
  const problem = describeUserConfigProblems(config, plugin, "enforcement");
  return { ...settings, ...(problem ? { problem } : {}), warning: describeUserConfigProblems(config, plugin)! };
}

/** The user's settings for this call: the context's, when its process read them once, else from its environment. */
export function settingsOf(ctx: { env: Readonly<Record<string, string | undefined>>; settings?: () => HookSettings }): HookSettings {
  return ctx.settings ? ctx.settings() : userSettings(ctx.env);
}
