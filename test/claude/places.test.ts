/** The folders Claude Code reads skills, commands and agents from (src/claude/places.ts). */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  cachedPlugins,
  claudeArgsOf,
  claudeFolders,
  configDir,
  pluginDirsOf,
  pluginNameOf,
  pluginRoots,
  projectFolders,
} from "../../src/claude/places.js";
import { markdownFilesUnder, readSmallText, MAX_FILE_BYTES, isOversized } from "../../src/claude/files.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-places-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const dir = (...parts: string[]) => {
  const path = join(scratch, ...parts);
  mkdirSync(path, { recursive: true });
  return path;
};

describe("projectFolders", () => {
  it("walks up from the start to the git work tree's top, nearest first", () => {
    const top = dir("repo");
    dir("repo", ".git");
    const deep = dir("repo", "a", "b");
    expect(projectFolders(deep, "/nonexistent-home")).toEqual([deep, join(top, "a"), top]);
  });

  it("without a git work tree, stops before the home folder", () => {
    const home = dir("home");
    const deep = dir("home", "work", "x");
    expect(projectFolders(deep, home)).toEqual([deep, join(home, "work")]);
  });

  it("adds the main work tree of a linked one", () => {
    const main = dir("main");
    dir("main", ".git", "worktrees", "wt");
    const linked = dir("linked");
    writeFileSync(join(linked, ".git"), `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`);
    expect(projectFolders(linked, "/nonexistent-home")).toEqual([linked, main]);
  });
});

describe("the user's and the plugins' folders", () => {
  it("the config folder is CLAUDE_CONFIG_DIR, else ~/.claude", () => {
    expect(configDir({ CLAUDE_CONFIG_DIR: "/cfg" }, "/h")).toBe("/cfg");
    expect(configDir({}, "/h")).toBe("/h/.claude");
  });

  it("lists every cached plugin version under its manifest name and its folder's name", () => {
    const config = dir("config");
    const v = dir("config", "plugins", "cache", "market", "folder-name", "1.0.0");
    dir("config", "plugins", "cache", "market", "folder-name", "1.0.0", ".claude-plugin");
    writeFileSync(join(v, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "manifest-name" }));
    const found = cachedPlugins(config);
    expect(found).toContainEqual({ root: v, names: ["manifest-name", "folder-name"] });
    expect(found).toContainEqual({ root: join(config, "plugins", "cache", "market", "folder-name"), names: ["folder-name"] });
    expect(pluginNameOf(v)).toBe("manifest-name");
    expect(pluginNameOf(scratch)).toBe(scratch.split("/").at(-1));
    expect(pluginRoots({ env: { CLAUDE_CONFIG_DIR: config }, ownRoot: "/own", ownName: "utility", pluginDirs: [] })[0]).toEqual({
      root: "/own",
      names: ["utility"],
    });
  });

  it("claudeFolders: project walk and --add-dir as .claude folders, the user's, the managed one", () => {
    const start = dir("plain", "p");
    const folders = claudeFolders({ CLAUDE_CONFIG_DIR: "/cfg" }, start, dir("plain"));
    expect(folders).toEqual({ projectClaude: [join(start, ".claude")], user: "/cfg", managed: "/etc/claude-code/.claude" });
    expect(claudeFolders({}, undefined, "/h").projectClaude).toEqual([]);
  });
});

describe.skipIf(!existsSync("/proc/self/cmdline"))("Claude Code's command line", () => {
  it("reads --plugin-dir, --plugin-dir-no-mcp and every word after --add-dir, against its working folder", async () => {
    const args = ["--plugin-dir", "plugins/a", "--plugin-dir-no-mcp=/b", "--add-dir", "x", "/y", "--add-dir=z", "-p", "go"];
    const child = spawn(process.execPath, ["-e", 'process.stdout.write("ready"); setTimeout(() => {}, 60000)', "--", ...args], {
      cwd: scratch,
      stdio: ["ignore", "pipe", "ignore"],
    });
    try {
      await new Promise((ready, failed) => {
        child.stdout.once("data", ready);
        child.once("exit", failed);
      });
      expect(claudeArgsOf(String(child.pid))).toEqual({
        pluginDirs: [join(scratch, "plugins/a"), "/b"],
        addDirs: [join(scratch, "x"), "/y", join(scratch, "z")],
      });
      expect(pluginDirsOf(String(child.pid))).toEqual([join(scratch, "plugins/a"), "/b"]);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("gives nothing for a missing or odd pid", () => {
    expect(claudeArgsOf(undefined)).toEqual({ pluginDirs: [], addDirs: [] });
    expect(claudeArgsOf("../1")).toEqual({ pluginDirs: [], addDirs: [] });
    expect(claudeArgsOf("999999999")).toEqual({ pluginDirs: [], addDirs: [] });
  });
});

describe("reading files without blocking", () => {
  it("reads regular files up to the size Claude Code loads, never a FIFO or a folder", () => {
    const small = join(dir("files"), "a.md");
    writeFileSync(small, "hello");
    const big = join(dir("files"), "big.md");
    writeFileSync(big, "x".repeat(MAX_FILE_BYTES + 1));
    expect(readSmallText(small)).toBe("hello");
    expect(readSmallText(big)).toBeUndefined();
    expect(isOversized(big)).toBe(true);
    expect(readSmallText(dir("files", "sub.md"))).toBeUndefined();
    expect(readSmallText(join(scratch, "missing"))).toBeUndefined();
    const fifo = join(dir("files"), "fifo.md");
    execFileSync("mkfifo", [fifo]);
    expect(readSmallText(fifo)).toBeUndefined();
  });

  it("walks .md files below a folder with the folders on the way, each folder once", () => {
    const root = dir("walk");
    writeFileSync(join(dir("walk", "a", "b"), "x.md"), "");
    writeFileSync(join(root, "top.md"), "");
    writeFileSync(join(root, "no.txt"), "");
    expect(markdownFilesUnder(root)).toEqual([
      { path: join(root, "a", "b", "x.md"), folders: ["a", "b"] },
      { path: join(root, "top.md"), folders: [] },
    ]);
    expect(markdownFilesUnder(join(scratch, "none"))).toEqual([]);
  });
});
