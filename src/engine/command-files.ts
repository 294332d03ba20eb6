// The files a command line names in a way that runs them (./hook-commands.ts
// says which commands Claude Code runs by itself). Pure.
//
// A hook in `.claude/settings.json` may run a script kept anywhere
// (`sh "$CLAUDE_PROJECT_DIR/tools/pre-bash.sh"`, `cd tools && sh pre.sh`,
// `/usr/bin/env bash -c 'python3 -m tools.check'`, `cat x | sh`, `npm run
// lint`), and `.mcp.json` may start `node tools/server.mjs`: writing such a
// file changes what Claude Code runs, outside the gate and outside its
// sandbox, as writing a settings file would. So those files are guarded as
// Claude Code's configuration is (../hooks/protected.ts). The line is read as
// sh reads it (./shell-words.ts): programs by their base name, reserved words
// and wrappers passed over, options that take a value skipped, `-c` strings
// read in turn, a `cd` kept to its subshell, what a pipe feeds a shell. What
// cannot be known (a variable the plugin is not given) is not guessed.
import { guard, moveTo, operands, programName, type HookPlaces, type Reading } from "./command-reading.js";
import { readProgram } from "./program-files.js";
import { isGlob, tokens } from "./shell-words.js";

/** `-c` strings read inside `-c` strings, at most. */
const MAX_NESTING = 4;

/** Absolute paths of the files the commands name (relative ones from the project folder, or where a `cd` went). */
export function hookFiles(commands: readonly string[][], places: HookPlaces): string[] {
  const files = new Set<string>();
  for (const command of commands) readLine(command.join(" "), { places, dir: places.projectDir, outer: [], files }, 0);
  return [...files];
}

/** Reads a command line: each simple command, with what a pipe feeds it; `( … )` and `$( … )` keep their `cd` to themselves. */
export function readLine(line: string, reading: Reading, depth: number): void {
  if (depth > MAX_NESTING) return;
  let words: string[] = [];
  let piped: readonly string[] = [];
  for (const token of [...tokens(line.replace(/\\\n/g, "")), { op: ";" }]) {
    if ("word" in token) {
      words.push(token.word);
      continue;
    }
    if (words.length > 0) readSimple(words, reading, depth, piped);
    piped = token.op === "|" ? words : [];
    words = [];
    if (token.op === "(") reading.outer.push(reading.dir);
    else if (token.op === ")") reading.dir = reading.outer.pop() ?? reading.dir;
  }
}

/** Words that open or close a compound command, or negate one: the command follows them. */
const RESERVED = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "[[", "]]", "function"]);
/** Commands that run the command after them (their own options first). */
const WRAPPERS = new Set(["exec", "command", "nohup", "time", "nice", "sudo", "xargs", "builtin", "stdbuf", "timeout", "busybox"]);
/** Options of a wrapper that take the next word as their value (`nice -n 5`, `sudo -u bob`, `timeout -s KILL`). */
const WRAPPER_VALUED = new Set(["-n", "-u", "-g", "-s", "-k", "-I", "-L", "-P", "-d"]);
const SCRIPT_EXT = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|php|ps1|lua|tcl)$/i;

function readSimple(all: readonly string[], reading: Reading, depth: number, piped: readonly string[]): void {
  // What `env -C`, `ruby -C` or `uv --directory` move holds for this command only; a `cd` moves the rest of the line.
  const local = { ...reading };
  const words = unwrapped(all, local, depth);
  const [head, ...rest] = words;
  if (head === undefined) return;
  const name = programName(head);
  if (name === "cd" || name === "pushd") return moveTo(operands(rest)[0], reading);
  if (head.includes("/")) guard(head, local);
  if (name === "source" || name === ".") guard(operands(rest)[0], local);
  readProgram(name, rest, { reading: local, depth, piped, readLine });
  // A file with a script's name on the line is run somewhere (`pytest tests/test_a.py`); not options, -c strings or globs (`prettier 'src/**/*.ts'`).
  for (const word of rest) if (SCRIPT_EXT.test(word) && !/^[-+]/.test(word) && !/\s/.test(word) && !isGlob(word)) guard(word, local);
}

/** The words from the command on: reserved words, assignments (NODE_OPTIONS read), `env` and other wrappers taken off. */
function unwrapped(words: readonly string[], reading: Reading, depth: number): string[] {
  let i = 0;
  for (;;) {
    const word = words[i];
    if (word === undefined) return [];
    const assigned = /^(\w+)=(.*)$/s.exec(word);
    const name = programName(word);
    if (assigned) {
      if (assigned[1] === "NODE_OPTIONS") readLine(`node ${assigned[2]}`, { ...reading, outer: [] }, MAX_NESTING);
      i += 1;
    } else if (RESERVED.has(word)) i += 1;
    else if (name === "env") return afterEnv(words, i + 1, reading, depth);
    else if (WRAPPERS.has(name)) i = afterOptions(words, i + 1) + (name === "timeout" ? 1 : 0);
    else return words.slice(i);
  }
}

/** Options of `env` that take the next word as their value. */
const ENV_VALUED = new Set(["-C", "--chdir", "-u", "--unset"]);

/** Past `env`'s options: `-C DIR` / `--chdir=DIR` moves the command's folder, `-S STRING` is split into words. */
function afterEnv(words: readonly string[], from: number, reading: Reading, depth: number): string[] {
  let i = from;
  for (let word = words[i]; word !== undefined && word.startsWith("-"); word = words[i]) {
    if (word === "-S" || word === "--split-string") {
      const split = (words[i + 1] ?? "").split(/\s+/).filter((w) => w !== "");
      return unwrapped([...split, ...words.slice(i + 2)], reading, depth);
    }
    if (word === "-C" || word === "--chdir") moveTo(words[i + 1], reading);
    else if (word.startsWith("--chdir=")) moveTo(word.slice("--chdir=".length), reading);
    i += ENV_VALUED.has(word) ? 2 : 1;
  }
  return unwrapped(words.slice(i), reading, depth);
}

function afterOptions(words: readonly string[], from: number): number {
  let i = from;
  for (let word = words[i]; word?.startsWith("-"); word = words[i]) i += WRAPPER_VALUED.has(word) ? 2 : 1;
  return i;
}
