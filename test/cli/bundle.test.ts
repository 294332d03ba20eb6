import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PLUGIN_ROOT, ROOT } from "../support/paths.js";

/** Every file under a folder, relative to it. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort();
}

/** `dir` and every folder above it that holds a node_modules. */
function foldersWithNodeModules(dir: string): string[] {
  const found: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, "node_modules"))) found.push(d);
    if (dirname(d) === d) return found;
  }
}

describe("dist/", () => {
  const fresh = mkdtempSync(join(tmpdir(), "utility-dist-"));
  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it("is what src/ builds to (rebuild with `npm run build` and commit)", () => {
    execFileSync(process.execPath, [join(ROOT, "scripts", "build.mjs"), "--out", fresh]);
    const built = listFiles(fresh);
    expect(listFiles(join(PLUGIN_ROOT, "dist"))).toEqual(built);
    for (const file of built) {
      const same = readFileSync(join(fresh, file)).equals(readFileSync(join(PLUGIN_ROOT, "dist", file)));
      expect(same, `plugin/dist/${file} is stale`).toBe(true);
    }
  });

  it("runs the CLI from a copy with no node_modules anywhere above it", () => {
    const plugin = mkdtempSync(join(tmpdir(), "utility-copy-"));
    try {
      cpSync(join(PLUGIN_ROOT, "dist"), join(plugin, "dist"), { recursive: true });
      expect(foldersWithNodeModules(plugin)).toEqual([]); // nothing the bundle could resolve a package from
      const r = spawnSync(
        process.execPath,
        [join(plugin, "dist", "cli.js"), "score", "--gain", "0.7", "--step-cost", "0.12", "--uncertainty", "0.6", "--redundancy", "0"],
        { cwd: plugin, encoding: "utf8", env: { PATH: process.env.PATH ?? "" } },
      );
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain("Utility: 0.28");
      const bad = spawnSync(process.execPath, [join(plugin, "dist", "cli.js"), "score", "--gain", "nope"], {
        cwd: plugin,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "" },
      });
      expect(bad.status).toBe(2);
      expect(bad.stderr.trim().split("\n")).toHaveLength(1);
      expect(bad.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(plugin, { recursive: true, force: true });
    }
  });

  it("is the package's `utility` bin", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.bin).toEqual({ utility: "plugin/dist/cli.js" });
    expect(readFileSync(join(PLUGIN_ROOT, "dist", "cli.js"), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });
});
