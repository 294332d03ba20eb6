/**
 * How a hook's input travels to the warm server and its answer back.
 *
 * An `mcp_tool` hook sends the tool the `input` object of its hooks.json
 * entry, each `${field}` filled from the hook input: a string as it is, an
 * object or array as JSON, a boolean as "true"/"false", and an absent field
 * as "" (docs/claude-code-facts.md). There is no way to send the whole hook
 * input, so each event's fields are declared with the event
 * (src/hooks/events.ts, which generates hooks.json), and `hookInputOf` turns
 * the strings back into the hook input the event's schema checks.
 */
import { HOOK_EVENT_NAMES, servedWiring, type ServedEvent } from "../hooks/events.js";
import type { HookAnswer } from "../hooks/run.js";

export type { ServedEvent } from "../hooks/events.js";

/** The event a tool name answers, if the server serves one by that name. */
export function eventOfTool(tool: string): ServedEvent | undefined {
  return HOOK_EVENT_NAMES.find((event) => servedWiring(event)?.tool === tool) as ServedEvent | undefined;
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
