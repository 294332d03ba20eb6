// The files the commands Claude Code runs by itself name: its command hooks,
// its status line and credential helpers, and the MCP servers it starts
// (issue 31's red-team passes). Pure.
//
// A hook in `.claude/settings.json` may run a script kept anywhere
// (`sh "$CLAUDE_PROJECT_DIR/tools/pre-bash.sh"`, `cd tools && sh pre.sh`,
// `bash -c 'python3 -m tools.check'`, `npm run lint`), and `.mcp.json` may
// start `node tools/server.mjs`: writing such a file changes what Claude Code
// runs, outside the gate and outside its sandbox, as writing a settings file
// would. So the files a command names are guarded as Claude Code's
// configuration is (./protected.ts). The commands are read as sh reads them
// (./shell-words.ts) for the forms a command names a file in: the command
// itself, a shell's or an interpreter's script, `-c` strings, `source`, a
// runner's manifest, Node's `--require`; what cannot be known (a variable the
// plugin is not given) is not guessed.
import { normalizePath } from "./redundancy.js";
import { expanded, isGlob, simpleCommands } from "./shell-words.js";

/** Commands read from one settings object, at most: a larger `hooks` block is read this far. */
export const MAX_HOOK_COMMANDS = 256;
/** `-c` strings read inside `-c` strings, at most. */
const MAX_NESTING = 4;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Settings whose value is a command Claude Code runs (credentials and telemetry helpers). */
const HELPER_SETTINGS = ["apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "otelHeadersHelper"];

/** The commands of a settings object: every `type: command` hook, the status line, the helpers, and what NODE_OPTIONS loads. */
export function hookCommands(settings: unknown): string[][] {
  if (!isRecord(settings)) return [];
  const groups = isRecord(settings.hooks) ? Object.values(settings.hooks).flatMap((g) => (Array.isArray(g) ? g : [])) : [];
  const hooks = groups.flatMap((group) => (isRecord(group) && Array.isArray(group.hooks) ? (group.hooks as unknown[]) : []));
  const helpers = HELPER_SETTINGS.flatMap((key) => (typeof settings[key] === "string" ? [[settings[key]]] : []));
  return [
    ...hooks.slice(0, MAX_HOOK_COMMANDS).flatMap(commandOf),
    ...commandOf(settings.statusLine),
    ...helpers,
    ...nodeOptions(settings.env),
  ];
}

/**
 * The command (and `args`, and what their `env` makes Node load) of every
 * server Claude Code starts from an `mcpServers` object: at the top of
 * `.mcp.json` or `~/.claude.json`, and, in `~/.claude.json`, under the
 * project's own entry (`projects[<folder>].mcpServers`, what `claude mcp add`
 * writes by default).
 */
export function mcpServerCommands(config: unknown, projectDir?: string): string[][] {
  if (!isRecord(config)) return [];
  const project = projectDir !== undefined && isRecord(config.projects) ? config.projects[projectDir] : undefined;
  const servers = [config.mcpServers, isRecord(project) ? project.mcpServers : undefined].flatMap((s) =>
    isRecord(s) ? Object.values(s) : [],
  );
  return servers
    .slice(0, MAX_HOOK_COMMANDS)
    .flatMap((server) => [...commandOf(server), ...(isRecord(server) ? nodeOptions(server.env) : [])]);
}

/** One hook's or server's command and its `args`, when it runs one; the args quoted, since they reach no shell. */
function commandOf(hook: unknown): string[][] {
  if (!isRecord(hook) || typeof hook.command !== "string") return [];
  const args = Array.isArray(hook.args) ? hook.args.filter((a): a is string => typeof a === "string") : [];
  return [[[hook.command, ...args.map(quoted)].join(" ")]];
}

const quoted = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** NODE_OPTIONS in an `env` object, as the options of a `node` command (its `--require` loads a file into every Node process). */
function nodeOptions(env: unknown): string[][] {
  return isRecord(env) && typeof env.NODE_OPTIONS === "string" ? [[`node ${env.NODE_OPTIONS}`]] : [];
}

/** Where a command's words are read from: the project (its working folder), and the values Claude Code sets for it. */
export interface HookPlaces {
  projectDir: string;
  home: string;
  pluginRoot?: string;
}

/** A command line being read: its places, the folder it is in now, and the files found. */
interface Reading {
  places: HookPlaces;
  dir: string;
  files: Set<string>;
}

/** Absolute paths of the files the commands name (relative ones from the project folder, or where a `cd` went). */
export function hookFiles(commands: readonly string[][], places: HookPlaces): string[] {
  const files = new Set<string>();
  for (const command of commands) readLine(command.join(" "), { places, dir: places.projectDir, files }, 0);
  return [...files];
}

function readLine(line: string, reading: Reading, depth: number): void {
  if (depth > MAX_NESTING) return;
  for (const words of simpleCommands(line)) readSimple(words, reading, depth);
}

/** Commands that run the command after them (their own options first). */
const WRAPPERS = new Set(["exec", "command", "nohup", "time", "nice", "sudo", "xargs", "builtin", "stdbuf", "timeout"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish"]);
const SCRIPT_EXT = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|php|ps1|lua|tcl)$/i;

function readSimple(all: readonly string[], reading: Reading, depth: number): void {
  const words = unwrapped(all, reading);
  const [head, ...rest] = words;
  if (head === undefined) return;
  if (head === "cd" || head === "pushd") return moveTo(operands(rest)[0], reading);
  if (head.includes("/")) guard(head, reading);
  if (head === "source" || head === ".") guard(operands(rest)[0], reading);
  if (SHELLS.has(head)) readShell(rest, reading, depth);
  else readProgram(head, rest, reading);
  // A script named anywhere on the line (`tee log.sh` aside, a file with a script's name is run somewhere); not options, not -c strings.
  for (const word of rest) if (SCRIPT_EXT.test(word) && !word.startsWith("-") && !/\s/.test(word)) guard(word, reading);
}

/** The words from the command on: assignments before it (NODE_OPTIONS read), `env` and other wrappers taken off. */
function unwrapped(words: readonly string[], reading: Reading): string[] {
  let i = 0;
  for (;;) {
    const word = words[i];
    if (word === undefined) return [];
    const assigned = /^(\w+)=(.*)$/s.exec(word);
    if (assigned) {
      if (assigned[1] === "NODE_OPTIONS") readLine(`node ${assigned[2]}`, reading, MAX_NESTING);
      i += 1;
    } else if (word === "env") i = afterEnv(words, i + 1, reading);
    else if (WRAPPERS.has(word)) i = afterOptions(words, i + 1) + (word === "timeout" ? 1 : 0);
    else return words.slice(i);
  }
}

/** Past `env`'s options; `-C DIR` / `--chdir=DIR` moves the command's folder. */
function afterEnv(words: readonly string[], from: number, reading: Reading): number {
  let i = from;
  for (let word = words[i]; word !== undefined && word.startsWith("-"); word = words[i]) {
    if (word === "-C" || word === "--chdir") moveTo(words[i + 1], reading);
    else if (word.startsWith("--chdir=")) moveTo(word.slice("--chdir=".length), reading);
    i += word === "-C" || word === "--chdir" || word === "-u" || word === "-S" ? 2 : 1;
  }
  return i;
}

/** Options that take the next word as their value (`nice -n 5`, `sudo -u bob`, `timeout -s KILL`). */
const VALUED = new Set(["-n", "-u", "-g", "-s", "-k", "-I", "-L", "-P", "-d"]);

function afterOptions(words: readonly string[], from: number): number {
  let i = from;
  for (let word = words[i]; word?.startsWith("-"); word = words[i]) i += VALUED.has(word) ? 2 : 1;
  return i;
}

/** The words that are not options. */
const operands = (words: readonly string[]) => words.filter((w) => !w.startsWith("-"));

/** `sh -c STRING` reads the string as a command line; `sh FILE` runs the file. */
function readShell(rest: readonly string[], reading: Reading, depth: number): void {
  const c = rest.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w));
  if (c >= 0 && rest[c + 1] !== undefined) readLine(rest[c + 1]!, { ...reading }, depth + 1);
  else guard(operands(rest)[0], reading);
}

/** Options of an interpreter that name a file it loads. */
const LOADS = new Set(["-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file"]);
/** Options after which the rest is code or a module, not a file. */
const INLINE = new Set(["-e", "--eval", "-p", "--print", "-c", "-m"]);
const INTERPRETERS = new Set(["node", "python", "python3", "ruby", "perl", "php", "deno", "bun", "tsx", "ts-node", "lua", "Rscript"]);

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

function readProgram(head: string, rest: readonly string[], reading: Reading): void {
  if (head === "uv") uvDirectory(rest, reading);
  for (const manifest of MANIFESTS[head] ?? []) guard(manifest, reading);
  if (INTERPRETERS.has(head)) readInterpreter(head, rest, reading);
}

/** `uv run --directory DIR …` runs in DIR. */
function uvDirectory(rest: readonly string[], reading: Reading): void {
  const at = rest.findIndex((w) => w === "--directory" || w === "--project");
  if (at >= 0) moveTo(rest[at + 1], reading);
}

/** An interpreter's loaded files, its module (`-m a.b` is a/b.py or a/b/), `node --run`'s manifest, and its script. */
function readInterpreter(head: string, rest: readonly string[], reading: Reading): void {
  for (let i = 0; i < rest.length; i += 1) {
    const word = rest[i]!;
    const [flag, joined] =
      word.startsWith("--") && word.includes("=")
        ? [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]
        : [word, undefined];
    if (LOADS.has(flag)) guard(joined ?? rest[(i += 1)], reading);
    else if (flag === "-m") return guardModule(rest[i + 1], reading);
    else if (flag === "--run") return guard("package.json", reading);
    else if (INLINE.has(flag)) return;
    else if (!word.startsWith("-") && !(head === "deno" && ["run", "task", "x"].includes(word))) return guard(word, reading);
  }
}

function guardModule(name: string | undefined, reading: Reading): void {
  if (name === undefined) return;
  const path = name.replaceAll(".", "/");
  guard(`${path}.py`, reading);
  guard(path, reading);
}

const trimmed = (dir: string) => dir.replace(/\/+$/, "") || "/";
const joinedPath = (dir: string, path: string) => (path.startsWith("/") ? path : `${trimmed(dir)}/${path.replace(/^\.\//, "")}`);

/** A folder that holds the project or the home (or is it): guarding it would guard every file the gate lets the model write. */
function holdsPlace(path: string, places: HookPlaces): boolean {
  const p = trimmed(path);
  return [places.projectDir, places.home].some((place) => trimmed(place) === p || trimmed(place).startsWith(p === "/" ? "/" : `${p}/`));
}

const knownOf = (reading: Reading) => ({
  CLAUDE_PROJECT_DIR: reading.places.projectDir,
  CLAUDE_PLUGIN_ROOT: reading.places.pluginRoot,
  HOME: reading.places.home,
  PWD: reading.dir,
});

function moveTo(word: string | undefined, reading: Reading): void {
  const to = word === undefined ? undefined : expanded(word, knownOf(reading), reading.places.home);
  if (to !== undefined) reading.dir = normalizePath(joinedPath(reading.dir, to)) ?? reading.dir;
}

/** Guards the file a word names: for a glob, the folder it lists (sh expands it there); never a folder that holds the project. */
function guard(word: string | undefined, reading: Reading): void {
  const path = word === undefined || /^[a-z]+:\/\//i.test(word) ? undefined : expanded(word, knownOf(reading), reading.places.home);
  if (path === undefined || path === "") return;
  const target = isGlob(path) ? path.slice(0, path.search(/[*?[]/)).replace(/[^/]*$/, "") || "." : path;
  const absolute = normalizePath(joinedPath(reading.dir, target));
  if (absolute !== null && !holdsPlace(absolute, reading.places)) reading.files.add(absolute);
}
