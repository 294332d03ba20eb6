/**
 * Every file the Skill tool of Claude Code 2.1.328 could load for a name
 * (docs/claude-code-facts.md, "Which file a Skill call loads"). A name
 * resolves to a skill's folder name or its frontmatter `name`, a legacy
 * command's path (`a/b.md` is `a:b`), a plugin's skill or command as
 * `plugin:name` (and by its frontmatter `name` alone, an alias), or a
 * directory-scoped skill `some/dir:name`. Where Claude Code would pick one of
 * several, all are kept: the caller counts the most demanding.
 *
 * The name comes from the model. It never becomes a path, except the folder
 * part of a directory-scoped name, and only when each of its parts is a plain
 * folder name (no `..`, no separators) that stays inside the project.
 */
import { homedir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { readFileSync } from "node:fs";
import { shownName } from "../engine/claude-frontmatter.js";
import { frontmatterNameOf, mayName } from "../claude/names.js";
import { splitAsClaudeCode } from "../engine/claude-frontmatter.js";
import { claudeFolders, isFolder, listDir, pluginRoots, type Env, type PluginRoot } from "../claude/places.js";
import { MAX_ENTRIES, markdownFilesUnder, readSmallText } from "../claude/files.js";

export interface SkillSearch {
  env: Env;
  /** The hook's cwd; the project walk starts at CLAUDE_PROJECT_DIR, else here. */
  cwd?: string;
  home?: string;
  /** This plugin's folder and name (CLAUDE_PLUGIN_ROOT). */
  ownRoot?: string;
  ownName?: string;
  /** When the current prompt began (epoch ms): a skill file changed since then counts by the stricter reading (./classify.ts). */
  since?: number;
}

export interface SkillFile {
  file: string;
  /** The folder Claude Code loads it from (its "Base directory" and `${CLAUDE_SKILL_DIR}`). */
  folder: string;
  /** Where it was found, for messages: project, user, managed, plugin <name>, command, scoped. */
  origin: string;
  /** Its text, read once. */
  text: string;
}

const SKILL_FILE = /^skill\.md$/i;

/** The names a Skill call's `skill` may stand for: as given and without a leading slash, trimmed. */
export function namesOf(skill: string): string[] {
  const trimmed = skill.trim();
  return [...new Set([trimmed, trimmed.replace(/^\//, "")])].filter((n) => n !== "");
}

async function matchesSkillFolder(entry: string, text: string, name: string, parse: () => boolean): Promise<boolean> {
  if (entry === name) return true;
  // frontmatterNameOf parses only a block that may spell the name: only then is it counted.
  const { block } = splitAsClaudeCode(text);
  if (block === undefined || !mayName(block, name)) return false;
  return parse() && shownName(await frontmatterNameOf(text, name)) === name;
}

/**
 * Folders holding more than the hooks read: what a name loads from there
 * cannot be known. With what is left of one lookup's reading: a folder can
 * hold thousands of skills with large frontmatter, and a lookup runs while a
 * call waits (issue 31), so past these bytes read, or of frontmatter parsed
 * to match a name, the folder counts as incomplete instead.
 */
interface Incomplete {
  folders: string[];
  readLeft: number;
  parseLeft: number;
}

/** Bytes of skill and command files one lookup reads, and of those it parses for a frontmatter name. */
export const LOOKUP_READ_BYTES = 16 * 1024 * 1024;
export const LOOKUP_PARSE_BYTES = 1024 * 1024;

/** The file's text, counted against the lookup; undefined (and the folder incomplete) once the lookup has read its share. */
function readCounted(path: string, dir: string, incomplete: Incomplete): string | undefined {
  if (incomplete.readLeft <= 0) {
    incomplete.folders.push(dir);
    return undefined;
  }
  const text = readSmallText(path);
  if (text !== undefined) incomplete.readLeft -= text.length;
  return text;
}

/** Whether the lookup may still parse this text's frontmatter (its name), counting it; the folder is incomplete when not. */
function mayParse(text: string, dir: string, incomplete: Incomplete): boolean {
  if (incomplete.parseLeft < text.length) {
    incomplete.folders.push(dir);
    return false;
  }
  incomplete.parseLeft -= text.length;
  return true;
}

/** `<dir>/<entry>/SKILL.md` whose folder or frontmatter name is `name`. */
async function skillsIn(dir: string, name: string, origin: string, incomplete: Incomplete): Promise<SkillFile[]> {
  const found: SkillFile[] = [];
  const entries = listDir(dir);
  if (entries.length > MAX_ENTRIES) incomplete.folders.push(dir);
  for (const entry of entries.slice(0, MAX_ENTRIES)) {
    const folder = join(dir, entry);
    const file = join(folder, "SKILL.md");
    const text = readCounted(file, dir, incomplete);
    const parse = () => text !== undefined && mayParse(text, dir, incomplete);
    if (text !== undefined && (await matchesSkillFolder(entry, text, name, parse))) found.push({ file, folder, origin, text });
  }
  return found;
}

/** A legacy command's name: its path below `commands/`, `:` between folders, without `.md`; a SKILL.md names its folder. */
function commandName(root: string, file: string): string {
  const parts = relative(root, file).split(sep);
  if (SKILL_FILE.test(parts.at(-1)!)) parts.pop();
  else parts[parts.length - 1] = parts.at(-1)!.replace(/\.md$/, "");
  return parts.join(":");
}

function commandsIn(dir: string, name: string, origin: string, incomplete: Incomplete): SkillFile[] {
  const found: SkillFile[] = [];
  for (const { path } of markdownFilesUnder(dir, () => incomplete.folders.push(dir))) {
    if (commandName(dir, path) !== name) continue;
    const text = readCounted(path, dir, incomplete);
    if (text !== undefined) found.push({ file: path, folder: dirname(path), origin, text });
  }
  return found;
}

/** Project (nearest first, --add-dir too), user and managed skills and legacy commands. */
async function localFiles(name: string, search: SkillSearch, home: string, incomplete: Incomplete): Promise<SkillFile[]> {
  const folders = claudeFolders(search.env, search.env.CLAUDE_PROJECT_DIR || search.cwd, home);
  const places: Array<[string, string]> = [
    ...folders.projectClaude.map((d): [string, string] => [d, "project"]),
    [folders.user, "user"],
    [folders.managed, "managed"],
  ];
  const found: SkillFile[] = [];
  for (const [dir, origin] of places) {
    found.push(
      ...(await skillsIn(join(dir, "skills"), name, origin, incomplete)),
      ...commandsIn(join(dir, "commands"), name, `${origin} command`, incomplete),
    );
  }
  return found;
}

/** The names a plugin's skill or command answers to (its registered name, what it shows, its alias). */
function pluginNames(plugin: string, own: string, declared: string | undefined): string[] {
  const bare = declared?.startsWith(`${plugin}:`) ? declared.slice(plugin.length + 1) : declared;
  const names = [`${plugin}:${(bare || own).replace(/[^a-zA-Z0-9_-]/g, "-")}`, `${plugin}:${own}`];
  if (declared) names.push(declared.startsWith(`${plugin}:`) ? declared : `${plugin}:${declared}`);
  if (declared && !declared.includes(":")) names.push(declared);
  return names;
}

/** Folders a plugin's manifest adds for `skills` or `commands` (paths inside the plugin only). */
function manifestPaths(root: string, key: "skills" | "commands"): string[] {
  let value: unknown;
  try {
    value = (JSON.parse(readFileSync(join(root, ".claude-plugin", "plugin.json"), "utf8")) as Record<string, unknown>)[key];
  } catch {
    return [];
  }
  const listed = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");
  return listed.map((p) => resolve(root, p)).filter((p) => p.startsWith(root + sep));
}

async function pluginFile(path: string, plugin: string, name: string, incomplete: Incomplete): Promise<SkillFile | undefined> {
  const origin = `plugin ${plugin}`;
  const own = SKILL_FILE.test(basename(path)) ? basename(dirname(path)) : basename(path).replace(/\.md$/, "");
  const text = readCounted(path, dirname(path), incomplete);
  if (text === undefined) return undefined;
  const rest = name.startsWith(`${plugin}:`) ? name.slice(plugin.length + 1) : name;
  // In `plugin:name` a `-` may stand for any character the declared name had to lose: then the name is always read.
  const always = rest !== name && rest.includes("-");
  const { block } = splitAsClaudeCode(text);
  if (block !== undefined && (always || mayName(block, rest)) && !mayParse(text, dirname(path), incomplete)) return undefined;
  const declared = shownName(await frontmatterNameOf(text, rest, always));
  return pluginNames(plugin, own, declared).includes(name) ? { file: path, folder: dirname(path), origin, text } : undefined;
}

async function pluginFiles(name: string, roots: PluginRoot[], incomplete: Incomplete): Promise<SkillFile[]> {
  const found: SkillFile[] = [];
  for (const { root, names } of roots) {
    if (!names.some((plugin) => !name.includes(":") || name.startsWith(`${plugin}:`))) continue;
    const dirs = [join(root, "skills"), join(root, "commands"), ...manifestPaths(root, "skills"), ...manifestPaths(root, "commands")];
    const files = dirs.flatMap((d) =>
      isFolder(d) ? markdownFilesUnder(d, () => incomplete.folders.push(d)).map((f) => f.path) : d.endsWith(".md") ? [d] : [],
    );
    for (const plugin of names) {
      if (name.includes(":") && !name.startsWith(`${plugin}:`)) continue;
      for (const path of [...new Set(files)]) {
        const hit = await pluginFile(path, plugin, name, incomplete);
        if (hit) found.push(hit);
      }
    }
  }
  return found;
}

/** A plain folder name: no separator, not `.` or `..`. */
const PLAIN_FOLDER = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,128}$/;

/** A directory-scoped skill `some/dir:name`: `<project>/some/dir/.claude/skills/`. */
async function scopedFiles(name: string, search: SkillSearch, incomplete: Incomplete): Promise<SkillFile[]> {
  const at = name.lastIndexOf(":");
  if (at <= 0) return [];
  const parts = name.slice(0, at).split("/");
  if (!parts.every((p) => PLAIN_FOLDER.test(p))) return [];
  const bases = [...new Set([search.env.CLAUDE_PROJECT_DIR, search.cwd].filter((b): b is string => !!b))];
  const found: SkillFile[] = [];
  for (const base of bases) {
    const dir = resolve(base, ...parts, ".claude", "skills");
    if (dir.startsWith(resolve(base) + sep)) found.push(...(await skillsIn(dir, name.slice(at + 1), "scoped", incomplete)));
  }
  return found;
}

export interface Located {
  /** Every file the name could load, in Claude Code's search order. */
  files: SkillFile[];
  /** Folders holding more than the hooks read (too many entries, too deep): the name may load a file there. */
  incomplete: string[];
}

/** Every file a Skill call naming `skill` could load, in Claude Code's search order. */
export async function locateSkillFiles(skill: string, search: SkillSearch): Promise<Located> {
  const home = search.home ?? search.env.HOME ?? homedir();
  const roots = pluginRoots({
    env: search.env,
    home,
    ...(search.ownRoot ? { ownRoot: search.ownRoot } : {}),
    ...(search.ownName ? { ownName: search.ownName } : {}),
  });
  const found: SkillFile[] = [];
  const incomplete: Incomplete = { folders: [], readLeft: LOOKUP_READ_BYTES, parseLeft: LOOKUP_PARSE_BYTES };
  for (const name of namesOf(skill)) {
    found.push(
      ...(await localFiles(name, search, home, incomplete)),
      ...(await pluginFiles(name, roots, incomplete)),
      ...(await scopedFiles(name, search, incomplete)),
    );
  }
  const seen = new Set<string>();
  return { files: found.filter((f) => !seen.has(f.file) && seen.add(f.file)), incomplete: [...new Set(incomplete.folders)] };
}
