/**
 * A file's frontmatter `name` as Claude Code reads it (YAML, its own split:
 * src/engine/claude-frontmatter.ts), parsed only when it could be the name
 * looked for, so that the YAML reader (60 KB of code to compile, imported
 * lazily) is loaded only when needed.
 */
import { MAX_NAME_CHARS, parseAsClaudeCode, splitAsClaudeCode, type ParseYaml } from "../engine/claude-frontmatter.js";

let parser: ParseYaml | undefined;

/** The YAML parser, imported once. */
export async function yamlParser(): Promise<ParseYaml> {
  parser ??= (await import("../optin/read.js")).parseYamlBlock;
  return parser;
}

/**
 * Whether a block's YAML could give `name` the text `wanted` without holding
 * it: only through an escape, a tag, folding (a name with blanks), or a value
 * that is no text made text (numbers, true, .inf). Else it holds no such name
 * and need not be parsed.
 */
export function mayName(block: string, wanted: string): boolean {
  // An escape (`\x2d`) or a tag starting a value (`!!binary …`) can spell a name the text does not hold.
  if (block.includes(wanted) || block.includes("\\") || /(^|[\s:,[{-])!/.test(block)) return true;
  return !/^[A-Za-z][\w.-]*$/.test(wanted) || ["true", "false", "null", "infinity", "nan"].includes(wanted.toLowerCase());
}

/** What frontmatterNameOf gives for a block this reader cannot read (not YAML to it, or over its bounds): Claude Code may read it. */
export const UNREADABLE: unique symbol = Symbol("unreadable frontmatter");

/**
 * The `name` value Claude Code reads from a file's text (undefined when it has
 * none, UNREADABLE when this reader cannot read the block). Unless `mustKnow`,
 * a file whose name cannot be `wanted` is not parsed and gives undefined.
 */
export async function frontmatterNameOf(text: string, wanted: string, mustKnow = false): Promise<unknown> {
  const { block } = splitAsClaudeCode(text);
  if (block === undefined || (!mustKnow && !mayName(block, wanted))) return undefined;
  const parsed = parseAsClaudeCode(block, await yamlParser());
  return parsed.ok ? parsed.data.name : UNREADABLE;
}

/**
 * Whether a file whose frontmatter this reader cannot read may still define
 * `wanted` and ask for the gate: its block holds the name (or an escape that
 * could spell it), and its text names utility_gated with a value that does
 * not read as no. Such a file counts as a definition, so that a gated opt-in
 * never fails open: its opt-in, read as a problem, then refuses (issue 31,
 * hole 12).
 */
export async function unreadableMayGate(text: string, wanted: string): Promise<boolean> {
  const { block } = splitAsClaudeCode(text);
  if (block === undefined || !(block.includes(wanted) || block.includes("\\"))) return false;
  return (await import("../optin/read.js")).seemsToAskForGating(text);
}

/** The `model` a definition's frontmatter names (`haiku`, `inherit`, a model id), or undefined when it names none. */
export async function frontmatterModelOf(text: string): Promise<string | undefined> {
  const { block } = splitAsClaudeCode(text);
  if (block === undefined || !/\bmodel\b/.test(block)) return undefined;
  const parsed = parseAsClaudeCode(block, await yamlParser());
  const model = parsed.ok ? parsed.data.model : undefined;
  return typeof model === "string" && model.trim() !== "" ? model.trim() : undefined;
}

/**
 * Whether Claude Code 2.1.328 surely loads a project, user or managed agent
 * file whose `name` is `wanted`: its frontmatter reads, and it passes the
 * checks Claude Code makes before taking a file as an agent (`name` text,
 * not starting with "-", no ":", `description` text). A file this reader is
 * not sure of may be skipped by Claude Code, so the one below it may run.
 */
export async function surelyLoadsAgent(text: string, wanted: string): Promise<boolean> {
  const { block } = splitAsClaudeCode(text);
  if (block === undefined) return false;
  const parsed = parseAsClaudeCode(block, await yamlParser());
  if (!parsed.ok) return false;
  const { name, description } = parsed.data;
  const validName =
    name === wanted && wanted.length <= MAX_NAME_CHARS && !wanted.startsWith("-") && !wanted.normalize("NFKC").includes(":");
  return validName && typeof description === "string" && description !== "";
}
