// The net under the reading of a command line (src/engine/command-net.ts): which lines it reads whole, and what it
// guards; a linter's or an MCP server's folder stays the model's to write.
import { describe, expect, it } from "vitest";
import { commandFiles } from "../../src/engine/command-files.js";
import { guardEveryWord, runsHiddenCode } from "../../src/engine/command-net.js";
import { newReading } from "../../src/engine/command-reading.js";
import { runReason } from "../../src/engine/protected.js";

const places = { projectDir: "/p", home: "/h", pluginRoot: "/plug" };
const guarded = (commands: string[][], file: string) => {
  const found = commandFiles(commands, places);
  return runReason(file, found.files, found.relative) !== undefined;
};

describe("the net", () => {
  it("reads lines that run code some way, and leaves the others to the reading", () => {
    for (const line of [
      "cat x | sh",
      "python3 -c pass",
      "node -e 1",
      'eval "$x"',
      "echo $(date)",
      "bash x | cat",
      "gawk 1",
      "make -C tools",
      "/usr/bin/env bash x",
      "flock /tmp/l sh x",
    ])
      expect(runsHiddenCode(line), line).toBe(true);
    for (const line of [
      "npx eslint src",
      'npx prettier --write "$FILE"',
      "jq -r .tool_input.file_path",
      "git status",
      "node server.js --root ./src",
    ])
      expect(runsHiddenCode(line), line).toBe(false);
  });

  it("a linter's folder stays the model's to write (over-blocking)", () => {
    expect(guarded([["npx eslint src"]], "/p/src/app.ts")).toBe(false);
    expect(guarded([["npx prettier --write src"]], "/p/src/app.ts")).toBe(false);
    // An MCP server's folder argument is its data (red team 3's over-blocking).
    expect(guarded([["node no-such-server.js --root ./src"]], "/p/src/app.ts")).toBe(false);
  });

  it("in code, a name is a module file, not a folder (red team 8's over-blocking of data/)", () => {
    const hook = `python3 -c "import json, sys, hookcheck; data = json.load(sys.stdin); path = data['x']"`;
    expect(guarded([[hook]], "/p/data/notes.json")).toBe(false);
    expect(guarded([[hook]], "/p/path/a.txt")).toBe(false);
    expect(guarded([[hook]], "/p/hookcheck.py")).toBe(true);
    expect(guarded([[hook]], "/p/hookcheck/__init__.py")).toBe(true);
    expect(guarded([[hook]], "/p/json.py")).toBe(true);
  });

  it("a name without an extension is guarded with one (node -r ./tools/hook loads tools/hook.js)", () => {
    expect(guarded([["node -r ./tools/hook -e 1"]], "/p/tools/hook.js")).toBe(true);
    expect(guarded([["node -r ./tools/hook -e 1"]], "/p/tools/hook.d/x.js")).toBe(false);
  });

  it("guards words and their parts, not options, output files, the project or the home", () => {
    const files = new Set<string>();
    const relative = new Set<string>();
    guardEveryWord(
      "node --require=./a.js -e \"require('b/c')\" tools.x > out.log 2>> err.log; cd /p; cat ~",
      newReading(places, files, relative),
    );
    expect([...files].sort()).toEqual(
      ["/p/a.js", "/p/b/c", "/p/cat", "/p/cd", "/p/node", "/p/require", "/p/require('b/c')", "/p/tools", "/p/tools.x"].sort(),
    );
    expect(relative).toContain("a.js");
    expect(relative).not.toContain("tools");
  });
});
