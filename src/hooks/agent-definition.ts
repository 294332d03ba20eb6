import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

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
  return line?.replace(/^name\s*:\s*/, "").replace(/^["']|["']\s*$/g, "").trim();
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
    const own = search.pluginRoot && plugin === search.pluginName ? [search.pluginRoot] : [];
    const roots = [...own, ...cachedPluginDirs(home, plugin!)];
    return roots.map((root) => ({ dir: join(root, "agents"), prefix: bare }));
  }
  return [
    ...(search.projectDir ? [{ dir: join(search.projectDir, ".claude", "agents") }] : []),
    { dir: join(home, ".claude", "agents") },
  ];
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
