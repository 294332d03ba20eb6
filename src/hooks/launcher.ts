/**
 * The `utility` command for the user's own shell after a marketplace install
 * (SPEC §9). Claude Code puts the plugin's `bin/` on PATH only inside its own
 * sessions, and installs each version under a folder named after it, so a
 * link to that folder breaks at the next update. The plugin's data folder
 * keeps its name across updates: each session start writes
 * `<data folder>/bin/utility` there, a launcher that runs the CLI of the
 * version Claude Code started, and the user links it once onto their PATH.
 */
import { chmodSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureRealFolder } from "../state/paths.js";

/** The user may run it; nobody else may read, run or change it (the data folder is private, SPEC §8). */
const LAUNCHER_MODE = 0o700;

/** Where the launcher is, in a data folder. */
export function launcherPath(dataDir: string): string {
  return join(dataDir, "bin", "utility");
}

/** A single-quoted shell word. */
const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** Pure: the launcher's text for a plugin folder. */
export function launcherText(pluginRoot: string): string {
  const cli = join(pluginRoot, "dist", "cli.js");
  return [
    "#!/bin/sh",
    "# The utility command, written by the utility plugin at each Claude Code session start:",
    "# it runs the CLI of the plugin version Claude Code started last. Link it onto your PATH once:",
    "#   mkdir -p ~/.local/bin && ln -sf <this file> ~/.local/bin/utility",
    `cli=${quoted(cli)}`,
    'if [ ! -f "$cli" ]; then',
    '  echo "utility: $cli is gone (the plugin was updated or removed); start a Claude Code session once and this launcher follows." >&2',
    "  exit 2",
    "fi",
    'exec node "$cli" "$@"',
    "",
  ].join("\n");
}

/**
 * Writes the launcher when it is missing, names another folder or is not
 * the user's alone (0700); otherwise leaves it (one small read per session). Replaced whole, by rename: a link
 * planted in its place is replaced, never written through.
 */
export function refreshLauncher(dataDir: string, pluginRoot: string): boolean {
  const file = launcherPath(dataDir);
  const text = launcherText(pluginRoot);
  try {
    if (readFileSync(file, "utf8") === text && (statSync(file).mode & 0o777) === LAUNCHER_MODE) return false;
  } catch {
    // missing or unreadable: write it
  }
  ensureRealFolder(join(dataDir, "bin"));
  const temp = `${file}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  writeFileSync(temp, text, { flag: "wx", mode: LAUNCHER_MODE });
  chmodSync(temp, LAUNCHER_MODE);
  renameSync(temp, file);
  return true;
}

/** Where the status line script is, in a data folder: the path the user's `statusLine` setting names (README). */
export function statusScriptPath(dataDir: string): string {
  return join(dataDir, "bin", "statusline.sh");
}

/**
 * Copies the plugin's status line script (plugin/statusline.sh) into the data
 * folder, whose name survives updates, when the copy is missing, differs or is
 * not the user's alone; otherwise leaves it. Replaced whole, by rename.
 */
export function refreshStatusScript(dataDir: string, pluginRoot: string): boolean {
  const file = statusScriptPath(dataDir);
  let text: string;
  try {
    text = readFileSync(join(pluginRoot, "statusline.sh"), "utf8");
  } catch {
    return false; // a plugin folder without it (an older layout): nothing to copy
  }
  try {
    if (readFileSync(file, "utf8") === text && (statSync(file).mode & 0o777) === LAUNCHER_MODE) return false;
  } catch {
    // missing or unreadable: write it
  }
  ensureRealFolder(join(dataDir, "bin"));
  const temp = `${file}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  writeFileSync(temp, text, { flag: "wx", mode: LAUNCHER_MODE });
  chmodSync(temp, LAUNCHER_MODE);
  renameSync(temp, file);
  return true;
}
