// The paths a tool call's input names, whatever the tool (SPEC §6): protected
// places are judged by target, not by tool name. Pure: an input in, strings out.
import { isNeutralTool, isReadOnlyTool, JOB_OUTPUT_TOOLS, WRITING_TOOL_PATH_KEYS } from "./tools.js";
import { normalizePath } from "./redundancy.js";
import { tokens } from "./shell-words.js";

/** A string of a call's input that may name a path, and the field it was found in (`destination`, `edits[0].path`, `key of files`). */
export interface NamedPath {
  field: string;
  value: string;
}

/** At most this many strings (values and keys) of one input are checked; an input with more is refused where gated. */
export const MAX_INPUT_STRINGS = 1000;
/** At most this deep; an input nested deeper is refused where gated. */
export const MAX_INPUT_DEPTH = 32;

export type NamedPaths = { ok: true; paths: NamedPath[] } | { ok: false; problem: string };

/**
 * What a call's input names that may be a path. A writing tool (Write, Edit,
 * MultiEdit, NotebookEdit): its path field. A tool known to only read, or to
 * plan (Skill's arguments are text its skill reads), or to read a job's
 * output: nothing. Bash: nothing, since a shell command is not parsed
 * (Claude Code's sandbox answers for the shell). Any other tool, MCP tools
 * and tools the plugin does not know included: every string and every key of
 * its input, at any depth, up to MAX_INPUT_STRINGS and MAX_INPUT_DEPTH.
 */
export function namedPaths(tool: string, input: unknown): NamedPaths {
  if (isReadOnlyTool(tool) || isNeutralTool(tool) || tool === "Bash" || (JOB_OUTPUT_TOOLS as readonly string[]).includes(tool))
    return { ok: true, paths: [] };
  if (Object.hasOwn(WRITING_TOOL_PATH_KEYS, tool)) return { ok: true, paths: writerPaths(WRITING_TOOL_PATH_KEYS[tool]!, input) };
  return everyString(input);
}

function writerPaths(keys: readonly string[], input: unknown): NamedPath[] {
  const fields = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};
  return keys.flatMap((k) => (typeof fields[k] === "string" && fields[k] !== "" ? [{ field: k, value: fields[k] as string }] : []));
}

const fieldOf = (parent: string, key: string | number) =>
  typeof key === "number" ? `${parent}[${key}]` : parent === "" ? key : `${parent}.${key}`;

type Walked = { value: unknown; field: string; depth: number };

/** Every non-empty string and key of an input, walked with an explicit stack, within the bounds. */
function everyString(input: unknown): NamedPaths {
  const paths: NamedPath[] = [];
  const stack: Walked[] = [{ value: input, field: "", depth: 0 }];
  while (stack.length > 0) {
    const problem = walkOne(stack.pop()!, paths, stack);
    if (problem) return { ok: false, problem };
    if (paths.length > MAX_INPUT_STRINGS)
      return { ok: false, problem: `its input holds more than ${MAX_INPUT_STRINGS} strings, more than the gate checks for paths` };
  }
  return { ok: true, paths };
}

/** A string, and each word of it that reads as a path. */
function keepString(value: string, field: string, paths: NamedPath[]): void {
  if (value !== "") paths.push({ field, value });
  for (const word of pathWords(value)) paths.push({ field, value: word });
}

/** One value: a string is kept; a container's keys are kept and its values walked next. A problem when it nests too deep. */
function walkOne({ value, field, depth }: Walked, paths: NamedPath[], stack: Walked[]): string | undefined {
  if (typeof value === "string") {
    keepString(value, field || "input", paths);
    return undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  if (depth >= MAX_INPUT_DEPTH) return `its input nests deeper than ${MAX_INPUT_DEPTH} levels, more than the gate checks for paths`;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, child] of entries) {
    if (typeof key === "string" && key !== "") paths.push({ field: `key of ${field || "input"}`, value: key });
    stack.push({ value: child, field: fieldOf(field, key), depth: depth + 1 });
  }
  return undefined;
}

/** Config files Claude Code finds by name wherever they are: a word naming one is a path even without a folder part. */
const CONFIG_NAMES = /^(\.claude|\.mcp\.json|\.claude\.json)(\/|$)/i;

/** Text that reads as a shell command: a redirection, a pipe, a list, a substitution, a variable. */
const SHELLISH = /[>|;`]|&&|\$[({\w]/;
/** What ends a path inside a longer string: blanks, shell operators, quotes, `=` of an option, JSON's punctuation, a variable. */
const WORD_ENDS = /[\s;|&<>()`'"=,:{}[\]$\\]+/;

/**
 * The words of a string that holds more than a path (a shell command an MCP
 * tool runs, `cat > .claude/settings.local.json`, `dd of=.claude/x`, code
 * with a quoted path, JSON inside a string) that read as paths: a folder part
 * or a leading `~`; in text that reads as a shell command, a configuration
 * file's bare name too (prose that mentions `.claude` is no path). Read as
 * written and with quotes and escapes taken out (`.cl''aude/x`).
 */
function pathWords(value: string): string[] {
  if (!WORD_ENDS.test(value)) return [];
  const shell = SHELLISH.test(value);
  const words = new Set([...value.split(WORD_ENDS), ...value.replace(/['"\\]/g, "").split(WORD_ENDS)]);
  const found = [...words].filter(
    (w) => w !== "" && w !== value && !ROOTS.has(w) && (w.includes("/") || w.startsWith("~") || (shell && CONFIG_NAMES.test(w))),
  );
  return [...found, ...(shell ? rootWords(value) : [])];
}

/** `/` and `~` alone: in prose a ratio or an estimate ("read / write", "eta ~ 5 min"), in a shell command the root or the home. */
const ROOTS = new Set(["/", "~"]);

/** The `/` and `~` that stand as whole words of a shell command (`rm -rf ~`), not inside its quoted text. */
function rootWords(value: string): string[] {
  return tokens(value).flatMap((t) => ("word" in t && ROOTS.has(t.word) ? [t.word] : []));
}

/**
 * Where a path as written points, lexically: a `file://` address is its path,
 * `~` is the home folder, a relative path is taken from `cwd`; `.` and `..`
 * resolved. Undefined when it cannot be made absolute (no home, no cwd).
 */
export function absolutePath(value: string, cwd: string | undefined, home: string | undefined): string | undefined {
  let path = value;
  if (path.startsWith("file://")) path = decoded(path.slice("file://".length).replace(/^[^/]*/, ""));
  if (path === "~" || path.startsWith("~/")) {
    if (!home) return undefined;
    path = `${home}/${path.slice(1)}`;
  } else if (!path.startsWith("/")) {
    if (!cwd) return undefined;
    path = `${cwd}/${path}`;
  }
  return normalizePath(path) ?? undefined;
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
