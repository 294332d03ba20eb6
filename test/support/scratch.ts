import { accessSync, constants, statfsSync } from "node:fs";
import { tmpdir } from "node:os";

/** Less free space than this (a container's 64 MB /dev/shm) and the tests use the system's temporary folder. */
const ENOUGH_BYTES = 1024 ** 3;

let chosen: string | undefined;

/**
 * Where tests that make thousands of short-lived folders and files put them:
 * /dev/shm (tmpfs) when it is there, writable and roomy, else os.tmpdir().
 * Both are real file systems with the same calls (rename, open O_EXCL, links,
 * FIFOs); on tmpfs they do not wait for a disk journal, which made renames
 * half the one-truth property's time on an ext4 /tmp.
 */
export function scratchDir(): string {
  if (chosen !== undefined) return chosen;
  chosen = tmpdir();
  try {
    accessSync("/dev/shm", constants.W_OK);
    const fs = statfsSync("/dev/shm");
    if (fs.bavail * fs.bsize >= ENOUGH_BYTES) chosen = "/dev/shm";
  } catch {
    // no /dev/shm (not Linux), or not ours to write
  }
  return chosen;
}
