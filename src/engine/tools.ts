import { isEndingAction, type Action } from "./vocabulary.js";

/** Tools that only read: what `retrieve` permits (SPEC §6). */
export const READ_ONLY_TOOLS = [
  "Read",
  "Grep",
  "Glob",
  "LS",
  "NotebookRead",
  "WebFetch",
  "WebSearch",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
] as const;

/** Tools that launch subagents (SPEC §6): each call may start one or, for Workflow, many. Agent budgets count them (SPEC §12). */
export const AGENT_LAUNCH_TOOLS = ["Agent", "Task", "Workflow"] as const;

/** What `delegate` permits: every tool that launches agents, and SendMessage, which talks to one and launches none. */
export const DELEGATE_TOOLS = [...AGENT_LAUNCH_TOOLS, "SendMessage"] as const;

/**
 * A call judged by what it can do, not by its tool's name (SPEC §6): a Skill
 * call whose skill runs shell as it loads acts as `tool_call`, one whose
 * skill forks a subagent as `delegate`. `why` says so in a refusal.
 */
export interface ActsAs {
  action: "tool_call" | "delegate";
  why: string;
}

/** Tools that only plan or load capabilities: never need a report, never refused. */
export const NEUTRAL_TOOLS = [
  "Skill",
  "TodoWrite",
  "TodoRead",
  "ToolSearch",
  "ExitPlanMode",
  "EnterPlanMode",
  "TaskCreate",
  "TaskUpdate",
  "TaskList",
  "TaskGet",
] as const;

/** Tools that read a background job's output: `retrieve` (and `verify`) permit them; never repeats (SPEC §6, §7). */
export const JOB_OUTPUT_TOOLS = ["BashOutput", "TaskOutput"] as const;

/** Tools that stop a background job: `tool_call`, not neutral (SPEC §6). */
export const JOB_STOP_TOOLS = ["KillShell", "TaskStop"] as const;

/** TaskStop's old names, which 2.1.328 still takes (a transcript keeps the name called; the hook is told TaskStop). */
export const JOB_STOP_NAMES = [...JOB_STOP_TOOLS, "KillBash"] as const;

/**
 * Tools that stop work, as Claude Code 2.1.328 offers them (docs/claude-code-facts.md):
 * TaskStop (a background shell, agent or monitor) by any of its names, and
 * CronDelete (a scheduled prompt). No budget ever refuses them (SPEC §12): a
 * model past its budget must be able to stop its own runaway job.
 */
export const WORK_STOP_TOOLS = [...JOB_STOP_NAMES, "CronDelete"] as const;

export function stopsWork(tool: string): boolean {
  return (WORK_STOP_TOOLS as readonly string[]).includes(tool);
}

/**
 * The plugin's own MCP server, as `.claude-plugin/plugin.json` names it: it
 * answers the hooks, and Claude Code names its tools
 * `mcp__plugin_<plugin>_<server>__<tool>` (docs/claude-code-facts.md).
 */
export const OWN_MCP_SERVER = "hooks";
const OWN_TOOL_PREFIX = `mcp__plugin_utility_${OWN_MCP_SERVER}__`;

/** A tool of the plugin's own server: the hooks' channel, never the model's, in every scope (SPEC §6). */
export function isOwnTool(tool: string): boolean {
  return tool.startsWith(OWN_TOOL_PREFIX);
}

/** Polling and bookkeeping: a second identical call is never a repeat (SPEC §7). */
export const POLLING_TOOLS = [...JOB_OUTPUT_TOOLS, "TodoWrite", "TaskList", "TaskGet", "TaskUpdate", "TaskCreate"] as const;

/** The writing tools and the input keys that name what they write. */
export const WRITING_TOOL_PATH_KEYS: Readonly<Record<string, readonly string[]>> = {
  Write: ["file_path"],
  Edit: ["file_path"],
  MultiEdit: ["file_path"],
  NotebookEdit: ["notebook_path"],
};

/**
 * Input fields that do not change what a call does, per tool: a label only
 * the screen shows, or a limit that at most cuts the run short (SPEC §7, §13).
 * A call is the same call whatever they say, so its digest leaves them out
 * (./redundancy.ts `callDigest`): a model cannot rerun a stuck command by
 * rewording its description. Claude Code 2.1.328 refuses any field its
 * schema does not name (InputValidationError, before PreToolUse), so the
 * other fields are all ones that change the call. Agent's description never
 * reaches the subagent; Workflow ignores its own; SendMessage's summary is
 * "not transmitted" (docs/claude-code-facts.md).
 */
export const COSMETIC_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Bash: ["description", "timeout"],
  Agent: ["description"],
  Task: ["description"],
  Workflow: ["description", "title"],
  Monitor: ["description"],
  SendMessage: ["summary"],
  ScheduleWakeup: ["reason"],
};

/** What a call does, as its input says: the input without the tool's cosmetic fields (the input itself when it has none). */
export function whatItDoes(tool: string, input: unknown): unknown {
  const cosmetic = Object.hasOwn(COSMETIC_FIELDS, tool) ? COSMETIC_FIELDS[tool]! : [];
  if (cosmetic.length === 0 || input === null || typeof input !== "object" || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([key]) => !cosmetic.includes(key)));
}

const TOOL_CALL_NAMED = ["Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", ...JOB_STOP_TOOLS] as const;

export type ExtraTools = Partial<Record<Action, readonly string[]>>;

const has = (list: readonly string[], tool: string) => list.includes(tool);

export function isNeutralTool(tool: string): boolean {
  return has(NEUTRAL_TOOLS, tool);
}

export function isReadOnlyTool(tool: string): boolean {
  return has(READ_ONLY_TOOLS, tool);
}

/** Does a call of `tool` launch subagents? (One definition for the gate, the budgets and the reducer.) */
export function launchesAgents(tool: string): boolean {
  return has(AGENT_LAUNCH_TOOLS, tool);
}

export function isPollingTool(tool: string): boolean {
  return has(POLLING_TOOLS, tool);
}

function namedByAnotherRow(tool: string): boolean {
  return (
    has(READ_ONLY_TOOLS, tool) || has(JOB_OUTPUT_TOOLS, tool) || has(DELEGATE_TOOLS, tool) || has(NEUTRAL_TOOLS, tool) || tool === "Bash"
  );
}

/** The default permission table, before a skill's or the user's extra names. */
function permitsByDefault(action: Action, tool: string): boolean {
  switch (action) {
    case "retrieve":
      return has(READ_ONLY_TOOLS, tool) || has(JOB_OUTPUT_TOOLS, tool);
    case "verify":
      return has(READ_ONLY_TOOLS, tool) || has(JOB_OUTPUT_TOOLS, tool) || tool === "Bash";
    case "tool_call":
      return has(TOOL_CALL_NAMED, tool) || tool.startsWith("mcp__") || !namedByAnotherRow(tool);
    case "delegate":
      return has(DELEGATE_TOOLS, tool);
    case "respond":
    case "stop":
      return false;
  }
}

/** Does `action` permit calling `tool`? Extra names from `utility_tools` or config widen the table; ending actions permit nothing. */
export function actionPermits(action: Action, tool: string, extra: ExtraTools = {}): boolean {
  if (isEndingAction(action)) return false;
  return permitsByDefault(action, tool) || has(extra[action] ?? [], tool);
}

/** Does `action` permit a call that acts as `actsAs`? Only that action, or one whose extra names list the tool. */
export function actionPermitsActing(action: Action, tool: string, actsAs: ActsAs, extra: ExtraTools = {}): boolean {
  if (isEndingAction(action)) return false;
  return action === actsAs.action || has(extra[action] ?? [], tool);
}

/** A short phrase for refusal messages: what an action permits. */
export function describePermits(action: Action, extra: ExtraTools = {}): string {
  const added = extra[action]?.length ? `, and ${extra[action]!.join(", ")}` : "";
  switch (action) {
    case "retrieve":
      return `read-only tools (${[...READ_ONLY_TOOLS, ...JOB_OUTPUT_TOOLS].join(", ")})${added}`;
    case "verify":
      return `read-only tools and Bash${added}`;
    case "tool_call":
      return `${TOOL_CALL_NAMED.join(", ")}, mcp__ tools and other tools no other action names${added}`;
    case "delegate":
      return `${DELEGATE_TOOLS.join(", ")}${added}`;
    default:
      return "no tools";
  }
}

/** The actions that would permit a tool, for "use X instead" hints. */
export function actionsPermitting(tool: string, actions: readonly Action[], extra: ExtraTools = {}): Action[] {
  return actions.filter((a) => actionPermits(a, tool, extra));
}
