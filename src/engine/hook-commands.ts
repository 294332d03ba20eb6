// The files Claude Code's command hooks run, from a settings object (issue 31's red-team pass). Pure.
//
// A hook in `.claude/settings.json` may run a script kept anywhere in the
// project (`sh "$CLAUDE_PROJECT_DIR/tools/pre-bash.sh"`): writing that script
// changes what Claude Code runs on its events, outside the gate, as writing a
// settings file would. So the files a command names are guarded as Claude
// Code's configuration is (./protected.ts).

/** Hook commands read from one settings object, at most: a larger `hooks` block is read this far. */
export const MAX_HOOK_COMMANDS = 256;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The command strings (and their `args`) of every `type: command` hook in a settings object's `hooks`. */
export function hookCommands(settings: unknown): string[][] {
  if (!isRecord(settings) || !isRecord(settings.hooks)) return [];
  const hooks = Object.values(settings.hooks)
    .flatMap((groups) => (Array.isArray(groups) ? groups : []))
    .flatMap((group) => (isRecord(group) && Array.isArray(group.hooks) ? (group.hooks as unknown[]) : []));
  return hooks.slice(0, MAX_HOOK_COMMANDS).flatMap(commandOf);
}

/** One hook's command and its `args`, when it runs one. */
function commandOf(hook: unknown): string[][] {
  if (!isRecord(hook) || typeof hook.command !== "string") return [];
  const args = Array.isArray(hook.args) ? hook.args.filter((a): a is string => typeof a === "string") : [];
  return [[hook.command, ...args]];
}

/** Where a hook's words are read from: the project (its working folder), and the values Claude Code sets for it. */
export interface HookPlaces {
  projectDir: string;
  home: string;
  pluginRoot?: string;
}

/** The words of a shell command, quotes taken off (no expansion but the variables below). */
function words(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|([^\s"';|&<>()]+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

/** A word with `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PLUGIN_ROOT}` and a leading `~` filled in. */
function filled(word: string, places: HookPlaces): string {
  const value = (name: string) =>
    name === "CLAUDE_PROJECT_DIR" ? places.projectDir : name === "CLAUDE_PLUGIN_ROOT" ? (places.pluginRoot ?? "") : "";
  const expanded = word.replace(/\$\{(\w+)\}|\$(\w+)/g, (_all, a?: string, b?: string) => value(a ?? b ?? ""));
  return expanded.replace(/^~(?=\/|$)/, places.home);
}

/** Looks like a file a command runs or reads: it has a folder part or a script's extension. */
const FILE_LIKE = /\/|\.(sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|ps1)$/i;

/** Absolute paths of the files the commands name, each as written (relative ones from the project folder). */
export function hookFiles(commands: readonly string[][], places: HookPlaces): string[] {
  const files = new Set<string>();
  for (const command of commands)
    for (const part of command)
      for (const word of words(part)) {
        const path = filled(word, places);
        if (path === "" || !FILE_LIKE.test(path) || /^[a-z]+:\/\//i.test(path)) continue;
        files.add(path.startsWith("/") ? path : `${places.projectDir.replace(/\/+$/, "")}/${path.replace(/^\.\//, "")}`);
      }
  return [...files];
}
