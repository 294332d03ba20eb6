import { homedir } from "node:os";
import { basename, join } from "node:path";
import { shownName } from "../engine/claude-frontmatter.js";
import { frontmatterNameOf, surelyLoadsAgent, UNREADABLE, unreadableMayGate } from "./names.js";
import { claudeArgsOf, configDir, MANAGED_DIR, pluginRoots, projectFolders, type Env } from "./places.js";
import { markdownFilesUnder, readSmallText } from "./files.js";
import type { GateSource } from "../engine/session/state.js";
import { loadSkillSource } from "./skill-source.js";

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
 *
 * Several files may define one type; Claude Code 2.1.328 runs one of them,
 * the last in its own order (docs/gate.md): plugins', the user's, the
 * `--add-dir` folders', the project's from the shallowest folder to the
 * deepest, then the managed one; within a folder, the file system's order
 * (not sorted), a sub-folder's files where the sub-folder comes.
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

/** A file that defines the type, and whether Claude Code surely loads it (else it may skip it for the one before). */
interface Candidate {
  path: string;
  sure: boolean;
}

/**
 * The `agents/` folders of the user, the --add-dir folders, the project walk
 * and the managed folder, in Claude Code's order, the one that wins last:
 * the project's sorted by depth, shallowest first (a stable sort of the walk,
 * nearest first), as Claude Code sorts them.
 */
function localRoots(search: AgentSearch, env: Env, home: string): string[] {
  const depth = (dir: string) => dir.split(/[/\\]/).length;
  const project = (search.projectDir ? projectFolders(search.projectDir, home) : []).map((d) => join(d, ".claude"));
  const added = claudeArgsOf(env.CLAUDE_PID)
    .addDirs.map((d) => join(d, ".claude"))
    .filter((d) => !project.includes(d));
  const byDepth = [...project].sort((a, b) => depth(a) - depth(b));
  return [configDir(env, home), ...added, ...byDepth, join(MANAGED_DIR, ".claude")].map((d) => join(d, "agents"));
}

/** Project, user and managed agents: the type is the `name`, which must be text. */
async function localDefinitions(search: AgentSearch, env: Env, home: string): Promise<Candidate[]> {
  const found: Candidate[] = [];
  for (const file of localRoots(search, env, home).flatMap((root) => markdownFilesUnder(root, undefined, true))) {
    const text = readSmallText(file.path);
    if (text === undefined) continue;
    const name = await frontmatterNameOf(text, search.agentType);
    if (name === search.agentType || (await unreadableGates(text, name, search.agentType)))
      found.push({ path: file.path, sure: name === search.agentType && (await surelyLoadsAgent(text, search.agentType)) });
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

/**
 * The files that may define the type Claude Code runs, the likeliest first:
 * the last definition in Claude Code's order, and, where Claude Code could
 * skip it (this reader is not sure it loads), the ones before it, down to
 * one it surely loads. A plugin's are never sure (its type has a ":", which
 * no local name may hold, so they meet only each other). Empty for a
 * built-in type.
 */
export async function findAgentDefinitions(search: AgentSearch): Promise<string[]> {
  const env = search.env ?? {};
  const home = search.home ?? env.HOME ?? homedir();
  const plugin = search.agentType.includes(":") ? await pluginDefinitions(search, env, home) : [];
  const ordered = [...plugin.map((path) => ({ path, sure: false })), ...(await localDefinitions(search, env, home))];
  const mayRun: string[] = [];
  for (const candidate of ordered.reverse()) {
    if (!mayRun.includes(candidate.path)) mayRun.push(candidate.path);
    if (candidate.sure) break;
  }
  return mayRun;
}

/** The file Claude Code runs for the type, or undefined (built-in types such as general-purpose have none). */
export async function findAgentDefinition(search: AgentSearch): Promise<string | undefined> {
  return (await findAgentDefinitions(search))[0];
}

/**
 * The gate a subagent type's definition brings, as the hooks and replay read
 * it: several files may define the type, and if any opts in, the agent is
 * gated (undefined: a built-in type, or no definition that opts in).
 */
export async function agentGateSource(search: AgentSearch): Promise<GateSource | undefined> {
  for (const file of await findAgentDefinitions(search)) {
    const source = await loadSkillSource(file);
    if (source) return source;
  }
  return undefined;
}
