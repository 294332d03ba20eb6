// `utility statusline`: what Claude Code's `statusLine` command runs. It reads
// the JSON Claude Code hands the command on stdin (docs/claude-code-facts.md,
// "statusLine"), finds the session's state in the plugin's data folder (the
// command has no CLAUDE_PLUGIN_DATA: the folders are looked for), and prints
// one line. Loads only the state, its views and the price table: it runs
// after every model answer, so it must start fast (dist/statusline.js).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { DEFAULT_PRICES, withOverride } from "../engine/prices.js";
import { configDir } from "../claude/places.js";
import { optionEnvName } from "../optin/options.js";
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

/** The user's plugin options as Claude Code would hand them to a hook, from `pluginConfigs` in settings.json. */
function pluginOptions(env: Record<string, string | undefined>): Record<string, string> {
  try {
    const settings = JSON.parse(readFileSync(join(configDir(env), "settings.json"), "utf8")) as {
      pluginConfigs?: Record<string, { options?: Record<string, unknown> }>;
    };
    const id = Object.keys(settings.pluginConfigs ?? {}).find((key) => key.startsWith("utility@"));
    const options = id === undefined ? {} : (settings.pluginConfigs![id]!.options ?? {});
    return Object.fromEntries(Object.entries(options).map(([key, value]) => [optionEnvName(key), String(value)]));
  } catch {
    return {};
  }
}

/** The line for what Claude Code sent on stdin. */
export function runStatusLine(stdin: string, env: Record<string, string | undefined>): StatusLineResult {
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
  const config = parseUserConfig(pluginOptions(env));
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
