// What reading a command line keeps (./command-files.ts, ./program-files.ts):
// the folder it is in, the PATH it looks programs up in, and the files it
// names, as absolute paths and, when named relative to the folder a hook
// starts in, as relative ones too. Pure.
import { normalizePath } from "./redundancy.js";
import { expanded, isGlob } from "./shell-words.js";

/** Where a command's words are read from: the project (its working folder), and the values Claude Code sets for it. */
export interface HookPlaces {
  projectDir: string;
  home: string;
  pluginRoot?: string;
}

/** A folder `(` or `$(` left, to go back to at its `)`. */
interface Outer {
  dir: string;
  anchored: boolean;
  substitution: boolean;
  backquote: boolean;
}

/** A command line being read. */
export interface Reading {
  places: HookPlaces;
  /** The folder the command is in now. */
  dir: string;
  /** Whether what programs load by convention (a tool's config, Python's site folders) is guarded too (./command-files.ts). */
  conventions?: boolean;
  /** The folder it was in before its last `cd` (`cd -` goes back there). */
  previous?: string;
  /** Whether `dir` was named absolutely (a `cd /x`): then no word is relative to the folder the hook starts in. */
  anchored: boolean;
  /** Inside a command substitution (`$( … )`, backquotes): what it prints may be run. */
  substitution: boolean;
  /** The folders of a PATH set on the line, where a program named without a folder is looked up first. */
  path: readonly string[];
  outer: Outer[];
  /** Files opened for reading on a descriptor (`exec 3<x`): what `/dev/fd/3` names. */
  fds: Record<string, string>;
  files: Set<string>;
  /** Files named relative to the folder the hook starts in: Claude Code starts hooks in the session's current folder, wherever a `cd` took it. */
  relative: Set<string>;
}

/** A new reading of a line in the project folder. */
export function newReading(places: HookPlaces, files: Set<string>, relative: Set<string>): Reading {
  return { places, dir: places.projectDir, anchored: false, substitution: false, path: [], outer: [], fds: {}, files, relative };
}

/** A program as named on a line: its base name (`/usr/bin/python3.12` is `python3.12`). */
export const programName = (word: string) => word.slice(word.lastIndexOf("/") + 1);

/** The words that are not options. */
export const operands = (words: readonly string[]) => words.filter((w) => !w.startsWith("-"));

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

/** A word with what the reading knows filled in; undefined when it holds a variable it does not know. */
export const expandedIn = (word: string, reading: Reading) => expanded(word, knownOf(reading), reading.places.home);

export function moveTo(word: string | undefined, reading: Reading): void {
  const to = word === undefined ? undefined : expandedIn(word, reading);
  if (to === undefined) return;
  const next = normalizePath(joinedPath(reading.dir, to)) ?? reading.dir;
  // A folder longer than PATH_MAX cannot be entered: the shell stays (and the reading stays linear in the line).
  if (next.length > PATH_MAX) return;
  reading.anchored ||= to.startsWith("/");
  reading.dir = next;
}

/** Linux's longest path. */
const PATH_MAX = 4096;

/** The folders of a PATH value the reading can know (`$PATH` itself and unknown parts left out). */
export function pathDirs(value: string, reading: Reading): string[] {
  return value.split(":").flatMap((part) => {
    const dir = part === "$PATH" || part === "${PATH}" ? undefined : expandedIn(part, reading);
    return dir ? [normalizePath(joinedPath(reading.dir, dir)) ?? dir] : [];
  });
}

/**
 * Guards the file a word names: for a glob, the folder it lists (sh expands
 * it there); never a folder that holds the project. A word relative to the
 * folder the hook starts in is kept relative too (`anywhere`), unless it is a
 * runner's manifest (`package.json`), kept to the project and the call's folder.
 */
export function guard(word: string | undefined, reading: Reading, anywhere = true): void {
  const absolute = targetOf(word, reading);
  if (absolute === undefined) return;
  reading.files.add(absolute);
  const start = trimmed(reading.places.projectDir);
  if (anywhere && !reading.anchored && !/^[/~$]/.test(word!) && absolute.startsWith(`${start}/`))
    reading.relative.add(absolute.slice(start.length + 1));
}

/** The absolute path a word names (a glob's folder), unless it is an address, unknown, or a folder that holds the project or the home. */
function targetOf(word: string | undefined, reading: Reading): string | undefined {
  const path = word === undefined || /^[a-z]+:\/\//i.test(word) ? undefined : expandedIn(word, reading);
  if (path === undefined || path === "" || path === "-") return undefined;
  const target = isGlob(path) ? path.slice(0, path.search(/[*?[]/)).replace(/[^/]*$/, "") || "." : path;
  const absolute = normalizePath(joinedPath(reading.dir, target));
  return absolute === null || holdsPlace(absolute, reading.places) ? undefined : absolute;
}
