import type { UserSettings } from "../engine/session/decide.js";
import { describeUserConfigProblems, parseUserConfig } from "../optin/user-config.js";

/** The user's plugin settings as this hook's environment carries them (CLAUDE_PLUGIN_OPTION_*), for the session machine. */
export function userSettings(env: Readonly<Record<string, string | undefined>>): UserSettings {
  const config = parseUserConfig(env);
  const problem = describeUserConfigProblems(config);
  return {
    budgets: config.budgets,
    ...(Object.keys(config.session).length > 0 ? { session: config.session } : {}),
    ...(Object.keys(config.guards).length > 0 ? { guards: config.guards } : {}),
    ...(config.prices ? { prices: config.prices } : {}),
    ...(problem ? { problem } : {}),
  };
}
