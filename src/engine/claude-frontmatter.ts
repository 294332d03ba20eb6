/**
 * Frontmatter read the way Claude Code 2.1.328 reads it, not the way
 * gray-matter does (docs/claude-code-facts.md, "Frontmatter as Claude Code
 * reads it"). The two differ, and a hook that asks "what will Claude Code do
 * with this file" must see what Claude Code sees:
 *
 * - The block opens with `---` and any blanks up to a line break, and closes
 *   at the first `---` after that, anywhere, even inside a line
 *   (`/^---\s*\n([\s\S]*?)---\s*\n?/`). `---js` opens nothing: that file has
 *   no frontmatter at all, and nothing in it is ever run.
 * - The block is parsed as YAML; when that fails, once more after quoting
 *   plain `key: value` lines whose value holds YAML punctuation, and with
 *   leading tabs made spaces. A block that fails both is ignored (no keys);
 *   the body is used all the same.
 * - A leading byte-order mark is dropped.
 *
 * Pure: the YAML parser is handed in (the hooks load theirs lazily, see
 * src/optin/read.ts `parseYamlBlock`). A block over that parser's bounds
 * (src/engine/bounded-value.ts) is not read at all, and not tried again
 * quoted: Claude Code may read it, so what this reader would make of it
 * quoted need not be what Claude Code sees.
 */
import { isYamlBoundsError, type YamlBounds } from "./bounded-value.js";

/** A YAML parser: the value of a document, or a throw. */
export type ParseYaml = (source: string) => unknown;

export interface ClaudeFrontmatter {
  /** The text between the delimiters; undefined when the file has no frontmatter Claude Code would see. */
  block?: string;
  /** What Claude Code loads as the skill's or agent's text. */
  body: string;
}

const OPENED_AND_CLOSED = /^---\s*\n([\s\S]*?)---\s*\n?/;

/** The frontmatter block and the body, split where Claude Code splits them. */
export function splitAsClaudeCode(text: string): ClaudeFrontmatter {
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Claude Code first asks for a "---" after the opening one; the pattern asks for it too.
  const found = OPENED_AND_CLOSED.exec(unmarked);
  if (!found) return { body: text };
  return { block: found[1] ?? "", body: unmarked.slice(found[0].length) };
}

/** Values that break a plain YAML scalar; Claude Code quotes them on its second try. */
const LOSSY_VALUE = /[{}[\]*&#!|>%@`]|: /;

/**
 * Claude Code's second try at a block that is not YAML: every `key: value`
 * line (key of letters, `_`, `-`) whose value is not already quoted, not a
 * YAML list, and holds punctuation YAML would read differently, gets its value
 * double-quoted; leading tabs become two spaces each.
 */
export function quoteLossyValues(block: string, parseYaml: ParseYaml): string {
  const lines = block.split("\n").map((line) => quoteLine(line, parseYaml));
  return lines.join("\n").replace(/^\t+/gm, (tabs) => "  ".repeat(tabs.length));
}

function quoteLine(line: string, parseYaml: ParseYaml): string {
  const match = /^([a-zA-Z_-]+):\s+(\S.*)$/.exec(line);
  if (!match) return line;
  const [, key, value] = match as unknown as [string, string, string];
  const quoted = (value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"));
  if (quoted || isYamlList(value, parseYaml) || !LOSSY_VALUE.test(value)) return line;
  return `${key}: "${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

function isYamlList(value: string, parseYaml: ParseYaml): boolean {
  if (!value.startsWith("[") || !value.endsWith("]")) return false;
  try {
    return Array.isArray(parseYaml(value));
  } catch {
    return false;
  }
}

export type ParsedBlock = { ok: true; data: Record<string, unknown> } | { ok: false; bounds?: YamlBounds };

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The block's keys as Claude Code gets them: a mapping, `{}` for a list or a scalar, or not parsed at all. */
export function parseAsClaudeCode(block: string, parseYaml: ParseYaml): ParsedBlock {
  for (const source of [() => block, () => quoteLossyValues(block, parseYaml)]) {
    try {
      const value = parseYaml(source());
      return { ok: true, data: isMapping(value) ? value : {} };
    } catch (error) {
      if (isYamlBoundsError(error)) return { ok: false, bounds: error.bounds };
      // not YAML: the second try, or nothing
    }
  }
  return { ok: false };
}

/** Claude Code drops a frontmatter `name` longer than this. */
export const MAX_NAME_CHARS = 256;

/** A frontmatter `name` as Claude Code shows it: any value made text, unless absent or too long. */
export function shownName(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const name = String(value);
  return name.length <= MAX_NAME_CHARS ? name : undefined;
}
