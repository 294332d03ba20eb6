// What a program on a command line runs, by its name (./command-files.ts):
// a shell's script or `-c` string, an interpreter's script, module and
// loaded files, a runner's manifest (in the folder or file its options
// name) and the command its `run` runs, and what a pipe or a `<` feeds one
// that reads its standard input. Pure.
import { guard, moveTo, operands, programName, type Reading } from "./command-reading.js";

/** What feeds a command's standard input: the words of the command piping into it, a file (`<`), a line (`<<<`). */
export interface Feed {
  piped: readonly string[];
  file?: string;
  text?: string;
}

/** A simple command being read: its folder, its `-c` depth, its standard input, and how to read a line or a command's words. */
export interface ProgramContext {
  reading: Reading;
  depth: number;
  feed: Feed;
  readLine: (line: string, reading: Reading, depth: number) => void;
  readWords: (words: readonly string[], reading: Reading) => void;
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
  nodejs: NODE,
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
  cargo: ["Cargo.toml", "build.rs"],
  deno: ["deno.json", "deno.jsonc", "package.json"],
  rake: ["Rakefile"],
  task: ["Taskfile.yml", "Taskfile.yaml"],
};

/** A program's name without a version (`python3.12`, `node22`, `lua5.4`). */
const unversioned = (name: string) => name.replace(/[\d.]+$/, "");

/**
 * Programs that run code they are given besides the shells and interpreters read above: languages, and tools
 * whose input or options hold commands (awk's `system`, GNU sed's `e`, make's recipes, a debugger's scripts).
 */
const OTHER_CODE = new Set(
  "awk gawk mawk nawk sed tclsh wish expect pwsh powershell osascript java jshell groovy kotlin scala dotnet go swift julia R elixir erl escript guile racket sbcl ocaml runghc make gmake cmake gdb lldb vim nvim emacs ex".split(
    " ",
  ),
);

/**
 * Whether a program runs code it is given (a script, a string, its input), and whether this reading follows
 * it ("read": the shells and interpreters above) or not ("unread"): what makes the net read a line whole (./command-net.ts).
 */
export function runsCode(name: string): "read" | "unread" | undefined {
  const names = [name, unversioned(name)];
  if (names.some((n) => SHELLS.has(n) || Object.hasOwn(INTERPRETERS, n))) return "read";
  return names.some((n) => OTHER_CODE.has(n)) ? "unread" : undefined;
}

/** Guards what the program `name` runs, given the words after it. */
export function readProgram(name: string, rest: readonly string[], context: ProgramContext): void {
  if (SHELLS.has(name) || SHELLS.has(unversioned(name))) return readShell(rest, context);
  if (Object.hasOwn(MANIFESTS, name) || Object.hasOwn(RUNS_COMMAND, name)) readRunner(name, rest, context);
  const interpreter = INTERPRETERS[name] ?? INTERPRETERS[unversioned(name)];
  if (interpreter) readInterpreter(interpreter, rest, context);
}

/** Options of a runner that name the folder it runs in, or its manifest (`make -C dir -f file`, `npm --prefix dir`, `uv --directory dir`). */
const RUNNER_DIR = new Set(["-C", "--directory", "--dir", "--prefix", "--cwd", "--project", "--working-directory"]);
/** Options of a runner that runs a command whose value is that command line (`npx -c 'sh x'`, `npm exec --call=…`). */
const RUNNER_CALL = new Set(["-c", "--call"]);
const RUNNER_FILE = new Set(["--file", "--makefile", "--justfile", "--manifest-path", "--config", "--taskfile"]);
/** `-f FILE` names the manifest only for these (npm's `-f` is --force). */
const FILE_SHORT = new Set(["make", "just"]);
/** Runners whose subcommand runs the command after it (`uv run python x`, `npx tsx x`, `pnpm exec x`). */
const RUNS_COMMAND: Record<string, readonly string[]> = {
  uv: ["run"],
  poetry: ["run"],
  pdm: ["run"],
  hatch: ["run"],
  pipenv: ["run"],
  npx: [""],
  bunx: [""],
  npm: ["exec", "x"],
  pnpm: ["exec", "dlx"],
  yarn: ["exec", "dlx"],
  bun: ["x"],
};

/** A runner: its manifest where its options say (before or after its subcommand), then the command its `run` runs, if any. */
function readRunner(name: string, rest: readonly string[], context: ProgramContext): void {
  const local = { ...context.reading };
  const files: string[] = [];
  const run = (line: string) => context.readLine(line, { ...local, outer: [] }, context.depth + 1);
  const sub = RUNS_COMMAND[name];
  let ready = sub?.includes("") ?? false;
  for (let i = 0; i < rest.length; i += 1) {
    const word = rest[i]!;
    if (word.startsWith("-")) i = runnerOption(name, rest, i, { local, files, run });
    else if (ready) {
      // `uv run server.py`, `bun x.ts`: a command named as a file is one in the runner's folder.
      if (/\/|\.\w+$/.test(word)) guard(word, local);
      context.readWords(rest.slice(i), local);
      break;
    } else ready = sub?.includes(word) ?? false;
  }
  guardManifests(name, files, local);
}

/** The manifests its options named (kept where named), else the runner's own in its folder. */
function guardManifests(name: string, named: readonly string[], local: Reading): void {
  const given = named.length > 0;
  for (const manifest of given ? named : (MANIFESTS[name] ?? [])) guard(manifest, local, given);
}

/** What a runner's option gives: a command line it runs, the folder it runs in, or its manifest. */
function runnerOptionKind(name: string, flag: string): "call" | "dir" | "file" | undefined {
  if (RUNNER_CALL.has(flag) && Object.hasOwn(RUNS_COMMAND, name)) return "call";
  if (RUNNER_DIR.has(flag)) return "dir";
  return RUNNER_FILE.has(flag) || (flag === "-f" && FILE_SHORT.has(name)) ? "file" : undefined;
}

/** One option of a runner at `i`: a command it runs, a folder it runs in, or its manifest; the index of the last word it took. */
function runnerOption(
  name: string,
  rest: readonly string[],
  i: number,
  into: { local: Reading; files: string[]; run: (line: string) => void },
): number {
  const word = rest[i]!;
  const eq = word.indexOf("=");
  const kind = runnerOptionKind(name, eq > 0 ? word.slice(0, eq) : word);
  if (kind === undefined) return i;
  const value = eq > 0 ? word.slice(eq + 1) : rest[i + 1];
  if (kind === "call") into.run(value ?? "");
  else if (kind === "dir") moveTo(value, into.local);
  else into.files.push(value ?? "");
  return eq > 0 ? i : i + 1;
}

/** `sh -c STRING` reads the string as a command line; `sh FILE` runs the file; `sh`, `sh -s` and `sh -` read what is piped in. */
function readShell(rest: readonly string[], context: ProgramContext): void {
  const { at, command, stdin } = shellOptions(rest, context.reading);
  const operand = rest[at];
  if (command) {
    if (operand !== undefined) context.readLine(operand, { ...context.reading, outer: [] }, context.depth + 1);
  } else if (stdin || operand === undefined || operand === "-") readPiped(context);
  else runScript(operand, context);
}

/** A script a shell or an interpreter runs: a file, or its standard input or a descriptor (`/dev/stdin`, `/dev/fd/3`): what feeds it. */
function runScript(word: string, context: ProgramContext): void {
  const fd = /^\/(?:dev\/stdin|dev\/fd\/(\d+)|proc\/self\/fd\/(\d+))$/.exec(word);
  if (!fd) return guard(word, context.reading);
  const n = fd[1] ?? fd[2] ?? "0";
  if (n === "0") return readPiped(context);
  guard(context.reading.fds[n], context.reading);
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

/** What feeds a program that reads its script from standard input: a `<` file, a `<<<` line, `echo '…'`'s text as a line, else the files the feeder reads. */
function readPiped({ feed, reading, depth, readLine }: ProgramContext): void {
  if (feed.file !== undefined) return guard(feed.file, reading);
  if (feed.text !== undefined) return readLine(feed.text, { ...reading, outer: [] }, depth + 1);
  const [head, ...args] = feed.piped;
  if (head === undefined) return;
  if (["echo", "printf"].includes(programName(head))) return readLine(operands(args).join(" "), { ...reading, outer: [] }, depth + 1);
  for (const word of operands(args)) guard(word, reading);
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
  const { flag, joined } = optionOf(spec, rest[i]!);
  const kind = flag === "--run" ? "run" : KINDS.find((k) => has(spec[k], flag));
  if (kind === undefined) return interpreterOperand(spec, rest, i, context);
  if (kind === "run") guard("package.json", context.reading);
  if (kind === "run" || kind === "inline") return "done";
  if (joined !== undefined) return onOption(kind, joined, context.reading) ? "done" : i;
  return onOption(kind, rest[i + 1], context.reading) ? "done" : i + 1;
}

/** An option and the value it holds: `--flag=value`, or a short option with its value joined (`-mtools.hook`, `-rtools/x`, `-Ilib`). */
function optionOf(spec: Interpreter, word: string): { flag: string; joined?: string } {
  if (word.startsWith("--") && word.includes("="))
    return { flag: word.slice(0, word.indexOf("=")), joined: word.slice(word.indexOf("=") + 1) };
  const known = (flag: string) => KINDS.some((k) => has(spec[k], flag));
  if (/^-[a-zA-Z]./.test(word) && !known(word) && known(word.slice(0, 2))) return { flag: word.slice(0, 2), joined: word.slice(2) };
  return { flag: word };
}

/** A word that is no known option: another option, the interpreter's own command, `-` or `--`, or its script. */
function interpreterOperand(spec: Interpreter, rest: readonly string[], i: number, context: ProgramContext): number | "done" {
  const word = rest[i]!;
  if (word === "-" || (word === "--" && rest[i + 1] === undefined)) readPiped(context);
  else if (word === "--") runScript(rest[i + 1]!, context);
  else if (word.startsWith("-") || has(spec.commands, word)) return i;
  else runScript(word, context);
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
