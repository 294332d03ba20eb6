// What Claude Code writes on a transcript line: only the parts the parser
// (./line.ts) uses; everything else passes through.
//
// zod/mini rather than the classic `zod` API: bundled, classic zod adds about
// 20 ms to a hook's start (≈0.4× of `node -e 0`), mini about 3 ms (SPEC §11).
import * as z from "zod/mini";

export const RawTextBlock = z.looseObject({ type: z.literal("text"), text: z.string() });
export const RawToolUseBlock = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.optional(z.unknown()),
});
export const RawToolResultBlock = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.optional(z.unknown()),
  is_error: z.nullish(z.boolean()),
});

const RawCount = z.nullish(z.number());
export const RawUsage = z.looseObject({
  input_tokens: RawCount,
  output_tokens: RawCount,
  cache_creation_input_tokens: RawCount,
  cache_read_input_tokens: RawCount,
});

const RawMessage = z.looseObject({
  id: z.nullish(z.string()),
  model: z.nullish(z.string()),
  role: z.nullish(z.string()),
  content: z.nullish(z.union([z.string(), z.array(z.unknown())])),
  usage: z.optional(z.unknown()),
});

export const RawLineSchema = z.looseObject({
  type: z.string(),
  subtype: z.nullish(z.string()),
  uuid: z.nullish(z.string()),
  parentUuid: z.nullish(z.string()),
  isSidechain: z.nullish(z.boolean()),
  isMeta: z.nullish(z.boolean()),
  isCompactSummary: z.nullish(z.boolean()),
  sessionId: z.nullish(z.string()),
  agentId: z.nullish(z.string()),
  timestamp: z.nullish(z.string()),
  message: z.nullish(RawMessage),
  data: z.optional(z.unknown()),
  /** Set on the result line of a call Claude Code's permissions refused (e.g. "user-rejected"): it never ran. */
  toolDenialKind: z.nullish(z.string()),
  // Who wrote a user line (SPEC §2): see prompt-kind.ts.
  promptId: z.nullish(z.string()),
  /** A `queue-operation` line: `enqueue` with the queued prompt's text as `content`. */
  operation: z.nullish(z.string()),
  content: z.optional(z.unknown()),
  origin: z.nullish(z.looseObject({ kind: z.nullish(z.string()) })),
  promptSource: z.nullish(z.string()),
  turnOrigin: z.nullish(z.string()),
  wakeupSource: z.nullish(z.string()),
});
export type RawLine = z.infer<typeof RawLineSchema>;

/** 2.1.x writes a subagent's messages into the main file as `progress` lines (data.type "agent_progress"). */
export const AgentProgressData = z.looseObject({
  type: z.literal("agent_progress"),
  agentId: z.nullish(z.string()),
  message: z.looseObject({ type: z.string() }),
});
