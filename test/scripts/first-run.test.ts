/**
 * What `npm run setup` says before its first install, and how `npm run demo`
 * says to open its report (issue 20: 550 MB installed unannounced; an
 * xdg-open on a machine with no display).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INSTALLED_MB, installNotice, openHint } from "../../scripts/lib/first-run.mjs";
import { ROOT } from "../support/paths.js";

describe("the first run's install notice", () => {
  it("says what it installs, where from, how many packages and how big, from the real lock file", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, "dev", "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string }>;
    };
    // What npm put here (its own record of dev/node_modules), not every platform's optional packages in the lock.
    const installed = JSON.parse(readFileSync(join(ROOT, "dev", "node_modules", ".package-lock.json"), "utf8")) as {
      packages: Record<string, unknown>;
    };
    const count = Object.keys(installed.packages).length;
    const claude = lock.packages["node_modules/@anthropic-ai/claude-code"]!.version!;
    expect(installNotice(lock)).toBe(
      `utility: first run: installing the development tools into dev/ (npm ci from the npm registry): ${count} packages, about ${INSTALLED_MB} MB on disk, most of it the pinned Claude Code ${claude} the demo and the tests run. Later runs skip this.`,
    );
  });

  it("counts an optional package only on the platform it installs on", () => {
    const lock = {
      packages: { "": {}, "node_modules/a": {}, "node_modules/b": { os: ["darwin"] }, "node_modules/c": { os: ["linux"], libc: ["musl"] } },
    };
    expect(installNotice(lock, { os: "linux", cpu: "x64", libc: "glibc" })).toContain(": 1 package, about");
    expect(installNotice(lock, { os: "linux", cpu: "x64", libc: "musl" })).toContain(": 2 packages, about");
    expect(installNotice(lock, { os: "darwin", cpu: "arm64" })).toContain(": 2 packages, about");
  });

  it("without the pinned client in the lock, names no version", () => {
    expect(installNotice({ packages: { "": {}, "node_modules/a": {} } })).toContain(": 1 package, about");
    expect(installNotice({ packages: { "": {} } })).not.toContain("Claude Code");
  });
});

describe("how the demo says to open its report", () => {
  it.each([
    ["darwin", {}, "open /r.html"],
    ["win32", {}, "start /r.html"],
    ["linux", { DISPLAY: ":0" }, "xdg-open /r.html"],
    ["linux", { WAYLAND_DISPLAY: "wayland-0" }, "xdg-open /r.html"],
    ["linux", {}, "/r.html (no display here: open it in a browser on a machine that has one)"],
  ])("%s %j", (platform, env, hint) => expect(openHint("/r.html", platform, env)).toBe(hint));
});
