// Red team 7: forms of a settings command whose run file the reading missed (the e2e ones are
// test/e2e/redteam/rt7-hook-*.test.ts), and the safety net under the reading (src/engine/command-net.ts). Each asserts
// the promise: a gated write of the file the command runs is refused (runReason says why).
import { describe, expect, it } from "vitest";
import { commandFiles } from "../../src/engine/command-files.js";
import { hookCommands, mcpServerCommands } from "../../src/engine/hook-commands.js";
import { runReason } from "../../src/engine/protected.js";

const places = { projectDir: "/p", home: "/h", pluginRoot: "/plug" };
const guarded = (commands: string[][], file: string) => {
  const found = commandFiles(commands, places);
  return runReason(file, found.files, found.relative) !== undefined;
};

const CASES: Array<[string, string]> = [
  // stdin fed to a shell by routes the reading does not follow
  ["cat < tools/x | sh", "/p/tools/x"],
  ["cat tools/x | cat | sh", "/p/tools/x"],
  ["exec < tools/x; sh", "/p/tools/x"],
  ["sh -c sh < tools/x", "/p/tools/x"],
  ["{ sh; } < tools/x", "/p/tools/x"],
  [". /dev/stdin < tools/x", "/p/tools/x"],
  ["sh 3<tools/x 0<&3", "/p/tools/x"],
  ['sh -c "$(cat < tools/x)"', "/p/tools/x"],
  // runners' command options
  ["npx -c 'sh tools/x'", "/p/tools/x"],
  ["npx --call='sh tools/x'", "/p/tools/x"],
  ["npm exec -c 'sh tools/x'", "/p/tools/x"],
  ["npm exec -- sh tools/x", "/p/tools/x"],
  ["npx -c ./tools/x", "/p/tools/x"],
  // wrappers with option values the table does not know
  ["timeout --signal KILL 5 sh tools/x", "/p/tools/x"],
  ["timeout --signal KILL 5 ./tools/x", "/p/tools/x"],
  ["nice --adjustment 5 sh tools/x", "/p/tools/x"],
  ["stdbuf -o 0 sh tools/x", "/p/tools/x"],
  ["taskset 1 sh tools/x", "/p/tools/x"],
  ["chrt -o 0 sh tools/x", "/p/tools/x"],
  ["xargs -E x sh tools/x", "/p/tools/x"],
  ["env -S 'sh \"tools/x\"'", "/p/tools/x"],
  // files loaded by the environment or by code
  ["export NODE_OPTIONS=--require=./tools/x.js; node -v", "/p/tools/x.js"],
  ["node -e \"require('./tools/x.js')\"", "/p/tools/x.js"],
  ["PYTHONPATH=tools python3 -c pass", "/p/tools/sitecustomize.py"],
  ["python3 -m tools.hook", "/p/tools/__init__.py"],
  ["export PYTHONPATH=lib; python3 -c pass", "/p/lib/sitecustomize.py"],
  // the folder and the home the line sets
  ["cd /tmp; cd -; sh tools/x", "/p/tools/x"],
  ["cd /tmp; cd -; ./tools/x", "/p/tools/x"],
  ["HOME=tools; sh ~/x", "/p/tools/x"],
  ['HOME=tools; sh "$HOME/x"', "/p/tools/x"],
  ["HOME=/p/tools; cd; ./x", "/p/tools/x"],
  // printers not on the list
  ["sh -c \"$(grep '' tools/x)\"", "/p/tools/x"],
  ['sh -c "$(dd if=tools/x)"', "/p/tools/x"],
  ["dd if=tools/x | sh", "/p/tools/x"],
  ["awk -f tools/x.awk", "/p/tools/x.awk"],
];

describe("rt7: run files of hook command forms", () => {
  it.each(CASES)("%s runs %s", (command, file) => {
    expect(guarded([[command]], file)).toBe(true);
  });

  it("a settings env that makes programs load a folder guards it (PYTHONPATH, NODE_PATH)", () => {
    const commands = hookCommands({ env: { PYTHONPATH: "tools", NODE_PATH: "/p/lib" }, hooks: {} });
    expect(guarded(commands, "/p/tools/sitecustomize.py")).toBe(true);
    expect(guarded(commands, "/p/lib/x.js")).toBe(true);
  });

  it("an http MCP server's headersHelper is a command Claude Code runs", () => {
    const servers = { mcpServers: { api: { type: "http", url: "https://x", headersHelper: "sh tools/headers.sh" } } };
    expect(guarded(mcpServerCommands(servers), "/p/tools/headers.sh")).toBe(true);
  });
});

// Red team 8 (test/e2e/redteam/rt8-*.test.ts): what a program loads by convention, and programs the lists missed.
const RT8: Array<[string, string]> = [
  ["cargo check --quiet --offline", "/p/build.rs"],
  ["npx prettier --check src", "/p/prettier.config.cjs"],
  ["npx eslint src", "/p/eslint.config.js"],
  [".venv/bin/python tools/hook.py", "/p/.venv/lib/python3.12/site-packages/x.pth"],
  ["python3 tools/hook.py", "/h/.local/lib/python3.12/site-packages/x.pth"],
  ["node -r ./tools/hook -e 1", "/p/tools/hook.js"],
  ["python3 -c 'import hookcheck; hookcheck.run()'", "/p/hookcheck.py"],
  ["flock /tmp/rt8-hook.lock sh tools/pre-bash", "/p/tools/pre-bash"],
  ["nodejs tools/pre-hook", "/p/tools/pre-hook"],
];

describe("rt8: what programs load by convention", () => {
  it.each(RT8)("%s runs %s", (command, file) => {
    expect(guarded([[command]], file)).toBe(true);
  });
});
