/**
 * Which skills and agents a folder holds, and what their opt-in frontmatter
 * (SPEC §5) says, with the gate's own rules and messages: behind `utility
 * check` and the session-start warning of unreadable opt-ins.
 *
 * A path is a file (checked whatever its name) or a folder, searched
 * recursively for every `SKILL.md` and every `.md` below a folder named
 * `agents` (`.claude/agents/` included; `node_modules` and `.git` skipped).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { parseAsClaudeCode, shownName, splitAsClaudeCode } from "../engine/claude-frontmatter.js";
import { optInProblem, type OptIn, type OptInProblem } from "./schema.js";

const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/**
 * The frontmatter reader (src/optin/read.ts: `import * as reader from "./read.js"`), handed in:
 * the hooks load it on demand (a dynamic import), so its YAML parser stays off their hot path.
 */
export interface FrontmatterReader {
  parseYamlBlock(block: string): unknown;
  readOptIn(
    path: string,
    file: string,
  ): { ok: true; optIn: OptIn; data: Record<string, unknown> } | { ok: false; problems: OptInProblem[]; data?: Record<string, unknown> };
}

export interface CheckedFile {
  file: string;
  optIn: OptIn | null;
  problems: OptInProblem[];
  /** What does not stop the file from working but may surprise: present only when there is some. */
  warnings?: string[];
}

/** Files under `root` that `check` reads, sorted. `insideAgents` says whether `root` is itself below an `agents` folder. */
export function findOptInFiles(root: string, insideAgents = basename(root) === "agents"): string[] {
  const found: string[] = [];
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) {
      if (SKIPPED_FOLDERS.has(entry.name)) continue;
      found.push(...findOptInFiles(path, insideAgents || entry.name === "agents"));
    } else if (entry.isFile() && (entry.name === "SKILL.md" || (insideAgents && entry.name.endsWith(".md")))) {
      found.push(path);
    }
  }
  return found;
}

const shown = (name: string | undefined) => (name === undefined ? "no name" : JSON.stringify(name));

/**
 * The hooks find an agent (and the Skill tool a skill) by its `name` as Claude
 * Code reads it: its own split at the first `---` and its own YAML reading
 * (src/engine/claude-frontmatter.ts). When that differs from what this
 * reader sees, say so: the file answers to Claude Code's name, not this one.
 */
export function nameWarnings(
  path: string,
  file: string,
  data: Record<string, unknown> | undefined,
  parseYamlBlock: FrontmatterReader["parseYamlBlock"],
): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const { block } = splitAsClaudeCode(text);
  const parsed = block === undefined ? undefined : parseAsClaudeCode(block, parseYamlBlock);
  const theirs = parsed?.ok ? shownName(parsed.data.name) : undefined;
  const ours = shownName(data?.name);
  if (theirs === ours) return [];
  return [
    `${file}: name: Claude Code reads ${shown(theirs)} where this YAML reader sees ${shown(ours)} (Claude Code ends the frontmatter at the first "---", even inside a line, and ignores a block it cannot read); the file answers to Claude Code's name`,
  ];
}

function display(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  const shown = rel === "" ? "." : !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
  return shown.split(sep).join("/");
}

/** Checks every file the PATHs name; a PATH that does not exist is reported as a problem. */
export function checkPaths(paths: string[], cwd: string, reader: FrontmatterReader): CheckedFile[] {
  const results: CheckedFile[] = [];
  const seen = new Set<string>();
  for (const given of paths) {
    const absolute = resolve(cwd, given);
    let files: string[];
    try {
      files = statSync(absolute).isDirectory() ? findOptInFiles(absolute) : [absolute];
    } catch {
      results.push({
        file: display(absolute, cwd),
        optIn: null,
        problems: [
          optInProblem(
            display(absolute, cwd),
            "frontmatter",
            "no file or folder at this path",
            "a SKILL.md, an agent .md, or a folder holding them",
          ),
        ],
      });
      continue;
    }
    for (const path of files) {
      if (seen.has(path)) continue;
      seen.add(path);
      const file = display(path, cwd);
      if (!/\.md$/i.test(path)) {
        // Claude Code reads skills, agents and commands only from Markdown files: this one opts nothing in or out.
        const found = "no Markdown file, so no skill, agent or command (Claude Code reads those only from .md files)";
        const expected = "a SKILL.md, an agent .md or a command .md, or a folder holding them";
        results.push({ file, optIn: null, problems: [optInProblem(file, "file", found, expected)] });
        continue;
      }
      const read = reader.readOptIn(path, file);
      const warnings = nameWarnings(path, file, read.data, reader.parseYamlBlock);
      const checked: CheckedFile = read.ok ? { file, optIn: read.optIn, problems: [] } : { file, optIn: null, problems: read.problems };
      results.push(warnings.length > 0 ? { ...checked, warnings } : checked);
    }
  }
  return results;
}
