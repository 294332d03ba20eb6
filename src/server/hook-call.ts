/**
 * How a hook's input travels to the warm server and its answer back.
 *
 * An `mcp_tool` hook sends the tool the `input` object of its hooks.json
 * entry, each `${field}` filled from the hook input: a string as it is, an
 * object or array as JSON, a boolean as "true"/"false", and an absent field
 * as "" (docs/claude-code-facts.md). There is no way to send the whole hook
 * input, so each event's fields are listed here, once: the plugin's
 * hooks.json must carry exactly these templates (a test compares them), and
 * `hookInputOf` turns the strings back into the hook input the route's schema
 * checks.
 */
import type { HookEvent } from "../hooks/routes/index.js";
import type { HookAnswer } from "../hooks/run.js";

const COMMON = ["hook_event_name", "session_id", "transcript_path", "cwd", "prompt_id", "permission_mode", "agent_id", "agent_type"];

/** The events the server answers, the MCP tool each calls, and the hook input fields it needs. */
export const SERVED = {
  PreToolUse: { tool: "pre_tool_use", fields: [...COMMON, "tool_name", "tool_input", "tool_use_id"] },
  UserPromptSubmit: { tool: "user_prompt_submit", fields: [...COMMON, "prompt"] },
  UserPromptExpansion: {
    tool: "user_prompt_expansion",
    fields: [...COMMON, "expansion_type", "command_name", "command_args", "command_source", "prompt"],
  },
  SubagentStart: { tool: "subagent_start", fields: COMMON },
  Stop: { tool: "stop", fields: [...COMMON, "stop_hook_active", "last_assistant_message"] },
  SubagentStop: { tool: "subagent_stop", fields: [...COMMON, "stop_hook_active", "last_assistant_message", "agent_transcript_path"] },
  PreCompact: { tool: "pre_compact", fields: [...COMMON, "trigger"] },
} as const satisfies Partial<Record<HookEvent, { tool: string; fields: readonly string[] }>>;

export type ServedEvent = keyof typeof SERVED;

/** The event a tool name answers, if the server serves one by that name. */
export function eventOfTool(tool: string): ServedEvent | undefined {
  return (Object.keys(SERVED) as ServedEvent[]).find((event) => SERVED[event].tool === tool);
}

/** The `input` object of an event's hooks.json entry: every field as a `${field}` template. */
export function inputTemplate(event: ServedEvent): Record<string, string> {
  return Object.fromEntries(SERVED[event].fields.map((f) => [f, `\${${f}}`]));
}

/** Fields whose value is an object Claude Code sent as JSON. */
const JSON_FIELDS = new Set(["tool_input"]);
const BOOLEAN_FIELDS = new Set(["stop_hook_active"]);

/**
 * The hook input from the tool's arguments: "" is a field Claude Code did not
 * send; JSON and boolean fields are read back. A value that cannot be read
 * back stays a string, for the schema to name.
 */
export function hookInputOf(args: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === "" || value === undefined || value === null) continue;
    if (typeof value !== "string") input[key] = value;
    else if (JSON_FIELDS.has(key)) input[key] = parseOr(value);
    else if (BOOLEAN_FIELDS.has(key)) input[key] = value === "true" ? true : value === "false" ? false : value;
    else input[key] = value;
  }
  return input;
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The tool's answer: the hook's JSON output as text, `{}` for no decision.
 * Never `isError` for a hook call: Claude Code would count it as a failed
 * hook, and `onFailure: "block"` would block the call in every scope; trouble
 * goes where a command hook's stderr went, with the decision (or none) intact.
 */
export function toolResultOf(answer: Pick<HookAnswer, "output">): { content: { type: "text"; text: string }[] } {
  return { content: [{ type: "text", text: JSON.stringify(answer.output ?? {}) }] };
}
