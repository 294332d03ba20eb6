// The files Claude Code's command hooks run, from a settings object (src/engine/hook-commands.ts).
import { describe, expect, it } from "vitest";
import { hookCommands, hookFiles, MAX_HOOK_COMMANDS, mcpServerCommands } from "../../src/engine/hook-commands.js";

const places = { projectDir: "/p", home: "/h", pluginRoot: "/plug" };
const settings = (...hooks: unknown[]) => ({ hooks: { PreToolUse: [{ matcher: "Bash", hooks }] } });

describe("hookCommands", () => {
  it("reads every command hook's command and args, of every event and group; other hooks and shapes give none", () => {
    const s = {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: "command", command: "sh a.sh" },
              { type: "mcp_tool", server: "x" },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: "command", command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/s.js", 3] }] }, "junk"],
        Bad: "not a list",
      },
    };
    expect(hookCommands(s)).toEqual([["sh a.sh"], ["node", "${CLAUDE_PLUGIN_ROOT}/s.js"]]);
    expect(hookCommands(null)).toEqual([]);
    expect(hookCommands({ hooks: [] })).toEqual([]);
  });

  it("reads at most MAX_HOOK_COMMANDS", () => {
    const many = Array.from({ length: MAX_HOOK_COMMANDS + 5 }, (_, i) => ({ type: "command", command: `c${i}` }));
    expect(hookCommands(settings(...many))).toHaveLength(MAX_HOOK_COMMANDS);
  });
});

describe("hookFiles", () => {
  it("the files a command names: the project's variable and ~ filled in, quotes taken off, relative ones from the project", () => {
    const commands = [
      ['sh "$CLAUDE_PROJECT_DIR/tools/pre bash.sh"'],
      ["python3 ${CLAUDE_PROJECT_DIR}/a.py && ./b.sh | tee ~/log/x"],
      ["node", "${CLAUDE_PLUGIN_ROOT}/dist/s.js"],
      ["scripts/fmt.js --fix"],
    ];
    expect(hookFiles(commands, places)).toEqual([
      "/p/tools/pre bash.sh",
      "/p/a.py",
      "/p/b.sh",
      "/h/log/x",
      "/plug/dist/s.js",
      "/p/scripts/fmt.js",
    ]);
  });

  it("plain words, options and addresses are no files", () => {
    expect(hookFiles([["echo hello --flag=1 && true"], ["curl https://example.test/x"]], places)).toEqual([]);
  });

  // Issue 31, second red-team pass: forms of a hook command that named a script the guard did not find, or that
  // guarded the whole project.
  it("a `cd` moves where the words after it are read from, across && (the shell keeps its folder)", () => {
    expect(hookFiles([["cd tools && sh pre-bash.sh"]], places)).toEqual(["/p/tools/pre-bash.sh"]);
    expect(hookFiles([['cd "$CLAUDE_PROJECT_DIR/x" ; ./run.sh']], places)).toEqual(["/p/x/run.sh"]);
  });

  it("$HOME and ${HOME} are the home folder; a word holding another variable cannot be read and is left", () => {
    expect(hookFiles([["sh $HOME/tools/pre-bash.sh"], ["sh ${HOME}/b.sh"], ["sh $OTHER/c.sh"]], places)).toEqual([
      "/h/tools/pre-bash.sh",
      "/h/b.sh",
    ]);
  });

  it('quoted and bare parts of one word run together, as the shell reads them: "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh', () => {
    expect(hookFiles([['"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh']], places)).toEqual(["/p/.claude/hooks/check.sh"]);
  });

  it("a folder that holds the project or the home is never guarded: that would refuse every write", () => {
    expect(hookFiles([['cd "$CLAUDE_PROJECT_DIR" && ls "$CLAUDE_PROJECT_DIR" / ~ /p/']], places)).toEqual([]);
  });

  it("a runner is guarded by the file that says what it runs, in the folder it runs in", () => {
    expect(hookFiles([['cd "$CLAUDE_PROJECT_DIR" && npm run lint --silent'], ["cd web && make check"]], places)).toEqual([
      "/p/package.json",
      "/p/web/Makefile",
    ]);
    // npx runs a package, not the project's scripts; a runner's name as an argument is a plain word.
    expect(hookFiles([["npx -y prettier --check ."], ["echo npm"]], places)).toEqual([]);
  });
});

describe("the other commands Claude Code runs by itself", () => {
  it("a settings object's status line", () => {
    expect(hookCommands({ statusLine: { type: "command", command: "sh ~/.config/line.sh" } })).toEqual([["sh ~/.config/line.sh"]]);
  });

  it("the MCP servers of an mcpServers object, command and args; http servers run nothing", () => {
    const config = { mcpServers: { a: { command: "node", args: ["tools/server.mjs"] }, b: { type: "http", url: "https://x.test" } } };
    expect(mcpServerCommands(config)).toEqual([["node", "tools/server.mjs"]]);
    expect(hookFiles(mcpServerCommands(config), places)).toEqual(["/p/tools/server.mjs"]);
    expect(mcpServerCommands({ mcpServers: [] })).toEqual([]);
    expect(mcpServerCommands(null)).toEqual([]);
  });
});
