/**
 * Pieces of the hook server's end-to-end tests: where a run's server says it
 * runs, a shell command the model can use to kill it (by that pid, so no
 * other process on the machine is touched), and whether this machine lets a
 * test give claude its own PID or mount namespace.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { RunClaudeResult } from "../support/claude.js";
import { dataDirOf } from "../gate/support.js";

/** The plugin's data folder in a scratch HOME (--plugin-dir: `utility-inline`). */
export const dataDirIn = (home: string) => join(home, ".claude", "plugins", "data", "utility-inline");

/** The pids the run's server markers name (one per Claude Code process; a restarted server overwrites it). */
export function serverMarkers(run: RunClaudeResult): { pid: number; claudePid: number }[] {
  const folder = join(dataDirOf(run), "servers");
  return readdirSync(folder).map((f) => JSON.parse(readFileSync(join(folder, f), "utf8")));
}

/** A shell command that SIGKILLs the server(s) whose marker is in `dataDir`, and nothing else. */
export function killServer(dataDir: string): string {
  return `for f in ${dataDir}/servers/*.json; do kill -9 "$(sed -n 's/.*"pid":\\([0-9]*\\).*/\\1/p' "$f")" 2>/dev/null; done; true`;
}

/** The same, every 20 ms for `seconds`, in the background: a server Claude Code starts again dies at once. */
export function keepKillingServer(dataDir: string, seconds: number): string {
  const rounds = Math.round(seconds / 0.02);
  return `(for i in $(seq ${rounds}); do ${killServer(dataDir)}; sleep 0.02; done) >/dev/null 2>&1 & echo started`;
}

/** Can this machine run claude in its own PID namespace (Linux, root or user namespaces)? */
export function canOwnPidNamespace(): boolean {
  return spawnSync("unshare", ["-p", "-f", "--mount-proc", "true"], { stdio: "ignore" }).status === 0;
}

/** Can it give claude its own mount namespace with an overlay on /etc (to plant managed settings)? */
export function canOverlayEtc(): boolean {
  return (
    spawnSync("unshare", ["-m", "--propagation", "private", "sh", "-c", "mount -t tmpfs none /mnt && umount /mnt"], { stdio: "ignore" })
      .status === 0
  );
}

/** This process's PID namespace: a command run in another one can check that it is not in this. */
export const outerPidNamespace = (): string => readlinkSync("/proc/self/ns/pid");
