// A shell command's words as sh (bash, which runs Claude Code's hooks) would
// read them, for finding the files a command Claude Code runs by itself names
// (./command-files.ts). Pure. Not a shell: no globbing, no command
// substitution run; what it cannot know (a variable it was not given) it says
// so, and the caller stays on the safe side.

/**
 * A word (quoted and bare parts run together, quotes taken off), an operator
 * that ends a simple command (a newline and a backquote too), or a
 * redirection (`<`, `2>`, `<<<`, …), whose target is the next word.
 */
export type Token = { word: string } | { op: string } | { redirect: string; fd?: string };

const TOKEN =
  /(\d*(?:<<<|<<-?|<>|>>|>&|<&|>\||[<>]))|((?:\$'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|'[^']*'|\\.|[^\s"'\\;|&<>()`])+)|(&&|\|\||[;|&()\n`])/g;

/** The tokens of a shell command. */
export function tokens(command: string): Token[] {
  const out: Token[] = [];
  for (const m of command.matchAll(TOKEN)) {
    if (m[1] !== undefined) {
      const fd = /^\d+/.exec(m[1])?.[0];
      out.push({ redirect: m[1].slice(fd?.length ?? 0), ...(fd !== undefined ? { fd } : {}) });
    } else if (m[3] !== undefined) out.push({ op: m[3] });
    else if (m[2] !== undefined) out.push({ word: unquoted(m[2]) });
  }
  return out;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", e: "\u001b", a: "\u0007", "\\": "\\", "'": "'", '"': '"' };

function unquoted(word: string): string {
  return word.replace(
    /\$'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|'([^']*)'|\\(.)/gs,
    (_all, c?: string, d?: string, s?: string, e?: string) => {
      if (c !== undefined) return c.replace(/\\(.)/g, (_e, x: string) => ESCAPES[x] ?? `\\${x}`);
      return d !== undefined ? d.replace(/\\(.)/g, "$1") : (s ?? e ?? "");
    },
  );
}

/** A word's brace expansion, one level (`tools/hook{,}`, `a.{sh,py}`): the words it becomes. */
export function braced(word: string): string[] {
  const m = /^(.*?)\{([^{}]*,[^{}]*)\}(.*)$/s.exec(word);
  return m ? m[2]!.split(",").map((part) => `${m[1]}${part}${m[3]}`) : [word];
}

type Known = Readonly<Record<string, string | undefined>>;

/**
 * A word with the variables in `known` filled in, and a leading `~` as
 * `home`; undefined when it holds a variable neither knows. `${VAR:-d}`,
 * `${VAR-d}` and `${VAR:=d}` take the default when VAR is not known;
 * `${VAR:?}` is VAR; `${VAR:+alt}` is alt; `${VAR%pat}`, `${VAR%%pat}`,
 * `${VAR#pat}`, `${VAR##pat}` remove a suffix or prefix (`*` and `?` match).
 */
export function expanded(word: string, known: Known, home: string): string | undefined {
  let unknown = false;
  const value = word.replace(
    /\$\{(\w+)(?:(:?[-=?+])([^}]*)|(%%?|##?)([^}]*))?\}|\$(\w+)/g,
    (_all: string, ...groups: Array<string | undefined>) => {
      const [braced, op, arg, cut, pattern, bare] = groups;
      const found = known[braced ?? bare ?? ""];
      const filled = parameter(found, op, arg ?? "", known, home);
      if (filled === undefined) {
        unknown = true;
        return "";
      }
      return cut && pattern !== undefined ? removed(filled, cut, pattern) : filled;
    },
  );
  return unknown ? undefined : value.replace(/^~(?=\/|$)/, home);
}

/** A parameter's value with its operator (`:-`, `-`, `:=`, `=`, `:?`, `?`, `:+`, `+`); undefined when it cannot be known. */
function parameter(found: string | undefined, op: string | undefined, arg: string, known: Known, home: string): string | undefined {
  if (op === undefined || op.endsWith("?")) return found;
  if (op.endsWith("+")) return found === undefined ? "" : expanded(arg, known, home);
  return found ?? expanded(arg, known, home);
}

/** `value` with the shortest or longest suffix (`%`, `%%`) or prefix (`#`, `##`) matching a glob pattern removed. */
function removed(value: string, cut: string, pattern: string): string {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replaceAll("*", ".*")
      .replaceAll("?", ".")}$`,
    "s",
  );
  const cuts = Array.from({ length: value.length + 1 }, (_, i) => i);
  const order = cut.length === 2 ? [...cuts].reverse() : cuts;
  const suffix = cut.startsWith("%");
  for (const i of order) {
    const part = suffix ? value.slice(value.length - i) : value.slice(0, i);
    if (re.test(part)) return suffix ? value.slice(0, value.length - i) : value.slice(i);
  }
  return value;
}

/** Whether a word holds a glob sh would expand. */
export const isGlob = (word: string): boolean => /[*?[]/.test(word);
