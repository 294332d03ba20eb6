/**
 * Every hook event the plugin answers, declared once: the schema its input
 * must pass, the handler that answers it, and how Claude Code reaches it.
 * plugin/hooks/hooks.json is generated from this table (src/hooks/hooks-json.ts,
 * `npm run build`), the server answers its `mcp_tool` calls from it, and the
 * build writes a command entry only for the events declared `command`.
 *
 * Served events are `mcp_tool` hooks to the plugin's own warm server; their
 * `fields` are the hook input fields the server needs, sent as `${field}`
 * templates (Claude Code cannot send the whole input). Two events stay
 * command hooks, each for the reason it carries (docs/architecture.md).
 */
import type { HookContext } from "./context.js";
import {
  PreCompactInputSchema,
  PreToolUseInputSchema,
  SessionEndInputSchema,
  SessionStartInputSchema,
  StopInputSchema,
  SubagentStartInputSchema,
  UserPromptExpansionInputSchema,
  UserPromptSubmitInputSchema,
} from "./input.js";
import { preCompact } from "./pre-compact.js";
import { preToolUse } from "./pre-tool-use.js";
import type { HookResult } from "./records.js";
import type { HookSchema } from "./run.js";
import { sessionEnd } from "./session-end.js";
import { sessionStart } from "./session-start.js";
import { stopHook } from "./stop.js";
import { subagentStart } from "./subagent-start.js";
import { userPromptExpansion } from "./user-prompt-expansion.js";
import { userPromptSubmit } from "./user-prompt-submit.js";

/** A command hook: `node dist/hooks/<entry>.js`, for a reason the server cannot serve the event. */
export interface CommandWiring {
  runs: "command";
  entry: string;
  timeout: number;
  why: string;
}

/** An `mcp_tool` hook to the plugin's server: the tool it calls and the input fields it sends. */
export interface ServedWiring {
  runs: "served";
  tool: string;
  fields: readonly string[];
  matcher?: string;
  timeout: number;
  /** What Claude Code does when the server gives no answer: block the call, or let it run undecided. */
  onFailure: "block" | "continue";
}

export interface HookEventSpec<T, W extends CommandWiring | ServedWiring = CommandWiring | ServedWiring> {
  schema: HookSchema<T>;
  handler: (input: T, ctx: HookContext) => Promise<HookResult>;
  wiring: W;
}

const spec = <T, W extends CommandWiring | ServedWiring>(
  schema: HookSchema<T>,
  handler: HookEventSpec<T>["handler"],
  wiring: W,
): HookEventSpec<T, W> => ({ schema, handler, wiring });

const COMMON = ["hook_event_name", "session_id", "transcript_path", "cwd", "prompt_id", "permission_mode", "agent_id", "agent_type"];
const STOP_FIELDS = [...COMMON, "stop_hook_active", "last_assistant_message"];
const served = (tool: string, fields: readonly string[], more: Partial<ServedWiring> = {}): ServedWiring => ({
  runs: "served",
  tool,
  fields,
  timeout: 10,
  onFailure: "continue",
  ...more,
});

/** In the order hooks.json lists them. */
export const HOOK_EVENTS = {
  SessionStart: spec(SessionStartInputSchema, sessionStart, {
    runs: "command",
    entry: "session-start",
    timeout: 10,
    why: "Claude Code skips mcp_tool hooks on SessionStart (\"not available for the 'SessionStart' hook event (no MCP client context)\"), and this hook is what tells the user when the plugin's server never started",
  }),
  UserPromptSubmit: spec(UserPromptSubmitInputSchema, userPromptSubmit, served("user_prompt_submit", [...COMMON, "prompt"])),
  UserPromptExpansion: spec(
    UserPromptExpansionInputSchema,
    userPromptExpansion,
    served("user_prompt_expansion", [...COMMON, "expansion_type", "command_name", "command_args", "command_source", "prompt"], {
      matcher: "^utility:utility$",
    }),
  ),
  PreToolUse: spec(
    PreToolUseInputSchema,
    preToolUse,
    served("pre_tool_use", [...COMMON, "tool_name", "tool_input", "tool_use_id"], { matcher: "*", timeout: 15, onFailure: "block" }),
  ),
  SubagentStart: spec(SubagentStartInputSchema, subagentStart, served("subagent_start", COMMON)),
  Stop: spec(StopInputSchema, (input, ctx) => stopHook(input, ctx, "Stop"), served("stop", STOP_FIELDS)),
  SubagentStop: spec(
    StopInputSchema,
    (input, ctx) => stopHook(input, ctx, "SubagentStop"),
    served("subagent_stop", [...STOP_FIELDS, "agent_transcript_path"]),
  ),
  PreCompact: spec(PreCompactInputSchema, preCompact, served("pre_compact", [...COMMON, "trigger"])),
  SessionEnd: spec(SessionEndInputSchema, sessionEnd, {
    runs: "command",
    entry: "session-end",
    timeout: 10,
    why: "Claude Code stops the session's MCP servers before SessionEnd hooks run: an mcp_tool SessionEnd hook is skipped (TUI) or fails as not connected (-p)",
  }),
} as const;

export type HookEvent = keyof typeof HOOK_EVENTS;
export const HOOK_EVENT_NAMES = Object.keys(HOOK_EVENTS) as HookEvent[];

/** The events the server answers. */
export type ServedEvent = { [E in HookEvent]: (typeof HOOK_EVENTS)[E]["wiring"] extends ServedWiring ? E : never }[HookEvent];

export function servedWiring(event: HookEvent): ServedWiring | undefined {
  const wiring: CommandWiring | ServedWiring = HOOK_EVENTS[event].wiring;
  return wiring.runs === "served" ? wiring : undefined;
}

/** The event and its spec, with the input's type erased, for the code that dispatches on a name. */
export function eventSpec(event: HookEvent): HookEventSpec<unknown> {
  return HOOK_EVENTS[event] as unknown as HookEventSpec<unknown>;
}
