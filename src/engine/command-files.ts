// The files a command line names in a way that runs them (./hook-commands.ts
// says which commands Claude Code runs by itself). Pure.
//
// A hook in `.claude/settings.json` may run a script kept anywhere
// (`sh "$CLAUDE_PROJECT_DIR/tools/pre-bash.sh"`, `cd tools && sh pre.sh`,
// `/usr/bin/env bash -c 'python3 -m tools.check'`, `bash -s < x`, `npm run
// lint`), and `.mcp.json` may start `node tools/server.mjs`: writing such a
// file changes what Claude Code runs, outside the gate and outside its
// sandbox, as writing a settings file would. So those files are guarded as
// Claude Code's configuration is (../hooks/protected.ts). The line is read as
// bash reads it (./shell-words.ts): programs by their base name, looked up in
// a PATH the line sets, reserved words and wrappers passed over, options that
// take a value skipped, `-c` strings and `eval` read in turn, a `cd` kept to
// its subshell, what a pipe or a `<` feeds a shell, what a command
// substitution reads. What cannot be known (a variable the plugin is not
// given) is not guessed.
import { guard, moveTo, newReading, operands, pathDirs, programName, type HookPlaces, type Reading } from "./command-reading.js";
import { guardEveryWord, runsHiddenCode } from "./command-net.js";
import { readProgram, type Feed } from "./program-files.js";
import { braced, isGlob, tokens } from "./shell-words.js";
import { ENV_VALUED, LOADS_FROM, PRINTERS, RESERVED, SCRIPT_EXT, TOOL_CONFIGS, WRAPPER_VALUED, WRAPPERS } from "./command-tables.js";

/** Commands read inside commands (`-c` strings, `eval`, a runner's command, `find -exec`), at most: deeper ones are not read. */
const MAX_NESTING = 16;

/** The files the commands run: absolute, and relative to the folder a hook starts in (Claude Code starts it where the session's shell is). */
export interface CommandFiles {
  files: string[];
  relative: string[];
}

/** What the commands run (relative words from the project folder, or where a `cd` went; and kept relative), with the net (./command-net.ts) under the reading. */
export function commandFiles(commands: readonly string[][], places: HookPlaces): CommandFiles {
  return readCommands(commands, places, true);
}

/** Absolute paths of the files the reading finds the commands run, without the net or conventions: what the reading's own tests check. */
export const hookFiles = (commands: readonly string[][], places: HookPlaces): string[] => readCommands(commands, places, false).files;

function readCommands(commands: readonly string[][], places: HookPlaces, net: boolean): CommandFiles {
  const files = new Set<string>();
  const relative = new Set<string>();
  for (const command of commands) {
    const line = command.join(" ");
    readLine(line, { ...newReading(places, files, relative), conventions: net }, 0);
    if (net && runsHiddenCode(line)) guardEveryWord(line, newReading(places, files, relative));
  }
  return { files: [...files], relative: [...relative] };
}

/** Reads a command line: each simple command, with what a pipe or a `<` feeds it; `( … )` and `$( … )` keep their `cd` to themselves. */
export function readLine(line: string, reading: Reading, depth: number): void {
  if (depth > MAX_NESTING) return;
  let words: string[] = [];
  let feed: Feed = { piped: [] };
  let redirect: { redirect: string; fd?: string } | undefined;
  for (const token of [...tokens(line.replace(/\\\n/g, "")), { op: ";" }]) {
    if ("redirect" in token) redirect = token;
    else if ("word" in token) {
      if (redirect === undefined) words.push(token.word);
      else feed = fed(feed, redirect, token.word, reading);
      redirect = undefined;
    } else {
      const opens = token.op === "(" && words.at(-1)?.endsWith("$") === true;
      if (opens) words[words.length - 1] = words.at(-1)!.slice(0, -1);
      words = words.filter((w) => w !== "");
      endCommand(words, reading, depth, feed);
      feed = { piped: token.op === "|" ? words : [] };
      words = [];
      redirect = undefined;
      nest(token.op, opens, reading);
    }
  }
}

/** A simple command read; one of redirections only is bash's `$(< file)` in a substitution: the file printed, which may be run. */
function endCommand(words: string[], reading: Reading, depth: number, feed: Feed): void {
  if (words.length > 0) readSimple(words, reading, depth, feed);
  else if (reading.substitution && feed.file !== undefined) guard(feed.file, reading);
}

/**
 * What a redirection feeds the command: `< file` its standard input, `<<< text` a line; `3< file` opens a
 * descriptor (`/dev/fd/3` names it); output and here-documents feed nothing.
 */
function fed(feed: Feed, { redirect, fd }: { redirect: string; fd?: string }, word: string, reading: Reading): Feed {
  if (fd !== undefined && fd !== "0" && redirect.startsWith("<")) reading.fds[fd] = word;
  else if (redirect === "<") return { ...feed, file: word };
  if (redirect === "<<<") return { ...feed, text: word };
  return feed;
}

/** `(` and a backquote open a subshell (a substitution after `$`, or a backquote); `)` and the closing backquote go back. */
function nest(op: string, substitution: boolean, reading: Reading): void {
  const closesQuote = op === "`" && reading.outer.at(-1)?.backquote === true;
  if (op === "(" || (op === "`" && !closesQuote)) {
    reading.outer.push({ dir: reading.dir, anchored: reading.anchored, substitution: reading.substitution, backquote: op === "`" });
    reading.substitution ||= substitution || op === "`";
  } else if (op === ")" || closesQuote) {
    const outer = reading.outer.pop();
    if (outer) ({ dir: reading.dir, anchored: reading.anchored, substitution: reading.substitution } = outer);
  }
}

function readSimple(all: readonly string[], reading: Reading, depth: number, feed: Feed): void {
  if (depth > MAX_NESTING) return;
  // What `env -C`, a PATH before the command or `ruby -C` change holds for this command only; a `cd` or an `export` holds on.
  const local = { ...reading };
  const words = unwrapped(all.flatMap(braced), local, depth);
  const [head, ...rest] = words;
  // Assignments alone (`HOME=tools; …`) hold for the rest of the line, as `export` does.
  if (head === undefined) return exported(all, reading);
  for (const word of words) substituted(word, local, depth);
  const name = programName(head);
  if (readWhole(name, rest, { reading, local, depth })) return;
  runsHead(head, local);
  if (local.conventions === true) loadsByConvention(name, head, local);
  readProgram(name, rest, { reading: local, depth, feed, readLine, readWords: (w, r) => readSimple(w, r, depth + 1, { piped: [] }) });
  // A file with a script's name on the line is run somewhere (`pytest tests/test_a.py`); not options, -c strings or globs (`prettier 'src/**/*.ts'`).
  for (const word of rest) if (SCRIPT_EXT.test(word) && !/^[-+]/.test(word) && !/\s/.test(word) && !isGlob(word)) guard(word, local);
}

/** Builtins and the programs that run a command line of their own: true when the command is read whole here. */
function readWhole(name: string, rest: readonly string[], at: { reading: Reading; local: Reading; depth: number }): boolean {
  const { reading, local, depth } = at;
  if (name === "cd" || name === "pushd")
    changeDir(
      rest.find((w) => w === "-" || !w.startsWith("-")),
      reading,
    );
  else if (name === "export") exported(rest, reading);
  else if (name === "eval") readLine(rest.join(" "), { ...local, outer: [] }, depth + 1);
  else if (name === "find") findExec(rest, local, depth);
  else {
    if (local.substitution && PRINTERS.has(name)) for (const word of operands(rest)) guard(word, local);
    if (name === "source" || name === ".") guard(operands(rest)[0], local);
    return false;
  }
  return true;
}

/** `cd DIR`; `cd` alone goes home, `cd -` back to the folder before. */
function changeDir(operand: string | undefined, reading: Reading): void {
  const before = reading.dir;
  if (operand === "-") reading.dir = reading.previous ?? reading.dir;
  else moveTo(operand ?? "~", reading);
  reading.previous = before;
}

/** What a program loads before it runs what it is told: a tool's config in its folder, Python's site folders (`.pth` files run). */
function loadsByConvention(name: string, head: string, reading: Reading): void {
  for (const file of Object.hasOwn(TOOL_CONFIGS, name) ? TOOL_CONFIGS[name]! : []) guard(file, reading, false);
  if (!/^(?:python|pypy)[\d.]*$/.test(name)) return;
  guard("~/.local/lib", reading, false);
  // A virtual environment's interpreter (`.venv/bin/python`) runs its site-packages' .pth files first.
  const venv = /^(.*)\/bin\/[^/]+$/.exec(head)?.[1];
  if (venv !== undefined) for (const part of ["lib", "lib64", "pyvenv.cfg"]) guard(`${venv}/${part}`, reading, false);
}

/** The command word: a path runs that file; a bare name is looked up in a PATH the line set first. */
function runsHead(head: string, reading: Reading): void {
  if (head.includes("/")) guard(head, reading);
  else for (const dir of reading.path) guard(`${dir}/${head}`, reading);
}

/** A command substitution inside a word (`"$(cat f)"`, a backquoted one): read as a line whose printers' files may be run. */
function substituted(word: string, reading: Reading, depth: number): void {
  for (const m of word.matchAll(/\$\(([^()]*)\)|`([^`]*)`/g))
    readLine(m[1] ?? m[2] ?? "", { ...reading, outer: [], substitution: true }, depth + 1);
}

/** `export NAME=…` holds for the rest of the line, as an assignment before a command does for it. */
function exported(words: readonly string[], reading: Reading): void {
  for (const word of words) {
    const assigned = /^(\w+)=(.*)$/s.exec(word);
    if (assigned) assign(assigned[1]!, assigned[2]!, reading);
  }
}

/** `find … -exec CMD … ;` (and -execdir, -ok, -okdir) runs CMD. */
function findExec(rest: readonly string[], reading: Reading, depth: number): void {
  const at = rest.findIndex((w) => ["-exec", "-execdir", "-ok", "-okdir"].includes(w));
  if (at < 0) return;
  const end = rest.findIndex((w, i) => i > at && (w === ";" || w === "+"));
  readSimple(rest.slice(at + 1, end < 0 ? undefined : end), reading, depth + 1, { piped: [] });
}

/** The words from the command on: reserved words, assignments (NODE_OPTIONS read, PATH kept), `env` and other wrappers taken off. */
function unwrapped(words: readonly string[], reading: Reading, depth: number): string[] {
  let i = 0;
  for (;;) {
    const word = words[i];
    if (word === undefined) return [];
    const assigned = /^(\w+)=(.*)$/s.exec(word);
    const name = programName(word);
    if (assigned) {
      assign(assigned[1]!, assigned[2]!, reading);
      i += 1;
    } else if (RESERVED.has(word)) i += 1;
    else if (name === "env") return afterEnv(words, i + 1, reading, depth);
    else if (WRAPPERS.has(name)) {
      const from = i + 1;
      i = afterOptions(words, from) + (name === "timeout" ? 1 : 0);
      laterCommands(words, { from, at: i }, reading, depth);
    } else return words.slice(i);
  }
}

/** An assignment before a command: NODE_OPTIONS makes Node load files; PATH is where the command is looked up. */
function assign(name: string, value: string, reading: Reading): void {
  if (name === "NODE_OPTIONS") readLine(`node ${value}`, { ...reading, outer: [] }, MAX_NESTING);
  else if (name === "PATH") reading.path = pathDirs(value, reading);
  else if (name === "HOME") reading.places = { ...reading.places, home: pathDirs(value, reading)[0] ?? reading.places.home };
  else if (LOADS_FROM.has(name)) for (const dir of pathDirs(value, reading)) guard(dir, reading);
}

/** Past `env`'s options: `-C DIR` / `--chdir=DIR` moves the command's folder, `-S STRING` (and its other spellings) is split into words. */
function afterEnv(words: readonly string[], from: number, reading: Reading, depth: number): string[] {
  let i = from;
  for (let word = words[i]; word !== undefined && word.startsWith("-"); word = words[i]) {
    const split = splitString(words, i);
    if (split) return unwrapped([...wordsOf(split.value), ...words.slice(split.next)], reading, depth);
    if (word === "-C" || word === "--chdir") moveTo(words[i + 1], reading);
    else if (word.startsWith("--chdir=")) moveTo(word.slice("--chdir=".length), reading);
    i += ENV_VALUED.has(word) ? 2 : 1;
  }
  return unwrapped(words.slice(i), reading, depth);
}

/** The words of `env -S`'s string: split as sh splits them, quotes taken off (`env -S 'sh "x"'`). */
const wordsOf = (value: string) => tokens(value).flatMap((t) => ("word" in t ? [t.word] : []));

/** `env`'s split string at `i`: `-S V`, `-SV`, `-vS V`, `--split-string V`, `--split-string=V`; the string and the word after it. */
function splitString(words: readonly string[], i: number): { value: string; next: number } | undefined {
  const word = words[i]!;
  if (word.startsWith("--split-string=")) return { value: word.slice("--split-string=".length), next: i + 1 };
  if (word === "--split-string") return { value: words[i + 1] ?? "", next: i + 2 };
  const short = /^-[a-zA-Z0-9]*S(.*)$/s.exec(word);
  if (!short || word.startsWith("--")) return undefined;
  return short[1] !== "" ? { value: short[1]!, next: i + 1 } : { value: words[i + 1] ?? "", next: i + 2 };
}

/** Words after a wrapper tried as its command, at most: an option the table does not know may take a value (`timeout --signal KILL 5 x`). */
const WRAPPER_TRIES = 8;

/** Each word after a wrapper's options that is no option, other than the one taken as its command, read as the command too. */
function laterCommands(words: readonly string[], { from, at }: { from: number; at: number }, reading: Reading, depth: number): void {
  let tries = 0;
  for (let j = from; j < words.length && tries < WRAPPER_TRIES; j += 1) {
    if (j === at || words[j]!.startsWith("-")) continue;
    tries += 1;
    readSimple(words.slice(j), { ...reading }, depth + 1, { piped: [] });
  }
}

function afterOptions(words: readonly string[], from: number): number {
  let i = from;
  for (let word = words[i]; word?.startsWith("-"); word = words[i]) i += WRAPPER_VALUED.has(word) ? 2 : 1;
  return i;
}
