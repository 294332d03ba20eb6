// What reading a command line keeps (./command-files.ts, ./program-files.ts):
// the folder it is in, and the files it names, as absolute paths. Pure.
import { normalizePath } from "./redundancy.js";
import { expanded, isGlob } from "./shell-words.js";

/** Where a command's words are read from: the project (its working folder), and the values Claude Code sets for it. */
export interface HookPlaces {
  projectDir: string;
  home: string;
  pluginRoot?: string;
}

/** A command line being read: its places, the folder it is in now, the folders `(` left, and the files found. */
export interface Reading {
  places: HookPlaces;
  dir: string;
  outer: string[];
  files: Set<string>;
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

export function moveTo(word: string | undefined, reading: Reading): void {
  const to = word === undefined ? undefined : expanded(word, knownOf(reading), reading.places.home);
  if (to !== undefined) reading.dir = normalizePath(joinedPath(reading.dir, to)) ?? reading.dir;
}

/** Guards the file a word names: for a glob, the folder it lists (sh expands it there); never a folder that holds the project. */
export function guard(word: string | undefined, reading: Reading): void {
  const path = word === undefined || /^[a-z]+:\/\//i.test(word) ? undefined : expanded(word, knownOf(reading), reading.places.home);
  if (path === undefined || path === "" || path === "-") return;
  const target = isGlob(path) ? path.slice(0, path.search(/[*?[]/)).replace(/[^/]*$/, "") || "." : path;
  const absolute = normalizePath(joinedPath(reading.dir, target));
  if (absolute !== null && !holdsPlace(absolute, reading.places)) reading.files.add(absolute);
}
