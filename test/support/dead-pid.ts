import { spawnSync } from "node:child_process";

/** A pid no process has: a child's that ran and exited (until the system gives it out again). */
export function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}
