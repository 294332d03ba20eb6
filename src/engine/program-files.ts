// What a program on a command line runs, by its name (./command-files.ts):
// a shell's script or `-c` string, an interpreter's script, module and
// loaded files, a runner's manifest, and what a pipe feeds one that reads its
// standard input. Pure.
import { guard, moveTo, operands, programName, type Reading } from "./command-reading.js";

/** A simple command being read: its folder, its `-c` depth, the words of the command piping into it, and how to read a line. */
export interface ProgramContext {
  reading: Reading;
  depth: number;
  piped: readonly string[];
  readLine: (line: string, reading: Reading, depth: number) => void;
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);

/** How an interpreter's options read: which name a file it loads, which take a value, after which the rest is code. */
interface Interpreter {
  loads?: readonly string[];
  valued?: readonly string[];
  inline?: readonly string[];
  /** Options whose value is a module (`python -m a.b` runs a/b.py or a/b/). */
  modules?: readonly string[];
  /** Options whose value is the script (`php -f x`). */
  script?: readonly string[];
  /** Options whose value is the folder it runs in (`ruby -C dir`). */
  chdir?: readonly string[];
  /** Words before the script that are the interpreter's own commands (`deno run`). */
  commands?: readonly string[];
}

const NODE: Interpreter = {
  loads: ["-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file"],
  valued: ["-C", "--conditions", "--input-type", "--title", "--stack-size"],
  inline: ["-e", "--eval", "-p", "--print"],
};
const PYTHON: Interpreter = { valued: ["-X", "-W", "-Q"], inline: ["-c"], modules: ["-m"] };
const INTERPRETERS: Record<string, Interpreter> = {
  node: NODE,
  tsx: NODE,
  "ts-node": { ...NODE, loads: [...NODE.loads!, "-P", "--project"] },
  bun: { loads: ["-r", "--preload", "--config", "--env-file"], inline: NODE.inline, commands: ["run", "x", "test"] },
  deno: { loads: ["-c", "--config", "--import-map", "--env-file"], inline: ["eval"], commands: ["run", "x", "test", "serve", "task"] },
  python: PYTHON,
  pypy: PYTHON,
  ruby: { loads: ["-r"], valued: ["-I", "-E"], inline: ["-e"], chdir: ["-C"] },
  perl: { valued: ["-I"], inline: ["-e", "-E"] },
  php: { loads: ["-c"], valued: ["-d"], inline: ["-r"], script: ["-f"] },
  lua: { loads: ["-l"], inline: ["-e"] },
  Rscript: { inline: ["-e"] },
};

/** A manifest that says what a runner runs, in the folder it runs in. */
const MANIFESTS: Record<string, readonly string[]> = {
  npm: ["package.json"],
  pnpm: ["package.json"],
  yarn: ["package.json"],
  bun: ["package.json"],
  make: ["Makefile", "makefile", "GNUmakefile"],
  just: ["justfile", "Justfile", ".justfile"],
  poetry: ["pyproject.toml"],
  uv: ["pyproject.toml"],
  hatch: ["pyproject.toml"],
  pdm: ["pyproject.toml"],
  cargo: ["Cargo.toml"],
  deno: ["deno.json", "deno.jsonc", "package.json"],
  rake: ["Rakefile"],
  task: ["Taskfile.yml", "Taskfile.yaml"],
};

/** A program's name without a version (`python3.12`, `node22`, `lua5.4`). */
const unversioned = (name: string) => name.replace(/[\d.]+$/, "");

/** Guards what the program `name` runs, given the words after it. */
export function readProgram(name: string, rest: readonly string[], context: ProgramContext): void {
  if (SHELLS.has(name) || SHELLS.has(unversioned(name))) return readShell(rest, context);
  if (name === "uv") uvDirectory(rest, context.reading);
  for (const manifest of MANIFESTS[name] ?? []) guard(manifest, context.reading);
  const interpreter = INTERPRETERS[name] ?? INTERPRETERS[unversioned(name)];
  if (interpreter) readInterpreter(interpreter, rest, context);
}

/** `sh -c STRING` reads the string as a command line; `sh FILE` runs the file; `sh`, `sh -s` and `sh -` read what is piped in. */
function readShell(rest: readonly string[], context: ProgramContext): void {
  const { at, command, stdin } = shellOptions(rest, context.reading);
  const operand = rest[at];
  if (command) {
    if (operand !== undefined) context.readLine(operand, { ...context.reading, outer: [] }, context.depth + 1);
  } else if (stdin || operand === undefined || operand === "-") readPiped(context);
  else guard(operand, context.reading);
}

/** A shell's options: where its operands start, whether it runs a -c string or reads its standard input (-s); --rcfile's file guarded. */
function shellOptions(rest: readonly string[], reading: Reading): { at: number; command: boolean; stdin: boolean } {
  let at = 0;
  let command = false;
  let stdin = false;
  for (let word = rest[0]; word !== undefined && /^[-+]./.test(word) && word !== "--"; word = rest[(at += 1)]) {
    if (word === "--rcfile" || word === "--init-file") guard(rest[(at += 1)], reading);
    else if (/^[-+][a-zA-Z]*[oO]$/.test(word))
      at += 1; // -o pipefail, +O extglob: the option's value
    else command ||= /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word);
    stdin ||= /^-[a-zA-Z]*s[a-zA-Z]*$/.test(word);
  }
  return { at: rest[at] === "--" ? at + 1 : at, command, stdin };
}

/** What a pipe feeds a program that reads its script from standard input: `echo '…'`'s text as a line, else the files the feeder reads. */
function readPiped({ piped, reading, depth, readLine }: ProgramContext): void {
  const [head, ...args] = piped;
  if (head === undefined) return;
  if (["echo", "printf"].includes(programName(head))) return readLine(operands(args).join(" "), { ...reading, outer: [] }, depth + 1);
  for (const word of operands(args)) guard(word, reading);
}

/** `uv run --directory DIR …` runs in DIR. */
function uvDirectory(rest: readonly string[], reading: Reading): void {
  const at = rest.findIndex((w) => w === "--directory" || w === "--project");
  if (at >= 0) moveTo(rest[at + 1], reading);
}

const has = (list: readonly string[] | undefined, word: string) => list?.includes(word) ?? false;

type OptionKind = "loads" | "valued" | "chdir" | "modules" | "script" | "inline";
const KINDS: readonly OptionKind[] = ["loads", "valued", "chdir", "modules", "script", "inline"];

/** An interpreter's loaded files, its module, `node --run`'s manifest, and its script (or what is piped in when it names none). */
function readInterpreter(spec: Interpreter, rest: readonly string[], context: ProgramContext): void {
  for (let i = 0; i < rest.length; i += 1) {
    const last = interpreterWord(spec, rest, i, context);
    if (last === "done") return;
    i = last;
  }
  readPiped(context);
}

/** Reads the word at `i` (and an option's value): the index of the last word taken, or "done" when the rest is not the interpreter's. */
function interpreterWord(spec: Interpreter, rest: readonly string[], i: number, context: ProgramContext): number | "done" {
  const word = rest[i]!;
  const eq = word.startsWith("--") ? word.indexOf("=") : -1;
  const flag = eq > 0 ? word.slice(0, eq) : word;
  const kind = flag === "--run" ? "run" : KINDS.find((k) => has(spec[k], flag));
  if (kind === undefined) return interpreterOperand(spec, rest, i, context);
  if (kind === "run") guard("package.json", context.reading);
  if (kind === "run" || kind === "inline") return "done";
  if (eq > 0) return onOption(kind, word.slice(eq + 1), context.reading) ? "done" : i;
  return onOption(kind, rest[i + 1], context.reading) ? "done" : i + 1;
}

/** A word that is no known option: another option, the interpreter's own command, `-` or `--`, or its script. */
function interpreterOperand(spec: Interpreter, rest: readonly string[], i: number, context: ProgramContext): number | "done" {
  const word = rest[i]!;
  if (word === "-" || (word === "--" && rest[i + 1] === undefined)) readPiped(context);
  else if (word === "--") guard(rest[i + 1], context.reading);
  else if (word.startsWith("-") || has(spec.commands, word)) return i;
  else guard(word, context.reading);
  return "done";
}

/** What an option does with its value; true when the words after it are not the interpreter's to read (a module, the script). */
function onOption(kind: Exclude<OptionKind, "inline">, value: string | undefined, reading: Reading): boolean {
  if (kind === "loads" || kind === "script") guard(value, reading);
  else if (kind === "chdir") moveTo(value, reading);
  else if (kind === "modules") guardModule(value, reading);
  return kind === "modules" || kind === "script";
}

function guardModule(name: string | undefined, reading: Reading): void {
  if (name === undefined) return;
  const path = name.replaceAll(".", "/");
  guard(`${path}.py`, reading);
  guard(path, reading);
}
