// The safety net under the reading of a command line (./command-files.ts).
// Pure. A line that runs code some way the reading may not follow (a shell,
// an interpreter, `eval`, `source`, a command substitution: seven red-team
// passes found over 60 such spellings, `cat < x | sh`, `node -e
// "require('./x')"`, `PYTHONPATH=tools python3 -c pass`, `dd if=x | sh`) has
// every word that may name a file guarded too, as written and in its parts
// (`--require=./x.js`, `if=x`, `require('./x')`), so that what the reading
// misses is still guarded. Lines that run no such thing (`npx eslint src`,
// `prettier --write "$FILE"`) are left to the reading, so a linter's folder
// stays the model's to write.
import { guard, type Reading } from "./command-reading.js";
import { runsCode } from "./program-files.js";
import { tokens } from "./shell-words.js";

/** Words of one line guarded by the net, at most: a larger line keeps its first ones (docs/limits.md). */
export const MAX_NET_WORDS = 4096;

/** What splits a word into the parts that may name a file: blanks, quotes, and shell and code punctuation. */
const PARTS = /[\s'"`=:;,|&<>(){}[\]\\!]+/;
/** Words that tell a line runs code from text the reading may not see whole. */
const CODE_WORDS = new Set(["eval", "source", ".", "exec"]);

/**
 * Whether the line runs code some way the reading may not see whole: a command substitution, eval, source, a
 * program that runs code the reading does not follow (awk, make, …), or a shell or an interpreter on a line
 * that also pipes, redirects input, chains commands, assigns, or hands it code (`-c`, `-e`, `-m`, a string of
 * several words). One interpreter running one script (`node server.js
 * --root ./src`, an MCP server's usual line) is the reading's alone: its arguments are the script's data.
 */
export function runsHiddenCode(line: string): boolean {
  if (/\$\(|`|<\(/.test(line)) return true;
  const all = tokens(line);
  const words = all.flatMap((t) => ("word" in t ? [t.word] : []));
  const names = netParts(line).map(({ part }) => programName(part));
  if (names.some((name) => CODE_WORDS.has(name) || runsCode(name) === "unread")) return true;
  if (!names.some((name) => runsCode(name) === "read")) return false;
  // A shell or an interpreter that is not the line's first program runs under one the reading may not know (`flock f sh x`).
  if (runsCode(programName(words[0] ?? "")) !== "read") return true;
  const chained = all.some((t) => "op" in t || ("redirect" in t && t.redirect.includes("<")));
  return chained || words.some((word) => inline(word) || /^\w+=/.test(word) || /\s/.test(word));
}

const programName = (word: string) => word.slice(word.lastIndexOf("/") + 1);

/** Options that hand a program code or a module name rather than a script file. */
const INLINE_LONG = ["--eval", "--print", "--require", "--import", "--loader", "--call", "--command", "--split-string"];
const inline = (word: string) => /^-[a-zA-Z]*[ceEmprsS]$/.test(word) || word === "-" || INLINE_LONG.includes(word.split("=")[0]!);

/**
 * Guards every part of the line that may name a file: relative ones from the project (and anywhere, when they
 * look like a script's path). In code (a word of several words: `-c` and `-e` strings), a bare or dotted name is
 * the name of a module file, not a folder: `import hookcheck` loads hookcheck.py, so `data = json.load(…)` keeps the folder `data`
 * the model's to write.
 */
export function guardEveryWord(line: string, reading: Reading): void {
  const seen = new Set<string>();
  for (const { part, code } of netParts(line)) {
    if (seen.size >= MAX_NET_WORDS) return;
    if (seen.has(part) || part.startsWith("-") || !/[\w~]/.test(part)) continue;
    seen.add(part);
    const named = /^([A-Za-z_]\w*)(?:\.[A-Za-z_][\w.]*)?$/.exec(part)?.[1];
    if (code && named !== undefined) for (const file of [`${named}.py`, `${named}/__init__.py`]) guard(file, reading, false);
    else {
      guard(part, reading, /[/.]/.test(part));
      // `python -m tools.hook` loads the package folder `tools` first.
      if (named !== undefined && named !== part) guard(named, reading, false);
    }
  }
}

/** The line's words and their parts (`code`: a part of a word of several words), but not the files output goes to (`> log`). */
function netParts(line: string): Array<{ part: string; code: boolean }> {
  const parts: Array<{ part: string; code: boolean }> = [];
  let output = false;
  for (const token of tokens(line)) {
    if ("redirect" in token) output = token.redirect.includes(">") && !token.redirect.includes("<");
    else if ("word" in token) {
      if (!output) parts.push(...partsOf(token.word));
      output = false;
    }
  }
  return parts;
}

/** A word, then its parts; those of a word of several words are code. */
function partsOf(word: string): Array<{ part: string; code: boolean }> {
  const code = /\s/.test(word);
  const parts = word.split(PARTS).filter((part) => part !== "" && part !== word);
  return [{ part: word, code: false }, ...parts.map((part) => ({ part, code }))];
}
