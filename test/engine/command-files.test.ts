// Issue 31, fourth red-team pass: the forms a command line runs a file in that the third reading missed, and the words it
// guarded that run nothing (src/engine/command-files.ts, program-files.ts).
import { describe, expect, it } from "vitest";
import { hookFiles } from "../../src/engine/command-files.js";
import { hookCommands, mcpServerCommands } from "../../src/engine/hook-commands.js";

const places = { projectDir: "/p", home: "/h", pluginRoot: "/plug" };
const files = (...commands: string[]) =>
  hookFiles(
    commands.map((c) => [c]),
    places,
  );

describe("a program is known by its base name, with or without a version", () => {
  it("a shell or an interpreter named by its path runs its first operand", () => {
    expect(files("/bin/sh tools/a", "/usr/local/bin/node tools/b", "/usr/bin/python3.12 c", "ksh93 d")).toEqual([
      "/bin/sh",
      "/p/tools/a",
      "/usr/local/bin/node",
      "/p/tools/b",
      "/usr/bin/python3.12",
      "/p/c",
      "/p/d",
    ]);
  });

  it("/usr/bin/env runs the program after its options; -S splits its string into words", () => {
    expect(files("/usr/bin/env bash tools/a", "env -u X -i node b", "/usr/bin/env -S 'python3 -u' c")).toEqual([
      "/p/tools/a",
      "/p/b",
      "/p/c",
    ]);
  });

  it("an MCP server started by Node's full path, or through env", () => {
    const config = {
      mcpServers: { a: { command: "/opt/node/bin/node", args: ["tools/srv"] }, b: { command: "/usr/bin/env", args: ["node", "s2"] } },
    };
    expect(hookFiles(mcpServerCommands(config), places)).toEqual(["/opt/node/bin/node", "/p/tools/srv", "/p/s2"]);
  });
});

describe("what a pipe feeds a shell or an interpreter", () => {
  it("the files the feeding command reads are the script; echo's text is a command line", () => {
    expect(files("cat tools/a | sh", "cat b | bash -s -- arg", "cat c | python3 -", "echo 'sh tools/d' | sh", "ls | xargs node")).toEqual([
      "/p/tools/a",
      "/p/b",
      "/p/c",
      "/p/tools/d",
    ]);
  });

  it("a shell that names its script, or runs a -c string, is not fed by the pipe", () => {
    expect(files("cat log | sh tools/a", "cat log | sh -c 'true'")).toEqual(["/p/tools/a"]);
  });
});

describe("options that take a value", () => {
  it("a shell's -o, -O, +o and combined -eo take the next word; --rcfile loads a file", () => {
    expect(files("bash -o pipefail a", "bash -eo pipefail b", "bash +O extglob c", "bash --rcfile rc -i")).toEqual([
      "/p/a",
      "/p/b",
      "/p/c",
      "/p/rc",
    ]);
  });

  it("an interpreter's -X, -W, -I, -d take a value; ruby -C moves only ruby; php -f is the script", () => {
    expect(files("python3 -X dev -W error a", "ruby -I lib -C tools b", "perl -I lib c", "php -d x=1 -f d", "sh e")).toEqual([
      "/p/a",
      "/p/tools/b",
      "/p/c",
      "/p/d",
      "/p/e",
    ]);
  });
});

describe("the shell's grammar", () => {
  it("reserved words and groups come before the command they run", () => {
    expect(files("if true; then sh a; fi", "{ sh b; }", "! sh c; true", "while true; do bash d; done")).toEqual([
      "/p/a",
      "/p/b",
      "/p/c",
      "/p/d",
    ]);
  });

  it("a cd in a ( … ) subshell or a $( … ) stays there; one in { … } moves the rest", () => {
    expect(files("(cd tools && true); sh a", "x=$(cd tools; pwd); sh b", "{ cd tools; }; sh c")).toEqual(["/p/a", "/p/b", "/p/tools/c"]);
  });

  it("a newline ends a command, a backslash before it continues one; a backquote opens a command", () => {
    expect(files("sh a\nsh b", "sh \\\n  c", "x=`sh d`")).toEqual(["/p/a", "/p/b", "/p/c", "/p/d"]);
  });

  it("env -C moves only the command it runs", () => {
    expect(files("env -C tools sh a; sh b")).toEqual(["/p/tools/a", "/p/b"]);
  });
});

describe("words that run nothing are not guarded", () => {
  it("a glob of sources a formatter or linter reads", () => {
    expect(files("npx prettier --write 'src/**/*.ts'", "ruff check --fix src/*.py")).toEqual([]);
  });

  it("a file with a script's name that the command runs stays guarded (pytest imports it)", () => {
    expect(files("pytest -q tests/test_app.py")).toEqual(["/p/tests/test_app.py"]);
  });
});

describe("every setting Claude Code 2.1.328 runs as a command", () => {
  it("status lines, file suggestion, the credential helpers, the process wrapper, and policy helpers' paths and interpreters", () => {
    const settings = {
      subagentStatusLine: { type: "command", command: "sh tools/a.sh" },
      fileSuggestion: { type: "command", command: "tools/b" },
      gcpAuthRefresh: "sh tools/c",
      proxyAuthHelper: "tools/d",
      processWrapper: "/opt/wrap/launch --flag",
      policyHelper: { path: "/opt/policy/helper" },
      policyHelpers: { linux: { script: "echo {}", interpreter: "/opt/policy/sh" }, default: { x: 1 } },
    };
    expect(hookFiles(hookCommands(settings), places)).toEqual([
      "/p/tools/b",
      "/p/tools/c",
      "/opt/wrap/launch",
      "/p/tools/d",
      "/p/tools/a.sh",
      "/opt/policy/helper",
      "/opt/policy/sh",
    ]);
  });
});

// Sixth red-team pass: a script named as a descriptor, and env's other spellings of -S.
describe("a script read from a descriptor, and env -S spelled otherwise", () => {
  it("/dev/stdin, /dev/fd/0 and /proc/self/fd/0 are what feeds it; /dev/fd/3 is what `3<` opened", () => {
    expect(
      files(
        "bash /dev/stdin < a",
        "sh /proc/self/fd/0 < b",
        "cat c | bash /dev/fd/0",
        "exec 3<d; sh /dev/fd/3",
        "python3 /dev/stdin < e.py",
      ),
    ).toEqual(["/p/a", "/p/b", "/p/c", "/p/d", "/p/e.py"]);
  });

  it("env -S'…', env -vS '…' and env --split-string=… split their string into the command", () => {
    expect(files("env -S'bash a'", "env -vS 'bash b'", "env --split-string='bash c'", "env --split-string 'bash d'")).toEqual([
      "/p/a",
      "/p/b",
      "/p/c",
      "/p/d",
    ]);
  });
});

describe("the command a runner's `run` runs", () => {
  it("uv run, npx and pnpm exec run the command after them; a command named as a file is one in the runner's folder", () => {
    const found = files("npx tsx tools/a.ts", "npx -y node b", "uv run --directory t python c", "pnpm exec node d", "uv run e.py");
    expect(found).toEqual([
      "/p/tools/a.ts",
      "/p/b",
      "/p/t/c",
      "/p/t/pyproject.toml",
      "/p/d",
      "/p/package.json",
      "/p/e.py",
      "/p/pyproject.toml",
    ]);
  });
});

describe("commands nested in commands", () => {
  it("are read to a bounded depth: a line of a thousand runners takes no deeper stack than sixteen", () => {
    expect(files(`${"npx ".repeat(1000)}node a`)).toEqual([]);
    expect(files(`${"npx ".repeat(15)}node a`)).toEqual(["/p/a"]);
  });
});
