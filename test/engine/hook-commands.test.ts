// The files Claude Code's command hooks run, from a settings object (src/engine/hook-commands.ts).
import { describe, expect, it } from "vitest";
import { hookCommands, hookFiles, MAX_HOOK_COMMANDS } from "../../src/engine/hook-commands.js";

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
});
