// `utility statusline`: what Claude Code's `statusLine` command runs. It reads
// the JSON Claude Code hands the command on stdin (docs/claude-code-facts.md,
// "statusLine"), finds the session's state in the plugin's data folder (the
// command has no CLAUDE_PLUGIN_DATA: the folders are looked for), and prints
// one line. Loads only the state, its views, the settings and the price table: it runs
// after every model answer, so it must start fast (dist/statusline.js).
import { join } from "node:path";
import * as z from "zod/mini";
import { DEFAULT_PRICES, withOverride } from "../engine/prices.js";
import { configDir, MANAGED_DIR, type Env } from "../claude/places.js";
import { configuredIds, managedOptionsEnv, managedSettings, optionsIn, readJson } from "../claude/plugin-settings.js";
import { withPolicy } from "../optin/policy.js";
import { parseUserConfig } from "../optin/user-config.js";
import { locateSessionData } from "../state/locate.js";
import { FileStateStore } from "../state/store.js";
import { statusLine } from "./line.js";

/** The fields of Claude Code's statusLine input this uses (it sends many more). */
export const StatusInputSchema = z.looseObject({ session_id: z.string().check(z.minLength(1)) });

export interface StatusLineResult {
  line: string;
  /** 0, or 2 when the input is not what Claude Code sends (the line says why). */
  code: number;
}

/** The plugin's id as the user's or the organization's settings name it (`utility@…`), when either does. */
function pluginIdIn(settings: readonly unknown[]): string | undefined {
  return settings.flatMap(configuredIds).find((key) => key.startsWith("utility@"));
}

/**
 * The plugin options in force as the hooks see them (src/optin/managed.ts):
 * the user's `pluginConfigs` in settings.json, the organization's managed
 * settings over them as Claude Code hands them, and for every budget both set
 * the smaller (src/optin/policy.ts).
 */
function optionsInForce(env: Env, managedDir: string): Record<string, string | undefined> {
  const user = readJson(join(configDir(env), "settings.json"));
  const managed = managedSettings(managedDir);
  const id = pluginIdIn([user, ...managed]);
  if (id === undefined) return {};
  const own = optionsIn(user, id);
  const organization = managedOptionsEnv(managed, id);
  return withPolicy({ given: { ...own, ...organization }, organization, user: own }).env;
}

/** The line for what Claude Code sent on stdin. */
export function runStatusLine(stdin: string, env: Record<string, string | undefined>, managedDir = MANAGED_DIR): StatusLineResult {
  let input: unknown;
  try {
    input = JSON.parse(stdin);
  } catch {
    return { line: "utility · statusline: stdin is not JSON (expected the object Claude Code hands a statusLine command)", code: 2 };
  }
  const parsed = StatusInputSchema.safeParse(input);
  if (!parsed.success)
    return { line: "utility · statusline: stdin has no session_id (expected the object Claude Code hands a statusLine command)", code: 2 };
  const sessionId = parsed.data.session_id;
  const columns = Number(env.COLUMNS);
  const config = parseUserConfig(optionsInForce(env, managedDir));
  const options = {
    prices: withOverride(DEFAULT_PRICES, config.prices),
    ...(Object.keys(config.session).length > 0 ? { sessionBudgets: config.session } : {}),
    ...(Number.isInteger(columns) && columns > 0 ? { columns } : {}),
  };
  try {
    const dir = locateSessionData(env, sessionId);
    const state = dir === undefined ? undefined : new FileStateStore(dir).read(sessionId);
    return { line: statusLine(state, options), code: 0 };
  } catch (error) {
    return { line: `utility · ${error instanceof Error ? error.message : String(error)}`, code: 0 };
  }
}
