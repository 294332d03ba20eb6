import { homedir } from "node:os";
import { basename, join } from "node:path";
import { shownName } from "../engine/claude-frontmatter.js";
import { frontmatterNameOf, UNREADABLE, unreadableMayGate } from "../claude/names.js";
import { claudeFolders, pluginRoots, type Env } from "../claude/places.js";
import { markdownFilesUnder, readSmallText } from "../claude/files.js";

/**
 * Finds the file that defines a subagent type. The hook input names the type
 * (the definition's `name`, `plugin:name` for a plugin's agents) but not the
 * file, so the folders Claude Code reads are searched (src/claude/places.ts),
 * each recursively, and every file's name is read as Claude Code reads it
 * (src/engine/claude-frontmatter.ts): `name: gated-helper # note` is
 * `gated-helper`, a quoted or folded name is its value. A type found in no
 * file is a built-in one (general-purpose, Explore, …).
 *
 * - A project, user or managed agent's type is its frontmatter `name`, which
 *   must be text.
 * - A plugin agent's type is `<plugin>:<sub-folders…>:<name>`, its `name`
 *   made text, or the file's name without `.md` when it has none.
 * - A file whose frontmatter this reader cannot read (Claude Code may: see
 *   src/engine/bounded-value.ts) defines the type when it could name it and
 *   asks for the gate, so that its opt-in is read, as a problem, and refuses.
 */

/** Whether a file whose name could not be read counts as defining `wanted` all the same. */
async function unreadableGates(text: string, name: unknown, wanted: string): Promise<boolean> {
  return name === UNREADABLE && (await unreadableMayGate(text, wanted));
}

export interface AgentSearch {
  agentType: string;
  /** Where the project walk starts (CLAUDE_PROJECT_DIR, else the hook's cwd). */
  projectDir?: string;
  home?: string;
  /** The hook's environment (CLAUDE_CONFIG_DIR, CLAUDE_PID). */
  env?: Env;
  pluginRoot?: string;
  /** This plugin's name: its own agents are `<pluginName>:<name>`. */
  pluginName?: string;
  /** Plugin folders Claude Code was given with --plugin-dir; read from CLAUDE_PID when absent. */
  pluginDirs?: string[];
}

/** Project, user and managed agents: the type is the `name`, which must be text. */
async function localDefinitions(search: AgentSearch, env: Env, home: string): Promise<string[]> {
  const folders = claudeFolders(env, search.projectDir, home);
  const roots = [...folders.projectClaude, folders.user, folders.managed].map((d) => join(d, "agents"));
  const found: string[] = [];
  for (const file of roots.flatMap((root) => markdownFilesUnder(root))) {
    const text = readSmallText(file.path);
    if (text === undefined) continue;
    const name = await frontmatterNameOf(text, search.agentType);
    if (name === search.agentType || (await unreadableGates(text, name, search.agentType))) found.push(file.path);
  }
  return found;
}

/** Plugin agents: `<plugin>:<sub-folders…>:<name or file name>`. */
async function pluginDefinitions(search: AgentSearch, env: Env, home: string): Promise<string[]> {
  const plugin = search.agentType.slice(0, search.agentType.indexOf(":"));
  const roots = pluginRoots({
    env,
    home,
    ...(search.pluginRoot ? { ownRoot: search.pluginRoot } : {}),
    ...(search.pluginName ? { ownName: search.pluginName } : {}),
    ...(search.pluginDirs ? { pluginDirs: search.pluginDirs } : {}),
  }).filter((r) => r.names.includes(plugin));
  const found: string[] = [];
  for (const { root } of roots) {
    for (const file of markdownFilesUnder(join(root, "agents"))) {
      const prefix = [plugin, ...file.folders].join(":") + ":";
      if (!search.agentType.startsWith(prefix)) continue;
      const wanted = search.agentType.slice(prefix.length);
      const own = basename(file.path, ".md");
      const text = readSmallText(file.path);
      if (text === undefined) continue;
      const name = await frontmatterNameOf(text, wanted, own === wanted);
      const shown = name === UNREADABLE ? undefined : shownName(name);
      if ((shown || own) === wanted || (await unreadableGates(text, name, wanted))) found.push(file.path);
    }
  }
  return found;
}

/** Every file that defines the type, in the order Claude Code's folders are searched (a type with `:` may be a plugin's or a local name). */
export async function findAgentDefinitions(search: AgentSearch): Promise<string[]> {
  const env = search.env ?? {};
  const home = search.home ?? env.HOME ?? homedir();
  const local = await localDefinitions(search, env, home);
  const plugin = search.agentType.includes(":") ? await pluginDefinitions(search, env, home) : [];
  return [...new Set([...plugin, ...local])];
}

/** The first file that defines the type, or undefined (built-in types such as general-purpose have none). */
export async function findAgentDefinition(search: AgentSearch): Promise<string | undefined> {
  return (await findAgentDefinitions(search))[0];
}
