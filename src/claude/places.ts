/**
 * The folders Claude Code 2.1.328 reads skills, commands and agent
 * definitions from, found the way it finds them (docs/claude-code-facts.md,
 * "Where Claude Code looks for skills, commands and agents"). One module for
 * every hook that must find such a file: the agent-definition lookup and the
 * skill locator.
 *
 * - Project folders: the folder it started in and each folder above, up to and
 *   including the git work tree's top (and the main work tree's, from a linked
 *   one); without a git work tree, up to (not including) the home folder.
 * - The user's folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
 * - The managed folder: `/etc/claude-code/.claude`.
 * - Folders given with `--add-dir`, and plugins given with `--plugin-dir` or
 *   `--plugin-dir-no-mcp`,
 *   read from Claude Code's own command line (`/proc/$CLAUDE_PID/cmdline`,
 *   Linux only): no hook input names them.
 * - Installed plugins: `<config>/plugins/cache/<marketplace>/<plugin>/<version>`.
 *
 * Nothing here builds a path from a name the model gave: folders are listed
 * and their entries compared.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";

export type Env = Record<string, string | undefined>;

/** The managed settings folder on Linux; its `.claude` holds managed skills, commands and agents. */
export const MANAGED_DIR = "/etc/claude-code";

/** How far up a project walk goes at most. */
const MAX_LEVELS = 64;

/** Claude Code's own configuration folder: `$CLAUDE_CONFIG_DIR`, else `<home>/.claude`. */
export function configDir(env: Env, home: string = env.HOME || homedir()): string {
  return env.CLAUDE_CONFIG_DIR || join(home, ".claude");
}

export function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** A folder, following links (Claude Code follows linked skill folders). */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The git work tree's top holding `dir`, if any: the nearest folder with a `.git` entry. */
function gitTop(dir: string): string | undefined {
  let at = dir;
  for (let i = 0; i < MAX_LEVELS; i++) {
    try {
      lstatSync(join(at, ".git"));
      return at;
    } catch {
      // not here
    }
    const up = dirname(at);
    if (up === at) return undefined;
    at = up;
  }
  return undefined;
}

/** A linked work tree's main one: its `.git` file says `gitdir: <main>/.git/worktrees/<name>`. */
function mainWorkTree(top: string): string | undefined {
  try {
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(join(top, ".git"), "utf8"))?.[1]?.trim();
    const marker = `${sep}.git${sep}worktrees${sep}`;
    const at = pointer === undefined ? -1 : resolve(top, pointer).indexOf(marker);
    return at > 0 ? resolve(top, pointer!).slice(0, at) : undefined;
  } catch {
    return undefined;
  }
}

/** The project folders whose `.claude/` Claude Code reads, nearest first (see the module comment). */
export function projectFolders(start: string, home: string): string[] {
  const top = gitTop(start);
  const found: string[] = [];
  let at = resolve(start);
  for (let i = 0; i < MAX_LEVELS; i++) {
    if (at === resolve(home)) break;
    found.push(at);
    if (top !== undefined && at === top) break;
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  const main = top === undefined ? undefined : mainWorkTree(top);
  if (main !== undefined && !found.includes(main)) found.push(main);
  return found;
}

export interface ClaudeArgs {
  /** Folders given with `--plugin-dir` or `--plugin-dir-no-mcp`, absolute. */
  pluginDirs: string[];
  /** Folders given with `--add-dir`, absolute. */
  addDirs: string[];
}

const NO_ARGS: ClaudeArgs = { pluginDirs: [], addDirs: [] };

/** The values of an option on a command line: `--opt v`, `--opt=v`, and for a variadic one every word up to the next option. */
function optionValues(args: readonly string[], option: string, variadic: boolean): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith(`${option}=`)) values.push(arg.slice(option.length + 1));
    if (arg !== option) continue;
    while (i + 1 < args.length && !args[i + 1]!.startsWith("-")) {
      values.push(args[++i]!);
      if (!variadic) break;
    }
  }
  return values.filter((v) => v !== "");
}

/**
 * The folders the running Claude Code was given on its command line
 * (`CLAUDE_PID`; Linux /proc only, elsewhere none), made absolute against its
 * working folder. `--add-dir` takes several words; every one is kept (a word
 * that is no folder only costs a look).
 */
export function claudeArgsOf(pid: string | undefined): ClaudeArgs {
  if (!pid || !/^\d+$/.test(pid)) return NO_ARGS;
  let args: string[];
  let cwd: string;
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    cwd = readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return NO_ARGS;
  }
  return {
    pluginDirs: [...optionValues(args, "--plugin-dir", false), ...optionValues(args, "--plugin-dir-no-mcp", false)].map((d) =>
      resolve(cwd, d),
    ),
    addDirs: optionValues(args, "--add-dir", true).map((d) => resolve(cwd, d)),
  };
}

/** `--plugin-dir` folders of the running Claude Code. */
export function pluginDirsOf(pid: string | undefined): string[] {
  return claudeArgsOf(pid).pluginDirs;
}

/** A plugin folder's name: its manifest's `name`, else the folder's name. */
export function pluginNameOf(root: string): string {
  try {
    const name = (JSON.parse(readFileSync(join(root, ".claude-plugin", "plugin.json"), "utf8")) as { name?: unknown }).name;
    if (typeof name === "string" && name !== "") return name;
  } catch {
    // no manifest or not JSON
  }
  return basename(root);
}

export interface PluginRoot {
  root: string;
  /** The names it may go by: its manifest's and, in the cache, its folder's. */
  names: string[];
}

/** Every plugin folder under Claude Code's plugin cache: each version folder, and the plugin folder itself (any marketplace). */
export function cachedPlugins(config: string): PluginRoot[] {
  const cache = join(config, "plugins", "cache");
  const found: PluginRoot[] = [];
  for (const marketplace of listDir(cache)) {
    for (const plugin of listDir(join(cache, marketplace))) {
      const base = join(cache, marketplace, plugin);
      for (const root of [...listDir(base).map((v) => join(base, v)), base]) {
        if (!isFolder(root)) continue;
        const named = pluginNameOf(root);
        found.push({ root, names: named === plugin ? [plugin] : [named, plugin] });
      }
    }
  }
  return found;
}

export interface PluginSearch {
  env: Env;
  home?: string;
  /** The plugin running this hook (`CLAUDE_PLUGIN_ROOT`) and its name. */
  ownRoot?: string;
  ownName?: string;
  /** `--plugin-dir` folders; read from CLAUDE_PID when not given. */
  pluginDirs?: string[];
}

/** Every plugin folder Claude Code may have loaded: this one, those given with --plugin-dir, and the installed ones. */
export function pluginRoots(search: PluginSearch): PluginRoot[] {
  const own = search.ownRoot ? [{ root: search.ownRoot, names: [search.ownName ?? pluginNameOf(search.ownRoot)] }] : [];
  const given = (search.pluginDirs ?? pluginDirsOf(search.env.CLAUDE_PID)).map((root) => ({ root, names: [pluginNameOf(root)] }));
  return [...own, ...given, ...cachedPlugins(configDir(search.env, search.home))];
}

export interface ClaudeFolders {
  /** The `.claude` folders of the project walk and of each --add-dir folder, nearest first. */
  projectClaude: string[];
  /** The user's folder (`$CLAUDE_CONFIG_DIR` or `~/.claude`). */
  user: string;
  /** The managed one (`/etc/claude-code/.claude`). */
  managed: string;
}

/** The `.claude`-style folders whose `skills/`, `commands/` and `agents/` Claude Code reads. */
export function claudeFolders(env: Env, start: string | undefined, home: string = env.HOME || homedir()): ClaudeFolders {
  const project = start ? projectFolders(start, home) : [];
  const added = claudeArgsOf(env.CLAUDE_PID).addDirs;
  return {
    projectClaude: [...project, ...added].map((d) => join(d, ".claude")),
    user: configDir(env, home),
    managed: join(MANAGED_DIR, ".claude"),
  };
}
