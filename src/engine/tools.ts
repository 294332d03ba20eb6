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
