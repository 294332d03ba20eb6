/**
 * Reads the frontmatter of a SKILL.md or an agent .md, YAML only, and
 * resolves its opt-in.
 *
 * gray-matter can evaluate front matter written in other languages
 * (`---js` runs `eval`). This module never lets it: a file whose opening
 * delimiter names any language other than yaml/yml (`---js`, `---javascript`,
 * `---coffee`, `---json`, `---toml`, …) is a problem and its block is never
 * parsed. As a second line of defence every engine gray-matter ships except
 * YAML is replaced by one that throws, and the language gray-matter detected
 * is checked after parsing. JSON is refused too: SPEC §5 says YAML only, and
 * Claude Code itself reads plain `---` YAML.
 *
 * Anything else that reads frontmatter in this project should go through
 * here: gray-matter called without options caches and uses its defaults.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import matter from "gray-matter";
import { blockTooLong, isYamlBoundsError, tooLarge, YamlBoundsError } from "../engine/bounded-value.js";
import { MAX_FILE_BYTES } from "../claude/files.js";
import { resolveOptIn } from "./resolve.js";
import { defaultOptIn, optInProblem, type OptIn, type OptInProblem } from "./schema.js";
import { isPlainObject } from "./yaml-value.js";

/** Languages accepted after the opening `---` (case-insensitive); empty means YAML. */
export const FRONTMATTER_LANGUAGES = ["", "yaml", "yml"] as const;

class RefusedLanguage extends Error {}

function refuse(language: string) {
  return {
    parse(): object {
      throw new RefusedLanguage(`front matter in ${language} is refused; only YAML is read`);
    },
  };
}

type YamlLoad = (source: string, options: object) => unknown;
/** js-yaml's safeLoad, as gray-matter ships it. */
const jsYaml = (matter as unknown as { engines: { yaml: { parse: YamlLoad } } }).engines.yaml.parse;
/**
 * A repeated key takes its last value, as Claude Code's YAML reader does
 * (`json`; docs/claude-code-facts.md), and merge keys copy a bounded number
 * of entries (`maxTotalMergeKeys`).
 */
const YAML_OPTIONS = { json: true, maxTotalMergeKeys: 10_000 };

/** YAML within the bounds (src/engine/bounded-value.ts), or a YamlBoundsError: too long to parse, or too large to walk. */
export function loadBoundedYaml(source: string): unknown {
  const long = blockTooLong(source);
  if (long) throw new YamlBoundsError(long);
  const value = jsYaml(source, YAML_OPTIONS);
  const large = tooLarge(value);
  if (large) throw new YamlBoundsError(large);
  return value;
}

/** YAML read within bounds; every non-YAML engine gray-matter knows, by every alias it resolves, replaced by a refusal. */
const ENGINES = {
  // gray-matter's type says object; a YAML scalar or list is returned as is, and refused after parsing.
  yaml: { parse: (source: string) => loadBoundedYaml(source) as object },
  javascript: refuse("javascript"),
  js: refuse("js"),
  coffee: refuse("coffee"),
  coffeescript: refuse("coffeescript"),
  cson: refuse("cson"),
  json: refuse("json"),
  toml: refuse("toml"),
};

export type Frontmatter =
  { ok: true; hasFrontmatter: boolean; data: Record<string, unknown>; content: string } | { ok: false; problems: OptInProblem[] };

/** The first line after the opening `---`, as gray-matter reads it (BOM stripped, CRLF allowed). */
function openingLine(text: string): { opens: boolean; language: string } {
  const body = text.replace(/^\uFEFF/, "");
  if (!body.startsWith("---") || body.charAt(3) === "-") return { opens: false, language: "" };
  const rest = body.slice(3);
  const end = rest.search(/\r?\n/);
  return { opens: true, language: (end === -1 ? rest : rest.slice(0, end)).trim() };
}

function allowedLanguage(language: string): boolean {
  return (FRONTMATTER_LANGUAGES as readonly string[]).includes(language.toLowerCase());
}

function firstLine(text: string): string {
  return text.split(/\r?\n/)[0]!.trim();
}

/** Parses frontmatter from text. `file` only names the file in problems. */
export function parseFrontmatter(text: string, file: string): Frontmatter {
  const opening = openingLine(text);
  if (!opening.opens) return { ok: true, hasFrontmatter: false, data: {}, content: text };
  if (!allowedLanguage(opening.language)) {
    return {
      ok: false,
      problems: [
        optInProblem(
          file,
          "frontmatter",
          `a ${JSON.stringify(opening.language)} block (---${opening.language})`,
          "YAML front matter opened by a plain --- line; other languages are never run or read",
        ),
      ],
    };
  }
  const body = text.replace(/^\uFEFF/, "");
  const afterOpening = body.slice(body.search(/\r?\n/) + 1);
  if (body.search(/\r?\n/) === -1 || !/(^|\r?\n)---[ \t]*(\r?\n|$)/.test(afterOpening)) {
    return {
      ok: false,
      problems: [
        optInProblem(file, "frontmatter", "an opening --- line with no closing ---", "the frontmatter closed by a line holding only ---"),
      ],
    };
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = matter(body, { language: "yaml", engines: ENGINES });
  } catch (error) {
    if (isYamlBoundsError(error)) {
      const { key, found, expected } = error.bounds;
      return { ok: false, problems: [optInProblem(file, key, found, expected)] };
    }
    if (error instanceof RefusedLanguage) {
      return {
        ok: false,
        problems: [
          optInProblem(file, "frontmatter", "a block in a language other than YAML", "YAML front matter opened by a plain --- line"),
        ],
      };
    }
    const message = error instanceof Error ? firstLine(error.message) : String(error);
    return { ok: false, problems: [optInProblem(file, "frontmatter", `invalid YAML (${message})`, "valid YAML between the --- lines")] };
  }
  if (!allowedLanguage(parsed.language ?? "")) {
    return {
      ok: false,
      problems: [
        optInProblem(file, "frontmatter", `a ${JSON.stringify(parsed.language)} block`, "YAML front matter opened by a plain --- line"),
      ],
    };
  }
  const data: unknown = parsed.data;
  if (!isPlainObject(data)) {
    return { ok: false, problems: [optInProblem(file, "frontmatter", "YAML that is not a mapping", "a YAML mapping of keys to values")] };
  }
  return { ok: true, hasFrontmatter: true, data, content: parsed.content };
}

/**
 * One YAML block parsed on its own (js-yaml, through gray-matter, YAML only,
 * within the bounds of loadBoundedYaml): its value, or a throw. For readers that split the frontmatter themselves,
 * as Claude Code does (src/engine/claude-frontmatter.ts); the block they hand
 * in holds no `---`, so the delimiters added around it are the only ones.
 */
export function parseYamlBlock(block: string): unknown {
  if (block.includes("---")) throw new Error("a YAML block must not hold ---");
  return matter(`---\n${block}\n---\n`, { language: "yaml", engines: ENGINES }).data;
}

/** The first `bytes` bytes of a file, as text. */
function readHead(path: string, bytes: number): string {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0)).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

type TextRead = { ok: true; text: string } | { ok: false; problems: OptInProblem[]; seemsGated?: boolean };

function readText(path: string, file: string): TextRead {
  try {
    // Only a regular file: a FIFO in a skill's place would block the hook until Claude Code's timeout.
    const stat = statSync(path);
    if (!stat.isFile() && !stat.isDirectory()) {
      return { ok: false, problems: [optInProblem(file, "frontmatter", "not a regular file", "a readable SKILL.md or agent .md file")] };
    }
    if (stat.isFile() && stat.size > MAX_FILE_BYTES) {
      // Claude Code loads no larger file; its head still tells whether it asks for the gate.
      const found = `a file of ${stat.size} bytes`;
      const problem = optInProblem(file, "file", found, `at most ${MAX_FILE_BYTES} bytes, the most Claude Code loads`);
      return { ok: false, problems: [problem], seemsGated: seemsToAskForGating(readHead(path, MAX_FILE_BYTES)) };
    }
    return { ok: true, text: readFileSync(path, "utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const found =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a folder" : `a file that cannot be read (${code ?? String(error)})`;
    return { ok: false, problems: [optInProblem(file, "frontmatter", found, "a readable SKILL.md or agent .md file")] };
  }
}

/** Reads and parses the frontmatter of a file; a missing or unreadable file is a problem. */
export function readFrontmatter(path: string, file: string = path): Frontmatter {
  const read = readText(path, file);
  return read.ok ? parseFrontmatter(read.text, file) : { ok: false, problems: read.problems };
}

/**
 * Whether the opening block of a file that could not be parsed seems to ask
 * for gating: it names `utility_gated` with any value but a false-looking one,
 * in any language. Lets a caller fail closed on a file it refused to read.
 */
export function seemsToAskForGating(text: string): boolean {
  const body = text.replace(/^\uFEFF/, "");
  if (!body.startsWith("---")) return false;
  const close = body.indexOf("\n---", 3);
  const block = close === -1 ? body : body.slice(0, close);
  const match = /\butility_gated["']?\s*[:=]\s*(.*)/i.exec(block);
  if (!match) return false;
  return !/^["']?(?:false|no|off|0)?["']?[\s,}]*$/i.test(match[1]!.trim());
}

export type OptInFile =
  | { ok: true; optIn: OptIn; hasFrontmatter: boolean; data: Record<string, unknown> }
  | {
      ok: false;
      problems: OptInProblem[];
      /** The parsed frontmatter, when it was valid YAML (the opt-in values were not). */
      data?: Record<string, unknown>;
      /** Set when the frontmatter could not be parsed: whether its text seems to ask for gating. */
      seemsGated?: boolean;
    };

/** The opt-in of a SKILL.md or agent .md: read, parse (YAML only), resolve. */
export function readOptIn(path: string, file: string = path): OptInFile {
  const read = readText(path, file);
  if (!read.ok) return read;
  const front = parseFrontmatter(read.text, file);
  if (!front.ok) return { ok: false, problems: front.problems, seemsGated: seemsToAskForGating(read.text) };
  if (!front.hasFrontmatter) return { ok: true, optIn: defaultOptIn(), hasFrontmatter: false, data: {} };
  const resolved = resolveOptIn(front.data, file);
  if (!resolved.ok) return { ok: false, problems: resolved.problems, data: front.data };
  return { ok: true, optIn: resolved.optIn, hasFrontmatter: true, data: front.data };
}
