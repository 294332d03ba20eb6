// What the parser (./line.ts) makes of a transcript line: the normalized
// events, their schemas (zod/mini: ./raw-line.ts says why) and types.
import * as z from "zod/mini";
import { LINE_KINDS } from "../engine/session/prompt-kind.js";

const LineFields = {
  uuid: z.optional(z.string()),
  sidechain: z.boolean(),
  agentId: z.optional(z.string()),
  timestamp: z.optional(z.string()),
};

export const TextBlockSchema = z.object({ type: z.literal("text"), text: z.string() });
export const ToolUseBlockSchema = z.object({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});
export const AssistantBlockSchema = z.discriminatedUnion("type", [TextBlockSchema, ToolUseBlockSchema]);

const count = () => z.int().check(z.minimum(0));
/** The message's `usage` as this line reports it (SPEC §12); Claude Code repeats it, growing, on each line of a message. */
export const LineUsageSchema = z.object({ input: count(), output: count(), cacheCreation: count(), cacheRead: count() });

export const AssistantEventSchema = z.object({
  kind: z.literal("assistant"),
  messageId: z.string(),
  /** `message.model` as written (`claude-opus-4-5-…`), when present. */
  model: z.optional(z.string()),
  blocks: z.array(AssistantBlockSchema),
  usage: z.optional(LineUsageSchema),
  ...LineFields,
});
export const ToolResultEventSchema = z.object({
  kind: z.literal("tool_result"),
  toolUseId: z.string(),
  isError: z.boolean(),
  /** Claude Code refused the call (its permissions, or a hook): it never ran. */
  denied: z.optional(z.literal(true)),
  text: z.string(),
  bytes: z.number(),
  /** The content held more than text (an image): `text` is not all the call returned. */
  notOnlyText: z.optional(z.literal(true)),
  ...LineFields,
});
export const UserTextEventSchema = z.object({
  kind: z.literal("user_text"),
  text: z.string(),
  isMeta: z.boolean(),
  /** What Claude Code's own fields say the line is (prompt-kind.ts). */
  lineKind: z.enum(LINE_KINDS),
  /** Looks typed by the user by those fields: not meta, not a notification or wakeup, not a marker. Whether a UserPromptSubmit vouched for it is the hooks' question. */
  isPrompt: z.boolean(),
  /** The id Claude Code gives one prompt's lines and hooks (`prompt_id` in hook input). */
  promptId: z.optional(z.string()),
  /** From a `queue-operation` line: a notification queued for the model, not a prompt line (it ends a job, nothing more). */
  queued: z.optional(z.literal(true)),
  ...LineFields,
});
export const CompactEventSchema = z.object({
  kind: z.literal("compact"),
  /** `boundary`: a system compact_boundary line; `summary`: the user line carrying the summary. */
  source: z.enum(["boundary", "summary"]),
  ...LineFields,
});
export const TranscriptEventSchema = z.discriminatedUnion("kind", [
  AssistantEventSchema,
  ToolResultEventSchema,
  UserTextEventSchema,
  CompactEventSchema,
]);

export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ToolUseBlock = z.infer<typeof ToolUseBlockSchema>;
export type AssistantBlock = z.infer<typeof AssistantBlockSchema>;
export type AssistantEvent = z.infer<typeof AssistantEventSchema>;
export type ToolResultEvent = z.infer<typeof ToolResultEventSchema>;
export type UserTextEvent = z.infer<typeof UserTextEventSchema>;
export type CompactEvent = z.infer<typeof CompactEventSchema>;
export type TranscriptEvent = z.infer<typeof TranscriptEventSchema>;
