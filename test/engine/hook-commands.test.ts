// The files the commands Claude Code runs by itself name: from settings and MCP configuration (src/engine/hook-commands.ts) to files (src/engine/command-files.ts, program-files.ts).
import { describe, expect, it } from "vitest";
import { hookFiles } from "../../src/engine/command-files.js";
import { hookCommands, mcpServerCommands } from "../../src/engine/hook-commands.js";

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
    // A hook's `args` reach no shell: each is quoted into one command line.
    expect(hookCommands(s)).toEqual([["sh a.sh"], ["node '${CLAUDE_PLUGIN_ROOT}/s.js'"]]);
    expect(hookCommands(null)).toEqual([]);
    expect(hookCommands({ hooks: [] })).toEqual([]);
  });

  it("reads every command, however many (red team 7: the 257th ran unread)", () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ type: "command", command: `c${i}` }));
    expect(hookCommands(settings(...many))).toHaveLength(300);
    expect(hookCommands(settings(...many)).at(-1)).toEqual(["c299"]);
  });
});

describe("hookFiles", () => {
  it("the files a command runs: the project's variable and ~ filled in, quotes taken off, relative ones from the project; a file it only writes is none", () => {
    const commands = [
      ['sh "$CLAUDE_PROJECT_DIR/tools/pre bash.sh"'],
      ["python3 ${CLAUDE_PROJECT_DIR}/a.py && ./b.sh | tee ~/log/x"],
      ["node", "${CLAUDE_PLUGIN_ROOT}/dist/s.js"],
      ["scripts/fmt.js --fix"],
    ];
    expect(hookFiles(commands, places)).toEqual(["/p/tools/pre bash.sh", "/p/a.py", "/p/b.sh", "/plug/dist/s.js", "/p/scripts/fmt.js"]);
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
      "/p/web/makefile",
      "/p/web/GNUmakefile",
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
    expect(mcpServerCommands(config)).toEqual([["node 'tools/server.mjs'"]]);
    expect(hookFiles(mcpServerCommands(config), places)).toEqual(["/p/tools/server.mjs"]);
    expect(mcpServerCommands({ mcpServers: [] })).toEqual([]);
    expect(mcpServerCommands(null)).toEqual([]);
  });
});

// Issue 31, third red-team pass: forms a command runs a file in that the second reading missed.
describe("the forms a command runs a file in", () => {
  const files = (...commands: string[]) =>
    hookFiles(
      commands.map((c) => [c]),
      places,
    );

  it("a -c string is read as a command line, in its own folder", () => {
    expect(files("bash -c 'sh tools/pre-bash.sh'", `sh -lc "cd tools && ./run"`)).toEqual(["/p/tools/pre-bash.sh", "/p/tools/run"]);
  });

  it("cd with options, pushd, and env -C move the folder", () => {
    expect(files("cd -P tools && sh a", "pushd tools >/dev/null && sh b", "env -C tools sh c", "env --chdir=tools FOO=1 sh d")).toEqual([
      "/p/tools/a",
      "/p/tools/b",
      "/p/tools/c",
      "/p/tools/d",
    ]);
  });

  it("a shell's or an interpreter's first operand is its script, with or without an extension; its own args are not", () => {
    expect(files("sh pre-bash", "node --no-warnings tools/x arg.txt", "python3 -u check", "deno run -A tools/t.ts", "ruby -w r")).toEqual([
      "/p/pre-bash",
      "/p/tools/x",
      "/p/check",
      "/p/deno.json",
      "/p/deno.jsonc",
      "/p/package.json",
      "/p/tools/t.ts",
      "/p/r",
    ]);
  });

  it("python -m names its module's file and folder; -c and -e are code, not files", () => {
    expect(files("python3 -m tools.prebash", "python3 -c 'print(1)'", "node -e 'x'")).toEqual(["/p/tools/prebash.py", "/p/tools/prebash"]);
  });

  it("what Node loads: --require, --import, node --run's manifest, NODE_OPTIONS before a command", () => {
    expect(files("node -r ./boot.cjs s.js", "node --import=./l.mjs", "node --run lint", "NODE_OPTIONS='--require ./h.cjs' npx x")).toEqual([
      "/p/boot.cjs",
      "/p/s.js",
      "/p/l.mjs",
      "/p/package.json",
      "/p/h.cjs",
    ]);
  });

  it("${VAR:-default} takes the default, $PWD is the folder the command is in; a variable it is not given is not guessed", () => {
    expect(files("sh ${CLAUDE_PROJECT_DIR:-.}/a.sh", "sh ${NOPE:-tools}/b.sh", "cd t && sh $PWD/c.sh", "sh $NOPE/d.sh")).toEqual([
      "/p/a.sh",
      "/p/tools/b.sh",
      "/p/t/c.sh",
    ]);
  });

  it("a glob guards the folder it lists, never the project itself", () => {
    expect(files("sh tools/pre-b*.sh", "sh *.sh")).toEqual(["/p/tools"]);
  });

  it("a folder a formatter or linter reads is no file it runs: the project's sources stay writable", () => {
    expect(files(`npx prettier --write "$CLAUDE_PROJECT_DIR"/src`, "eslint --fix src/ 2>/dev/null", "git -C src status")).toEqual([]);
  });

  it("wrappers run the command after them: exec, xargs, nohup, timeout", () => {
    expect(files("exec sh a.sh", "echo x | xargs -0 sh b", "timeout 5 node c")).toEqual(["/p/a.sh", "/p/b", "/p/c"]);
  });
});

describe("the settings that run commands besides hooks", () => {
  it("credential and telemetry helpers, and NODE_OPTIONS in env", () => {
    const settings = { apiKeyHelper: "sh tools/key.sh", otelHeadersHelper: "tools/h", env: { NODE_OPTIONS: "--require=/abs/x.cjs" } };
    expect(hookFiles(hookCommands(settings), places)).toEqual(["/p/tools/key.sh", "/p/tools/h", "/abs/x.cjs"]);
  });

  it("an MCP server's NODE_OPTIONS, uv's --directory, and the servers of the project's own entry in ~/.claude.json", () => {
    const config = {
      mcpServers: { a: { command: "node", args: ["s.js"], env: { NODE_OPTIONS: "-r ./tools/boot.cjs" } } },
      projects: {
        "/p": { mcpServers: { b: { command: "uv", args: ["run", "--directory", "tools", "server.py"] } } },
        "/q": { mcpServers: { c: { command: "sh", args: ["q.sh"] } } },
      },
    };
    expect(hookFiles(mcpServerCommands(config, "/p"), places)).toEqual([
      "/p/s.js",
      "/p/tools/boot.cjs",
      "/p/tools/server.py",
      "/p/tools/pyproject.toml",
      // A script's name on the line is guarded where the line is, too (the reading stays on the safe side).
      "/p/server.py",
    ]);
  });
});
