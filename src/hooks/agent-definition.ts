import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import { isSafeId } from "../state/paths.js";

/**
 * Finds the file that defines a subagent type. The hook input names the
 * type (the definition's `name`, `plugin:name` for a plugin's agents) but
 * not the file, so the folders Claude Code reads are searched, matching on
 * the `name:` key rather than the file name.
 */

export interface AgentSearch {
  agentType: string;
  projectDir?: string;
  home?: string;
  pluginRoot?: string;
  /** This plugin's name: its own agents are `<pluginName>:<name>`. */
  pluginName?: string;
  /** Plugin folders Claude Code was given with --plugin-dir (see `pluginDirsOf`). */
  pluginDirs?: string[];
}

/**
 * The folders the running Claude Code was started with `--plugin-dir`: such a
 * plugin is in no cache and no hook input names its folder, so its agents'
 * definitions are found through Claude Code's own command line (`CLAUDE_PID`;
 * Linux /proc only, elsewhere none).
 */
export function pluginDirsOf(pid: string | undefined): string[] {
  if (!pid || !/^\d+$/.test(pid)) return [];
  let args: string[];
  let cwd: string;
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    cwd = readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return [];
  }
  const dirs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--plugin-dir" && args[i + 1]) dirs.push(args[++i]!);
    else if (arg.startsWith("--plugin-dir=")) dirs.push(arg.slice("--plugin-dir=".length));
  }
  return dirs.map((d) => resolve(cwd, d));
}

/** A plugin folder's name: its manifest's `name`, else the folder's name. */
function pluginNameOf(root: string): string {
  try {
    const name = (JSON.parse(readFileSync(join(root, ".claude-plugin", "plugin.json"), "utf8")) as { name?: unknown }).name;
    if (typeof name === "string" && name !== "") return name;
  } catch {
    // no manifest or not JSON
  }
  return basename(root);
}

function markdownFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/** The `name:` of a definition's frontmatter, read without a YAML parser (this runs on the hot path). */
export function frontmatterName(text: string): string | undefined {
  const front = /^\uFEFF?---[^\n]*\r?\n([\s\S]*?)\r?\n---/.exec(text);
  const line = front?.[1]?.split(/\r?\n/).find((l) => /^name\s*:/.test(l));
  return line
    ?.replace(/^name\s*:\s*/, "")
    .replace(/^["']|["']\s*$/g, "")
    .trim();
}

/** Plugin folders under Claude Code's plugin cache that could be `plugin` (any marketplace, any version). */
function cachedPluginDirs(home: string, plugin: string): string[] {
  const cache = join(home, ".claude", "plugins", "cache");
  const found: string[] = [];
  for (const marketplace of safeList(cache)) {
    const base = join(cache, marketplace, plugin);
    for (const version of safeList(base)) found.push(join(base, version));
    found.push(base);
  }
  return found;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export function candidateFolders(search: AgentSearch): Array<{ dir: string; prefix?: string }> {
  const home = search.home ?? homedir();
  const [plugin, bare] = search.agentType.includes(":") ? search.agentType.split(":", 2) : [undefined, search.agentType];
  if (plugin) {
    // The plugin's name becomes a path under the plugin cache: a name that is no safe id ("../..") names no plugin.
    if (!isSafeId(plugin)) return [];
    const own = search.pluginRoot && plugin === search.pluginName ? [search.pluginRoot] : [];
    const given = (search.pluginDirs ?? []).filter((dir) => pluginNameOf(dir) === plugin);
    const roots = [...own, ...given, ...cachedPluginDirs(home, plugin!)];
    return roots.map((root) => ({ dir: join(root, "agents"), prefix: bare }));
  }
  return [...(search.projectDir ? [{ dir: join(search.projectDir, ".claude", "agents") }] : []), { dir: join(home, ".claude", "agents") }];
}

/** The definition file of an agent type, or undefined (built-in types such as general-purpose have none). */
export function findAgentDefinition(search: AgentSearch): string | undefined {
  const wanted = search.agentType.includes(":") ? search.agentType.split(":", 2)[1]! : search.agentType;
  for (const { dir } of candidateFolders(search)) {
    if (!existsSync(dir)) continue;
    for (const file of markdownFiles(dir)) {
      try {
        if (frontmatterName(readFileSync(file, "utf8")) === wanted) return file;
      } catch {
        // unreadable: not this one
      }
    }
  }
  return undefined;
}
