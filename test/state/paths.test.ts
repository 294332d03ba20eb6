/**
 * Which data folder the hooks write in (issue 31, hole 6): Claude Code's
 * CLAUDE_PLUGIN_DATA whenever it is set, which a repository's settings cannot
 * change; UTILITY_DATA_DIR only without it (the CLI, tests, tools).
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../src/state/paths.js";

describe("the data folder", () => {
  it("is CLAUDE_PLUGIN_DATA when Claude Code gives it, whatever UTILITY_DATA_DIR says", () => {
    expect(dataDir({ CLAUDE_PLUGIN_DATA: "/home/u/.claude/plugins/data/utility-m", UTILITY_DATA_DIR: "/repo/moved" })).toBe(
      "/home/u/.claude/plugins/data/utility-m",
    );
  });

  it("is UTILITY_DATA_DIR without Claude Code (an empty CLAUDE_PLUGIN_DATA counts as none)", () => {
    expect(dataDir({ UTILITY_DATA_DIR: "/tmp/data" })).toBe("/tmp/data");
    expect(dataDir({ CLAUDE_PLUGIN_DATA: "", UTILITY_DATA_DIR: "/tmp/data" })).toBe("/tmp/data");
  });

  it("is a folder under ~/.claude with neither", () => {
    expect(dataDir({})).toBe(join(homedir(), ".claude", "plugins", "data", "utility"));
  });
});
