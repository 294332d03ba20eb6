/**
 * That a hook server started for a Claude Code process:
 * `<data>/servers/<claude pid>.json`, written when it starts and kept after it
 * ends. The SessionStart hook reads it to tell a server that never started
 * (Claude Code kept it off) from one that is starting, or was killed (Claude
 * Code starts it again on the next hook call). Markers of Claude Code
 * processes that are gone are removed by the next server that starts.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureRealFolder, PRIVATE_FILE, tightenDataFolder } from "./paths.js";

export interface ServerMarker {
  pid: number;
  /** Claude Code's process, the server's parent. */
  claudePid: number;
  startedAt: string;
}

const PID = /^\d{1,10}$/;

export function markerPath(dataDir: string, claudePid: string): string {
  if (!PID.test(claudePid)) throw new Error(`Claude Code's pid ${JSON.stringify(claudePid)} is not a number`);
  return join(dataDir, "servers", `${claudePid}.json`);
}

/** Written whole (a temporary file renamed over it), never through a link planted in its place. */
export function writeMarker(dataDir: string, marker: ServerMarker): string {
  const file = markerPath(dataDir, String(marker.claudePid));
  tightenDataFolder(dataDir);
  ensureRealFolder(join(dataDir, "servers"));
  const temp = `${file}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  writeFileSync(temp, JSON.stringify(marker), { flag: "wx", mode: PRIVATE_FILE });
  renameSync(temp, file);
  return file;
}

export function readMarker(dataDir: string, claudePid: string): ServerMarker | undefined {
  try {
    const data = JSON.parse(readFileSync(markerPath(dataDir, claudePid), "utf8")) as Partial<ServerMarker>;
    return typeof data.pid === "number" && typeof data.claudePid === "number" && typeof data.startedAt === "string"
      ? (data as ServerMarker)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the markers of Claude Code processes that no longer run, but this server's own. */
export function pruneMarkers(dataDir: string, own: number, alive: (pid: number) => boolean): void {
  const folder = join(dataDir, "servers");
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^(\d{1,10})\.json$/.exec(name)?.[1];
    if (pid && Number(pid) !== own && !alive(Number(pid))) rmSync(join(folder, name), { force: true });
  }
}
