/**
 * What loading a skill does (src/engine/skill-effect.ts). The shell syntax is
 * Claude Code 2.1.328's own (its regular expressions, read in the binary) and
 * each case marked "seen" ran, or did not, in the real client.
 */
import { describe, expect, it } from "vitest";
import {
  BUILT_IN_SKILLS,
  builtInSkill,
  mayRunShell,
  mostDemanding,
  shellCommandsAsClaudeCode,
  skillEffect,
} from "../../src/engine/skill-effect.js";
import { parseYamlBlock } from "../../src/optin/read.js";

const skill = (front: string, body: string) => `---\nname: s\ndescription: d\n${front}---\n${body}`;
const effect = (text: string, folder?: string) => skillEffect(text, { parseYaml: parseYamlBlock, ...(folder ? { folder } : {}) });
const neverParse = () => {
  throw new Error("parsed");
};

describe("shellCommandsAsClaudeCode: what Claude Code runs as it loads a text", () => {
  it("runs `!` then a backquoted command at a line's start or after a blank (seen)", () => {
    expect(shellCommandsAsClaudeCode("Status: !`git status`\n!`date`")).toEqual(["git status", "date"]);
  });

  it("runs a fenced block opened with ```! (seen)", () => {
    expect(shellCommandsAsClaudeCode("Text\n```!\nls -la\n```\n")).toEqual(["ls -la"]);
  });

  it("does not run `!` glued to a word (seen), an empty command, or a `!` inside plain code", () => {
    expect(shellCommandsAsClaudeCode("x!`touch m`")).toEqual([]);
    expect(shellCommandsAsClaudeCode("!` `")).toEqual([]);
    expect(shellCommandsAsClaudeCode("`a !` b`")).toEqual([]);
  });

  it("blanks plain code spans first, so `a` !`b` runs b, not ` !`", () => {
    expect(shellCommandsAsClaudeCode("`a` !`b`")).toEqual(["b"]);
    // A blanked span keeps its backquotes: `a`!`b` is no command (the ! follows a backquote).
    expect(shellCommandsAsClaudeCode("`a`!`b`")).toEqual([]);
    // A span right after a backquote is kept: ``a !`b` runs b.
    expect(shellCommandsAsClaudeCode("``a !`b`")).toEqual(["b"]);
  });

  it("at the very start of the text, and in a fenced block on one line, or with text after the opener", () => {
    expect(shellCommandsAsClaudeCode("!`x`")).toEqual(["x"]);
    expect(shellCommandsAsClaudeCode("```!ls```")).toEqual(["ls"]);
    expect(shellCommandsAsClaudeCode("```!\nls```")).toEqual(["ls"]);
    expect(shellCommandsAsClaudeCode("```!x\nls\n```")).toEqual(["x\nls"]);
  });
});

describe("mayRunShell: for any arguments", () => {
  it("counts what Claude Code runs as written", () => {
    expect(mayRunShell("Out: !`$ARGUMENTS`")).toBe(true);
    expect(mayRunShell("```!\nls\n```")).toBe(true);
  });

  it("counts openers whose closing the arguments may bring (seen: !$ARGUMENTS with args `cmd`, !`$ARGUMENTS with args cmd`)", () => {
    expect(mayRunShell("Run !$ARGUMENTS")).toBe(true);
    expect(mayRunShell("Run !`$ARGUMENTS")).toBe(true);
    expect(mayRunShell("Run !$1 and !${CLAUDE_SKILL_DIR}")).toBe(true);
    expect(mayRunShell("x $ARGUMENTS! y")).toBe(true);
    expect(mayRunShell("x $ARGUMENTS[0]!`y`")).toBe(true);
    expect(mayRunShell("```!")).toBe(true);
  });

  it("counts a folder Claude Code writes above the body, or fills in, that holds ! or a backquote", () => {
    expect(mayRunShell("plain", "/p/.claude/skills/a !`id`")).toBe(true);
    expect(mayRunShell("plain", "/p/.claude/skills/a!")).toBe(true);
    expect(mayRunShell("plain", "/p/.claude/skills/plain")).toBe(false);
  });

  it("does not count plain text, code, or a ! apart from backquotes and placeholders", () => {
    expect(mayRunShell("Hello! Use `git status` and $ARGUMENTS.\n```sh\nls\n```")).toBe(false);
  });
});

describe("skillEffect: what its frontmatter makes Claude Code run", () => {
  const hooks = 'hooks:\n  PreToolUse:\n    - matcher: "Bash"\n      hooks:\n        - type: command\n          command: "touch m"\n';

  it("a hooks block registers hooks: tool_call, even with a body that only loads text", () => {
    expect(effect(skill(hooks, "Just text."))).toMatchObject({ registersHooks: true, starts: [], class: "tool_call" });
  });

  it("keys that may start processes are tool_call, named", () => {
    expect(effect(skill("mcpServers:\n  x:\n    command: node\n", "x"))).toMatchObject({ starts: ["mcpServers"], class: "tool_call" });
    expect(effect(skill("monitors: []\nsettings: {}\n", "x"))).toMatchObject({ starts: ["monitors", "settings"] });
  });

  it("an empty or null hooks key registers nothing; the word hooks in a value is no key", () => {
    expect(effect(skill("hooks:\n", "x"))).toMatchObject({ registersHooks: false, class: "neutral" });
    expect(effect(skill("description2: about hooks\n", "x"))).toMatchObject({ registersHooks: false, class: "neutral" });
  });

  it("a block that names hooks but only this reader fails on counts as registering them", () => {
    expect(effect(skill("hooks: [\n  bad\n", "x"))).toMatchObject({ registersHooks: true, class: "tool_call" });
  });

  it("a fork that registers hooks stays delegate", () => {
    expect(effect(skill(`context: fork\n${hooks}`, "x"))).toMatchObject({ forks: true, registersHooks: true, class: "delegate" });
  });
});

describe("skillEffect", () => {
  it("a body that only loads text is neutral; the YAML reader is not even called without context or fork in the block", () => {
    expect(skillEffect(skill("", "Just text."), { parseYaml: neverParse })).toEqual({
      runsShell: false,
      commands: [],
      forks: false,
      registersHooks: false,
      starts: [],
      class: "neutral",
    });
  });

  it("a body that runs shell is tool_call, with the commands Claude Code finds", () => {
    expect(effect(skill("", "Out: !`$ARGUMENTS`"))).toMatchObject({ runsShell: true, commands: ["$ARGUMENTS"], class: "tool_call" });
  });

  it("context: fork is delegate, with a comment or quotes (seen), and the agent it names", () => {
    expect(effect(skill("context: fork # run apart\n", "x"))).toEqual({
      runsShell: false,
      commands: [],
      forks: true,
      registersHooks: false,
      starts: [],
      class: "delegate",
    });
    expect(effect(skill('context: "fork"\nagent: Explore\n', "x"))).toMatchObject({ forks: true, agent: "Explore", class: "delegate" });
    expect(effect(skill("context: fork\nagent: 3\n", "x"))).toMatchObject({ agent: "3" });
  });

  it("a fork that also runs shell is delegate", () => {
    expect(effect(skill("context: fork\n", "!`ls`"))).toMatchObject({ runsShell: true, forks: true, class: "delegate" });
  });

  it("reads context as Claude Code does: cut by an inline --- it is no fork (seen); after a lossy line it is (seen)", () => {
    expect(effect("---\nname: s\ndescription: a---b\ncontext: fork\n---\nx").forks).toBe(false);
    expect(effect(skill("description: foo: bar\ncontext: fork\n", "x")).forks).toBe(true);
  });

  it("other values of context, and the word fork elsewhere, are no fork", () => {
    expect(effect(skill("context: inline\nsummary: fork in the road\n", "x")).forks).toBe(false);
    expect(effect(skill("context: Fork\n", "x")).forks).toBe(false);
    expect(effect("no frontmatter, context: fork").forks).toBe(false);
  });

  it("the YAML reader is called only when the block holds both context and fork, or an escape", () => {
    expect(skillEffect(skill("context: inline\n", "x"), { parseYaml: neverParse }).forks).toBe(false);
    expect(skillEffect(skill("summary: fork\n", "x"), { parseYaml: neverParse }).forks).toBe(false);
  });

  it("an empty agent: names none", () => {
    expect(effect(skill("context: fork\nagent:\n", "x"))).toEqual({
      runsShell: false,
      commands: [],
      forks: true,
      registersHooks: false,
      starts: [],
      class: "delegate",
    });
  });

  it("an escape may spell context or fork: the block is read", () => {
    expect(effect(skill('"cont\\x65xt": "\\x66ork"\n', "x")).forks).toBe(true);
  });

  it("a block this reader cannot parse but that may hold context: fork counts as a fork", () => {
    expect(effect(skill("context: fork\n  bad: indent\n", "x"))).toMatchObject({ forks: true, class: "delegate" });
    expect(skillEffect(skill("context: fork\n", "x"), { parseYaml: neverParse }).forks).toBe(true);
    // js-yaml refuses a key given twice, where another YAML reader may keep the last: counted as a fork.
    expect(effect(skill("context: inline\ncontext: fork\n", "x")).forks).toBe(true);
  });

  it("passes the folder on", () => {
    expect(effect(skill("", "x"), "/a/b !`id`").class).toBe("tool_call");
  });
});

describe("mostDemanding and the built-in skills", () => {
  it("delegate over tool_call over neutral; none is neutral", () => {
    expect(mostDemanding([])).toBe("neutral");
    expect(mostDemanding(["neutral", "tool_call", "neutral"])).toBe("tool_call");
    expect(mostDemanding(["tool_call", "delegate", "neutral"])).toBe("delegate");
    expect(mostDemanding(["delegate", "tool_call"])).toBe("delegate");
  });

  it("knows what 2.1.328's built-ins do (seen by calling each)", () => {
    expect(builtInSkill("security-review")).toBe("tool_call");
    expect(builtInSkill("code-review")).toBe("delegate");
    expect(builtInSkill("review")).toBe("delegate");
    for (const name of [
      "update-config",
      "dataviz",
      "keybindings-help",
      "simplify",
      "fewer-permission-prompts",
      "loop",
      "claude-api",
      "workflow-authoring",
      "run",
      "plugin-authoring",
      "init",
      "batch",
      "debug",
      "verify",
      "insights",
      "statusline",
      "compact",
    ])
      expect(builtInSkill(name), name).toBe("neutral");
    expect(builtInSkill("nope")).toBeUndefined();
    expect(builtInSkill("constructor")).toBeUndefined();
    expect(Object.keys(BUILT_IN_SKILLS).length).toBeGreaterThan(10);
  });
});
