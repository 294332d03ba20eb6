// A shell command's words as sh would read them, for finding the files a
// command Claude Code runs by itself names (./hook-commands.ts). Pure. Not a
// shell: no globbing, no command substitution; what it cannot know (a
// variable it was not given) it says so, and the caller stays on the safe side.

/** A word (quoted and bare parts run together, quotes taken off), or an operator that ends a simple command (a newline and a backquote too). */
export type Token = { word: string } | { op: string };

/** The tokens of a shell command. */
export function tokens(command: string): Token[] {
  const out: Token[] = [];
  for (const m of command.matchAll(/((?:"(?:[^"\\]|\\.)*"|'[^']*'|\\.|[^\s"'\\;|&<>()`])+)|(&&|\|\||[;|&()\n`])|[<>]+/g)) {
    if (m[2] !== undefined) out.push({ op: m[2] });
    else if (m[1] !== undefined) out.push({ word: unquoted(m[1]) });
  }
  return out;
}

function unquoted(word: string): string {
  return word.replace(/"((?:[^"\\]|\\.)*)"|'([^']*)'|\\(.)/g, (_all, d?: string, s?: string, e?: string) =>
    d !== undefined ? d.replace(/\\(.)/g, "$1") : (s ?? e ?? ""),
  );
}

/**
 * A word with the variables in `known` filled in, `${VAR:-default}` and
 * `${VAR-default}` taking the default when VAR is not known, and a leading
 * `~` as `home`; undefined when it holds a variable neither knows.
 */
export function expanded(word: string, known: Readonly<Record<string, string | undefined>>, home: string): string | undefined {
  let unknown = false;
  const value = word.replace(/\$\{(\w+)(?::?-([^}]*))?\}|\$(\w+)/g, (_all, braced?: string, fallback?: string, bare?: string) => {
    const found = known[braced ?? bare ?? ""];
    if (found !== undefined) return found;
    if (fallback !== undefined) return expanded(fallback, known, home) ?? ((unknown = true), "");
    unknown = true;
    return "";
  });
  return unknown ? undefined : value.replace(/^~(?=\/|$)/, home);
}

/** Whether a word holds a glob sh would expand. */
export const isGlob = (word: string): boolean => /[*?[]/.test(word);
