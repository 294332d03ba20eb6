import { parseAsClaudeCode, splitAsClaudeCode, type ParseYaml } from "./claude-frontmatter.js";

/**
 * What loading a skill or command file does, from its text alone (SPEC §6:
 * a call is judged by what it can do, not by its name). Claude Code 2.1.328,
 * when the Skill tool loads a file (docs/claude-code-facts.md):
 *
 * - runs shell commands written into its body: a line part `` !`cmd` ``
 *   (the `!` at the start of a line or after a blank) and a fenced block
 *   opened by ```` ```! ````, each through the Bash tool's machinery, with no
 *   PreToolUse hook of its own. The arguments (`$ARGUMENTS`, `$1`, `$name`,
 *   `${CLAUDE_SKILL_DIR}`, …) are filled in before: their own `!` and
 *   backticks are escaped, but a body such as `` !`$ARGUMENTS` `` or
 *   `!$ARGUMENTS` runs whatever the call passes.
 * - runs the skill in a new subagent when its frontmatter says
 *   `context: fork` (exactly that string, as Claude Code's YAML reads it),
 *   of the agent type its `agent:` names (general-purpose by default).
 *
 * - registers the hooks its frontmatter's `hooks:` names, for as long as the
 *   skill is active: commands Claude Code runs on its own events, outside
 *   any gate (`registersHooks`); and reads keys that may start processes
 *   (`mcpServers`, `lspServers`, `monitors`, `channels`, `workflows`,
 *   `agents`, `settings`: marked internal in 2.1.328's schema): counted as
 *   running commands.
 *
 * A fork that also runs shell is `delegate`: the shell runs in the forked
 * agent's turn, whose own calls the agent's own scope gates, and `delegate`
 * is what the launching scope pays for. Where the text leaves a doubt, the
 * more demanding reading wins.
 */

export type SkillClass = "neutral" | "tool_call" | "delegate";

export interface SkillEffect {
  /** Loading it may run shell commands. */
  runsShell: boolean;
  /** The commands Claude Code itself would find in the body as written (for messages; `runsShell` is wider). */
  commands: string[];
  /** Loading it starts a subagent. */
  forks: boolean;
  /** The agent type a fork runs as, when the frontmatter names one. */
  agent?: string;
  /** Its frontmatter registers hooks (or could: a block only this parser fails on). */
  registersHooks: boolean;
  /** Frontmatter keys that may start processes when it loads. */
  starts: string[];
  class: SkillClass;
}

const FENCED = /```!\s*\n?([\s\S]*?)\n?```/g;
const INLINE = /(?<=^|\s)!`([^`]+)`/gm;

/** Inline code spans, blanked unless a `!` or a backtick comes right before them: Claude Code's guard against `` `a` !`b` `` pairing wrongly. */
function blankPlainCode(text: string): string {
  return text.replace(/`[^`\n]+`/g, (span, at: number) => {
    const before = text[at - 1];
    return before === "!" || before === "`" ? span : `\`${" ".repeat(span.length - 2)}\``;
  });
}

/** The shell commands Claude Code 2.1.328 runs when it loads `text` (a loaded skill's text, after its arguments are filled in). */
export function shellCommandsAsClaudeCode(text: string): string[] {
  const fenced = [...text.matchAll(FENCED)];
  const inline = text.includes("!`") ? [...blankPlainCode(text).matchAll(INLINE)] : [];
  return [...fenced, ...inline].map((m) => (m[1] ?? "").trim()).filter((command) => command !== "");
}

/** A placeholder Claude Code fills in: `$ARGUMENTS`, `$ARGUMENTS[0]`, `$1`, `$name`, `${CLAUDE_SKILL_DIR}`. */
const PLACEHOLDER = String.raw`\$(?:\{[^}\n]*\}|\w+(?:\[\d+\])?)`;

/**
 * Text that may run shell once filled in, whatever the arguments: an opener
 * (```` ```! ```` or `` !` ``) with or without its closing (the arguments may
 * bring it), or a `!` right before or after a placeholder (the arguments may
 * bring the backticks, or the blank a `!` needs before it).
 */
const MAY_RUN_SHELL = new RegExp(String.raw`\`\`\`!|!\`|!${PLACEHOLDER}|${PLACEHOLDER}!`);

/** Whether loading a body may run shell commands, for any arguments. `folder` is the skill's folder: Claude Code writes it above the body and fills it into `${CLAUDE_SKILL_DIR}`. */
export function mayRunShell(body: string, folder?: string): boolean {
  // Every command Claude Code finds (shellCommandsAsClaudeCode) needs an opener, which this pattern counts.
  return MAY_RUN_SHELL.test(body) || /[!`]/.test(folder ?? "");
}

/** Whether the frontmatter block could hold `context: fork` at all: the key and the value are both in it, or an escape could spell them. */
function mayFork(block: string): boolean {
  const escapes = block.includes("\\");
  return (escapes || block.includes("context")) && (escapes || block.includes("fork"));
}

interface Fork {
  forks: boolean;
  agent?: string;
}

/** `context: fork` and the `agent:` it runs as, read as Claude Code reads them; a block only this parser fails on counts as a fork. */
function forkOf(block: string | undefined, parseYaml: ParseYaml): Fork {
  if (block === undefined || !mayFork(block)) return { forks: false };
  const parsed = parseAsClaudeCode(block, parseYaml);
  if (!parsed.ok) return { forks: true };
  const { context, agent } = parsed.data;
  if (context !== "fork") return { forks: false };
  return agent === null || agent === undefined ? { forks: true } : { forks: true, agent: String(agent) };
}

/** Frontmatter keys whose values Claude Code 2.1.328 may turn into processes or settings (its schema marks all but hooks internal). */
export const PROCESS_KEYS = ["mcpServers", "lspServers", "monitors", "channels", "workflows", "agents", "settings"] as const;

interface Runs {
  registersHooks: boolean;
  starts: string[];
}

/** Whether the block could name a key of `keys` at all (or spell one with an escape). */
function mayName(block: string, keys: readonly string[]): boolean {
  return block.includes("\\") || keys.some((k) => block.includes(k));
}

/** `hooks:` and the process-starting keys, as Claude Code reads the block; a block only this parser fails on registers hooks. */
function runsOf(block: string | undefined, parseYaml: ParseYaml): Runs {
  if (block === undefined || !mayName(block, ["hooks", ...PROCESS_KEYS])) return { registersHooks: false, starts: [] };
  const parsed = parseAsClaudeCode(block, parseYaml);
  if (!parsed.ok) return { registersHooks: true, starts: [] };
  const present = (key: string) => Object.hasOwn(parsed.data, key) && parsed.data[key] !== null && parsed.data[key] !== undefined;
  return { registersHooks: present("hooks"), starts: PROCESS_KEYS.filter(present) };
}

export interface SkillTextOptions {
  /** The YAML parser; called only when the frontmatter could ask for a fork. */
  parseYaml: ParseYaml;
  /** The folder the file is loaded from as a skill (its "Base directory"). */
  folder?: string;
}

/** What loading this skill or command file does, and the action it counts as. */
export function skillEffect(text: string, options: SkillTextOptions): SkillEffect {
  const { block, body } = splitAsClaudeCode(text);
  const runsShell = mayRunShell(body, options.folder);
  const fork = forkOf(block, options.parseYaml);
  const runs = runsOf(block, options.parseYaml);
  const commands = shellCommandsAsClaudeCode(body);
  const runsCommands = runsShell || runs.registersHooks || runs.starts.length > 0;
  return { runsShell, commands, ...fork, ...runs, class: fork.forks ? "delegate" : runsCommands ? "tool_call" : "neutral" };
}

const DEMAND: Record<SkillClass, number> = { neutral: 0, tool_call: 1, delegate: 2 };

/** Of several files a name could load, the most demanding class wins. */
export function mostDemanding(classes: readonly SkillClass[]): SkillClass {
  return classes.reduce<SkillClass>((a, b) => (DEMAND[b] > DEMAND[a] ? b : a), "neutral");
}

/**
 * Claude Code 2.1.328's built-in skills the Skill tool loads, as seen by
 * calling each in a scripted session (docs/claude-code-facts.md):
 * security-review runs `git` commands as it loads; code-review and review
 * run in a forked subagent; the rest only load text. Names the Skill tool
 * refuses (batch, debug, verify, insights, statusline: user-only; compact:
 * a CLI command) load nothing.
 */
export const BUILT_IN_SKILLS: Readonly<Record<string, SkillClass>> = {
  "security-review": "tool_call",
  "code-review": "delegate",
  review: "delegate",
  "update-config": "neutral",
  dataviz: "neutral",
  "keybindings-help": "neutral",
  simplify: "neutral",
  "fewer-permission-prompts": "neutral",
  loop: "neutral",
  "claude-api": "neutral",
  "workflow-authoring": "neutral",
  run: "neutral",
  "plugin-authoring": "neutral",
  init: "neutral",
  batch: "neutral",
  debug: "neutral",
  verify: "neutral",
  insights: "neutral",
  statusline: "neutral",
  compact: "neutral",
};

/** The built-in skill of that name, if Claude Code 2.1.328 has one. */
export function builtInSkill(name: string): SkillClass | undefined {
  return Object.hasOwn(BUILT_IN_SKILLS, name) ? BUILT_IN_SKILLS[name] : undefined;
}
