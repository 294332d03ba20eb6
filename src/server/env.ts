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
import { optionEnvName, USER_OPTIONS } from "../optin/options.js";

type Env = Record<string, string | undefined>;

/** Each option's manifest default, by its environment variable (the manifest is generated from USER_OPTIONS). */
const OPTION_DEFAULTS = new Map(
  USER_OPTIONS.filter((o) => o.default !== undefined).map((o) => [optionEnvName(o.option), String(o.default)]),
);

export function serverEnv(env: Env, parentPid: number): Env {
  const out: Env = { ...env, CLAUDE_PID: env.CLAUDE_PID || String(parentPid) };
  for (const [name, value] of Object.entries(out)) {
    if (!name.startsWith("CLAUDE_PLUGIN_OPTION_")) continue;
    if (value === undefined || value.trim() === "" || OPTION_DEFAULTS.get(name) === value) delete out[name];
  }
  return out;
}
