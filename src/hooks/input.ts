import * as z from "zod/mini";

/**
 * What Claude Code sends each hook on stdin (checked against 2.1.328, see
 * docs/claude-code-facts.md). Loose objects: fields added by newer versions
 * pass through; only what the hooks use is required.
 */

const Common = {
  session_id: z.string().check(z.minLength(1)),
  transcript_path: z.string(),
  cwd: z.optional(z.string()),
  hook_event_name: z.string(),
  permission_mode: z.optional(z.string()),
  /** One id per prompt (typed, notification or wakeup alike); its transcript line carries it as promptId. */
  prompt_id: z.optional(z.string()),
  agent_id: z.optional(z.string()),
  agent_type: z.optional(z.string()),
};

export const PreToolUseInputSchema = z.looseObject({
  ...Common,
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.unknown(),
  tool_use_id: z.optional(z.string()),
});
export type PreToolUseInput = z.infer<typeof PreToolUseInputSchema>;

/** SubagentStart: a subagent's id and type (the definition's `name`); no tool_use_id says which call started it. */
export const SubagentStartInputSchema = z.looseObject({
  ...Common,
  agent_id: z.string().check(z.minLength(1)),
});
export type SubagentStartInput = z.infer<typeof SubagentStartInputSchema>;

/** SessionEnd: the session is over; its last lines are read once more. */
export const SessionEndInputSchema = z.looseObject({ ...Common, reason: z.optional(z.string()) });
export type SessionEndInput = z.infer<typeof SessionEndInputSchema>;

export const UserPromptSubmitInputSchema = z.looseObject({
  ...Common,
  prompt: z.optional(z.string()),
});
export type UserPromptSubmitInput = z.infer<typeof UserPromptSubmitInputSchema>;

/**
 * UserPromptExpansion: a slash command the user typed, before it expands
 * (2.1.328 runs it for typed slash commands only: never for the model's Skill
 * call, a wakeup or a notification). `command_name` is the namespaced name
 * (`utility:utility`, also when `/utility` was typed); `command_args` the
 * rest of the line as typed.
 */
export const UserPromptExpansionInputSchema = z.looseObject({
  ...Common,
  expansion_type: z.optional(z.string()),
  command_name: z.string(),
  command_args: z.optional(z.string()),
  command_source: z.optional(z.string()),
  prompt: z.optional(z.string()),
});
export type UserPromptExpansionInput = z.infer<typeof UserPromptExpansionInputSchema>;

export const StopInputSchema = z.looseObject({
  ...Common,
  stop_hook_active: z.optional(z.boolean()),
  last_assistant_message: z.optional(z.unknown()),
  agent_transcript_path: z.optional(z.string()),
});
export type StopInput = z.infer<typeof StopInputSchema>;

export const SessionStartInputSchema = z.looseObject({
  ...Common,
  /** startup, resume, clear or compact */
  source: z.optional(z.string()),
});
export type SessionStartInput = z.infer<typeof SessionStartInputSchema>;

export const PreCompactInputSchema = z.looseObject({
  ...Common,
  trigger: z.optional(z.string()),
});
export type PreCompactInput = z.infer<typeof PreCompactInputSchema>;
