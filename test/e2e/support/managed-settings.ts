/**
 * Claude Code's managed settings for one run, without touching the machine's
 * /etc: the run's claude starts inside its own mount namespace (`unshare
 * --mount`, private propagation) in which /etc is an overlay whose upper
 * layer holds `claude-code/managed-settings.json`. Claude Code 2.1.328 has no
 * way to point at another managed settings folder (its path is fixed,
 * docs/claude-code-facts.md), so this needs root, or a user namespace, and
 * overlayfs: `managedSettingsUnavailable()` says why not when it cannot.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ManagedSettings {
  /** `wrap` for runClaude: claude runs with these managed settings. */
  wrap: string[];
  cleanup(): void;
}

function overlayScript(upper: string, work: string): string {
  return `mount -t overlay overlay -o lowerdir=/etc,upperdir=${upper},workdir=${work} /etc && exec "$@"`;
}

/** Managed settings files (name under /etc/claude-code → JSON) for runs wrapped in the returned `wrap`. */
export function withManagedSettings(files: Record<string, unknown>): ManagedSettings {
  const root = mkdtempSync(join(tmpdir(), "managed-etc-"));
  const upper = join(root, "upper");
  const work = join(root, "work");
  mkdirSync(work, { recursive: true });
  for (const [name, json] of Object.entries(files)) {
    const file = join(upper, "claude-code", name);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, JSON.stringify(json));
  }
  return {
    wrap: ["unshare", "--mount", "--propagation", "private", "sh", "-c", overlayScript(upper, work), "sh"],
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Why managed settings cannot be given to a run here, or undefined when they can (tried once: a mount in a throwaway namespace). */
export function managedSettingsUnavailable(): string | undefined {
  const probe = withManagedSettings({ "managed-settings.json": {} });
  try {
    const r = spawnSync(probe.wrap[0]!, [...probe.wrap.slice(1), "cat", "/etc/claude-code/managed-settings.json"], { encoding: "utf8" });
    if (r.error) return `unshare could not run: ${r.error.message}`;
    if (r.status !== 0 || r.stdout.trim() !== "{}")
      return `an overlay on /etc in a new mount namespace failed (needs root and overlayfs): ${r.stderr.trim() || `exit ${r.status}`}`;
    return undefined;
  } finally {
    probe.cleanup();
  }
}
