// One transcript line → normalized events (./line-events.ts), read from what
// Claude Code writes (./raw-line.ts). Pure: no I/O, never throws.
import type * as z from "zod/mini";
import { lineKind } from "../engine/session/prompt-kind.js";
import { conformingValue, type ReadAs } from "./conforms.js";
import type { AssistantBlock, LineUsageSchema, ToolResultEvent, TranscriptEvent, UserTextEvent } from "./line-events.js";
import { AgentProgressData, RawLineSchema, RawTextBlock, RawToolResultBlock, RawToolUseBlock, RawUsage, type RawLine } from "./raw-line.js";

/** Lines longer than this are skipped, not parsed (SPEC §10: huge lines). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export const SKILL_BASE_DIR_PREFIX = "Base directory for this skill:";

type LineInfo = Pick<TranscriptEvent, "uuid" | "sidechain" | "agentId" | "timestamp">;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decode a raw line strictly (invalid UTF-8 → null) and parse it. `null` bytes mean the reader skipped a huge line.
 * `read`: how the line's fields are checked (./conforms.ts); the default copies nothing, `parsedValue` is zod's own parse.
 */
export function parseLineBytes(bytes: Uint8Array | null, read: ReadAs = conformingValue): TranscriptEvent[] | null {
  if (bytes === null || bytes.length > MAX_LINE_BYTES) return null;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  return parseLine(text, read);
}

/**
 * Parse one JSONL line. Returns the events it holds (a user line may hold several
 * tool results), or null when the line is to be skipped: cut short, not JSON,
 * huge, of an unknown type, or holding nothing we use.
 */
export function parseLine(line: string, read: ReadAs = conformingValue): TranscriptEvent[] | null {
  if (line.length > MAX_LINE_BYTES) return null;
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return null;
  }
  try {
    return nonEmpty(eventsOf(json, false, undefined, read));
  } catch {
    return null; // defensive: a parser that never throws matters more than the reason
  }
}

function eventsOf(json: unknown, forceSidechain: boolean, agentId: string | undefined, read: ReadAs): TranscriptEvent[] {
  if (holdsNothing(json)) return [];
  const raw = read(RawLineSchema, json);
  if (raw === undefined) return [];
  const info = lineInfo(raw, forceSidechain, agentId);
  switch (raw.type) {
    case "assistant":
      return assistantEvents(raw, info, read);
    case "user":
      return userEvents(raw, info, read);
    case "system":
      return raw.subtype === "compact_boundary" ? [{ kind: "compact", source: "boundary", ...info }] : [];
    case "progress":
      return agentProgressEvents(raw.data, read);
    case "queue-operation":
      return queuedNotification(raw, info);
    default:
      return [];
  }
}

/**
 * A line that can hold no event, told by its type alone (and, for a progress,
 * system or queue line, one more field): most lines by count (hook and bash
 * progress, snapshots, queue operations, turn durations). eventsOf gives them
 * nothing either way; answering before the schema runs saves replay its cost.
 */
function holdsNothing(json: unknown): boolean {
  if (json === null || typeof json !== "object") return false;
  const line = json as { type?: unknown; subtype?: unknown; data?: unknown; operation?: unknown };
  switch (line.type) {
    case "system":
      return line.subtype !== "compact_boundary";
    case "progress":
      return line.data === null || typeof line.data !== "object" || (line.data as { type?: unknown }).type !== "agent_progress";
    case "queue-operation":
      return line.operation !== "enqueue";
    case "file-history-snapshot":
    case "summary":
      return true;
    default:
      return false;
  }
}

function lineInfo(raw: RawLine, forceSidechain: boolean, agentId: string | undefined): LineInfo {
  const info: LineInfo = { sidechain: forceSidechain || raw.isSidechain === true };
  if (raw.uuid) info.uuid = raw.uuid;
  const agent = agentId ?? raw.agentId;
  if (agent) info.agentId = agent;
  if (raw.timestamp) info.timestamp = raw.timestamp;
  return info;
}

function agentProgressEvents(data: unknown, read: ReadAs): TranscriptEvent[] {
  const progress = read(AgentProgressData, data);
  if (progress === undefined) return [];
  // The nested message has no isSidechain flag; it is a subagent's, so it is a sidechain line.
  return eventsOf(progress.message, true, progress.agentId ?? undefined, read);
}

function assistantEvents(raw: RawLine, info: LineInfo, read: ReadAs): TranscriptEvent[] {
  const content = raw.message?.content;
  if (!Array.isArray(content)) return [];
  const blocks = content.flatMap((block) => assistantBlock(block, read));
  const usage = usageOf(raw.message?.usage, read);
  // A line of only thinking (or anything new) still reports the message's usage (SPEC §12).
  if (blocks.length === 0 && !usage) return [];
  // Without message.id the line cannot share a message with another line.
  const messageId = raw.message?.id ?? `line:${raw.uuid ?? "unknown"}`;
  const model = raw.message?.model;
  return [{ kind: "assistant", messageId, blocks, ...(model ? { model } : {}), ...(usage ? { usage } : {}), ...info }];
}

const whole = (n: number | null | undefined) => (typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : 0);

/** The four counts, each a whole number ≥ 0 (anything else counts 0); undefined when the line has no usage. */
function usageOf(data: unknown, read: ReadAs): z.infer<typeof LineUsageSchema> | undefined {
  const u = read(RawUsage, data);
  if (u === undefined) return undefined;
  return {
    input: whole(u.input_tokens),
    output: whole(u.output_tokens),
    cacheCreation: whole(u.cache_creation_input_tokens),
    cacheRead: whole(u.cache_read_input_tokens),
  };
}

function assistantBlock(block: unknown, read: ReadAs): AssistantBlock[] {
  const text = read(RawTextBlock, block);
  if (text !== undefined) return [{ type: "text", text: text.text }];
  const use = read(RawToolUseBlock, block);
  if (use !== undefined) return [{ type: "tool_use", id: use.id, name: use.name, input: use.input ?? {} }];
  return []; // thinking, redacted_thinking, server tools, anything new
}

function userEvents(raw: RawLine, info: LineInfo, read: ReadAs): TranscriptEvent[] {
  if (raw.isCompactSummary === true) return [{ kind: "compact", source: "summary", ...info }];
  const content = raw.message?.content;
  if (typeof content === "string") return [userText(content, raw, info)];
  if (!Array.isArray(content)) return [];
  const events: TranscriptEvent[] = [];
  const texts: string[] = [];
  for (const block of content) {
    const result = read(RawToolResultBlock, block);
    if (result !== undefined) events.push(toolResult(result, info, typeof raw.toolDenialKind === "string", read));
    const text = read(RawTextBlock, block);
    if (text !== undefined) texts.push(text.text);
  }
  if (texts.length > 0) events.push(userText(texts.join("\n"), raw, info));
  return events;
}

function toolResult(block: z.infer<typeof RawToolResultBlock>, info: LineInfo, denied: boolean, read: ReadAs): ToolResultEvent {
  const text = flattenResultContent(block.content, read);
  return {
    kind: "tool_result",
    toolUseId: block.tool_use_id,
    isError: block.is_error === true,
    ...(denied && block.is_error === true ? { denied: true as const } : {}),
    text,
    bytes: utf8ByteLength(text),
    ...(holdsMoreThanText(block.content) ? { notOnlyText: true as const } : {}),
    ...info,
  };
}

function holdsMoreThanText(content: unknown): boolean {
  return Array.isArray(content) && content.some((block) => !RawTextBlock.safeParse(block).success);
}

/** A tool result's content is a string or a list of blocks; keep the text, drop images and the rest. */
export function flattenResultContent(content: unknown, read: ReadAs = conformingValue): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((block) => {
      const text = read(RawTextBlock, block);
      return text !== undefined ? [text.text] : [];
    })
    .join("\n");
}

function userText(text: string, raw: RawLine, info: LineInfo): UserTextEvent {
  const kind = lineKind({
    text,
    isMeta: raw.isMeta,
    isCompactSummary: raw.isCompactSummary,
    originKind: raw.origin?.kind,
    promptSource: raw.promptSource,
    turnOrigin: raw.turnOrigin,
    wakeupSource: raw.wakeupSource,
  });
  return {
    kind: "user_text",
    text,
    isMeta: raw.isMeta === true,
    lineKind: kind,
    isPrompt: kind === "typed",
    ...(raw.promptId ? { promptId: raw.promptId } : {}),
    ...info,
  };
}

const NOTIFICATION_START = "<task-notification>";

/**
 * Claude Code 2.1.39 recorded some background jobs' ends only as a queued
 * prompt (`queue-operation`, `enqueue`, content `<task-notification>…`):
 * read as a notification, so the job's end is seen (SPEC §7). It is never a
 * prompt line; a shell could write one, but an end only makes repeats count.
 */
function queuedNotification(raw: RawLine, info: LineInfo): TranscriptEvent[] {
  if (raw.operation !== "enqueue" || typeof raw.content !== "string") return [];
  if (!raw.content.trimStart().startsWith(NOTIFICATION_START)) return [];
  return [{ kind: "user_text", text: raw.content, isMeta: false, lineKind: "notification", isPrompt: false, queued: true, ...info }];
}

/** The folder a skill activation names ("Base directory for this skill: <folder>"), or null. Meta lines only. */
export function skillBaseDir(event: TranscriptEvent): string | null {
  if (event.kind !== "user_text" || !event.isMeta) return null;
  const text = event.text.trimStart();
  if (!text.startsWith(SKILL_BASE_DIR_PREFIX)) return null;
  const folder = (text.slice(SKILL_BASE_DIR_PREFIX.length).split("\n", 1)[0] ?? "").trim();
  return folder === "" ? null : folder;
}

function nonEmpty<T>(items: T[]): T[] | null {
  return items.length === 0 ? null : items;
}

function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
