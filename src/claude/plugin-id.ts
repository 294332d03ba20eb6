/**
 * The plugin's own id as Claude Code names it, `utility@<marketplace>`, for
 * messages that tell the user the exact command to run. Claude Code gives a
 * plugin the data folder `<config>/plugins/data/<id>`, every character of the
 * id outside `[A-Za-z0-9_-]` made `-` (2.1.328's binary), so
 * `utility@utility-marketplace` has `utility-utility-marketplace`, and a
 * plugin loaded with `--plugin-dir` (id `utility@inline`) has `utility-inline`.
 * The folder's name is matched against the installed ids, so a marketplace
 * whose name holds other characters is still named exactly.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { configDir, type Env } from "./places.js";

/** Where the plugin is, as the fix in a message needs it (pluginRefOf finds it). */
export interface PluginRef {
  /** `utility@<marketplace>`, `utility@inline` under `--plugin-dir`. */
  id: string;
  inline: boolean;
  /** The plugin's folder (for `--plugin-dir`). */
  root?: string;
  /** The user's settings file, as the user would type it (`~/.claude/settings.json`). */
  settingsFile: string;
}

const PLUGIN = "utility";
export const INLINE_ID = `${PLUGIN}@inline`;

/** How Claude Code names a plugin's data folder after its id. */
export function dataFolderName(id: string): string {
  return id.replace(/[^a-zA-Z0-9\-_]/g, "-");
}

/** Pure: the id whose data folder is `folder`, among the installed ids; else read off the folder's name. */
export function pluginIdFor(folder: string | undefined, installedIds: readonly string[]): string {
  if (folder === undefined || folder === "") return `${PLUGIN}@<marketplace>`;
  const exact = installedIds.find((id) => id.startsWith(`${PLUGIN}@`) && dataFolderName(id) === folder);
  if (exact) return exact;
  return folder.startsWith(`${PLUGIN}-`) && folder.length > PLUGIN.length + 1
    ? `${PLUGIN}@${folder.slice(PLUGIN.length + 1)}`
    : `${PLUGIN}@<marketplace>`;
}

/** The ids in Claude Code's `installed_plugins.json` (none when it cannot be read). */
function installedIds(env: Env): string[] {
  try {
    const data = JSON.parse(readFileSync(join(configDir(env), "plugins", "installed_plugins.json"), "utf8")) as { plugins?: unknown };
    return data.plugins && typeof data.plugins === "object" ? Object.keys(data.plugins) : [];
  } catch {
    return [];
  }
}

/** The user's settings file as they would type it: `~/.claude/settings.json` unless CLAUDE_CONFIG_DIR moves it. */
function settingsFileOf(env: Env): string {
  const home = env.HOME || homedir();
  const file = join(configDir(env, home), "settings.json");
  return file.startsWith(`${home}/`) ? `~/${file.slice(home.length + 1)}` : file;
}

/**
 * This plugin's id and where its settings live, from the data folder Claude
 * Code gave it (CLAUDE_PLUGIN_DATA, or the folder the CLI found a session in).
 * Reads `installed_plugins.json`: call it only to word a message.
 */
export function pluginRefOf(env: Env, dataDir: string | undefined = env.CLAUDE_PLUGIN_DATA): PluginRef {
  const folder = dataDir ? basename(dataDir) : undefined;
  const id = folder === dataFolderName(INLINE_ID) ? INLINE_ID : pluginIdFor(folder, installedIds(env));
  return {
    id,
    inline: id === INLINE_ID,
    ...(env.CLAUDE_PLUGIN_ROOT ? { root: env.CLAUDE_PLUGIN_ROOT } : {}),
    settingsFile: settingsFileOf(env),
  };
}
