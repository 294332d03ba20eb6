// The questions the hooks ask of a transcript, each reading backwards only as far as it needs.
import type { LineReadOptions } from "./line-bytes.js";
import type { AssistantEvent, CompactEvent, ToolUseBlock } from "./line-events.js";
import { skillBaseDir } from "./line.js";
import { readEventsBackward, type LocatedEvent } from "./reverse-reader.js";
import { keepsLine, isPrompt, type LineFilterOptions } from "./line-filter.js";
import { withSource, type ByteSource, type TranscriptSource } from "./source.js";

export interface QueryOptions extends LineFilterOptions, LineReadOptions {
  /** Give up after reading this many bytes back from the end (findGoverningText: 16 MiB; the others: no limit). */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export type GoverningText =
  | {
      found: true;
      messageId: string;
      /** The text blocks before the call, joined by blank lines. */
      text: string;
      textBlocks: string[];
      toolUse: ToolUseBlock;
      /** Every tool call of the message, in order (later ones may not be written yet). */
      toolUseIds: string[];
      /** Where the line holding the call starts. */
      offset: number;
      /** The model that wrote the message, when the transcript says. */
      model?: string;
    }
  | {
      found: false;
      /** absent: not since the last prompt; other_scope: only in lines outside the scope; limit: maxBytes reached. */
      reason: "absent" | "other_scope" | "limit";
    };

/**
 * The assistant text that governs tool call `toolUseId` (SPEC §4): the text blocks written
 * before the call in the same assistant message. One message spans several lines sharing
 * message.id, and a sibling call's result may stand between them.
 */
export function findGoverningText(source: TranscriptSource, toolUseId: string, options: QueryOptions = {}): GoverningText {
  return withSource(source, (bytes) => governingText(bytes, toolUseId, options));
}

function governingText(bytes: ByteSource, toolUseId: string, options: QueryOptions): GoverningText {
  // lines: the message's lines from the call backwards; later: the run of one message's lines newer than the call.
  const scan: GoverningScan = { lines: [], later: [], seenElsewhere: false };
  const { lines } = scan;
  for (const event of readEventsBackward(bytes, options)) {
    const beyondLimit = bytes.size - event.offset > (options.maxBytes ?? DEFAULT_MAX_BYTES);
    if (!keepsLine(event, options)) {
      scan.seenElsewhere ||= lines.length === 0 && holdsCall(event, toolUseId);
      continue;
    }
    const next = lines.length > 0 ? extendMessage(lines, event, beyondLimit) : lookForCall(scan, event, toolUseId, beyondLimit);
    if (next === "stop") break;
    if (next === "limit") return { found: false, reason: "limit" };
  }
  const first = lines[0];
  if (!first) return { found: false, reason: scan.seenElsewhere ? "other_scope" : "absent" };
  const sameMessageLater = scan.later.filter((line) => line.messageId === first.messageId);
  return describeMessage(uniqueLines([...lines.reverse(), ...sameMessageLater.reverse()]), toolUseId);
}

/** governingText's state between events (one object per query: nothing is allocated per line). */
interface GoverningScan {
  lines: AssistantLine[];
  later: AssistantLine[];
  seenElsewhere: boolean;
}

type ScanStep = "next" | "stop" | "limit";

/** The call's line is found: take the message's earlier lines, up to where it begins. */
function extendMessage(lines: AssistantLine[], event: LocatedEvent, beyondLimit: boolean): ScanStep {
  if (beyondLimit || endsMessage(event, lines[0]?.messageId)) return "stop";
  if (event.kind === "assistant") lines.push(event);
  return "next";
}

/** Before the call's line: keep the newest message's run of lines, which may hold the call's later text. */
function lookForCall(scan: GoverningScan, event: LocatedEvent, toolUseId: string, beyondLimit: boolean): ScanStep {
  if (event.kind === "assistant" && holdsCall(event, toolUseId)) {
    scan.lines.push(event);
    return "next";
  }
  if (isPrompt(event)) return "stop";
  if (beyondLimit) return "limit";
  if (event.kind === "compact") scan.later = [];
  if (event.kind !== "assistant") return "next";
  if (scan.later[0]?.messageId !== event.messageId) scan.later = [];
  scan.later.push(event);
  return "next";
}

type AssistantLine = LocatedEvent & AssistantEvent;

/** A line written twice (same uuid) counts once. */
function uniqueLines(lines: AssistantLine[]): AssistantLine[] {
  const seen = new Set<string>();
  return lines.filter((line) => {
    if (line.uuid === undefined) return true;
    if (seen.has(line.uuid)) return false;
    seen.add(line.uuid);
    return true;
  });
}

function holdsCall(event: LocatedEvent, toolUseId: string): boolean {
  return event.kind === "assistant" && event.blocks.some((block) => block.type === "tool_use" && block.id === toolUseId);
}

/** Reading backwards, this in-scope event lies before the message's first line. */
function endsMessage(event: LocatedEvent, messageId: string | undefined): boolean {
  if (event.kind === "assistant") return event.messageId !== messageId;
  return isPrompt(event) || event.kind === "compact";
}

function describeMessage(lines: AssistantLine[], toolUseId: string): GoverningText {
  const blocks = lines.flatMap((line) => line.blocks);
  const callIndex = blocks.findIndex((block) => block.type === "tool_use" && block.id === toolUseId);
  const toolUse = blocks[callIndex] as ToolUseBlock;
  const textBlocks = blocks.slice(0, callIndex).flatMap((block) => (block.type === "text" ? [block.text] : []));
  const toolUseIds = [...new Set(blocks.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])))];
  const callLine = lines.find((line) => holdsCall(line, toolUseId));
  const model = lines.find((line) => line.model !== undefined)?.model;
  return {
    found: true,
    messageId: lines[0]?.messageId ?? "",
    text: textBlocks.join("\n\n"),
    textBlocks,
    toolUse,
    toolUseIds,
    offset: callLine?.offset ?? 0,
    ...(model ? { model } : {}),
  };
}

export interface SkillActivation {
  /** The folder after "Base directory for this skill:", as written. */
  folder: string;
  offset: number;
}

export interface SkillQueryOptions extends QueryOptions {
  /** Only the current task: stop at the last real user prompt (default true). */
  sinceLastUserPrompt?: boolean;
}

/** Skills activated in the scope ("Base directory for this skill: …" meta lines), oldest first. */
export function findSkillActivations(source: TranscriptSource, options: SkillQueryOptions = {}): SkillActivation[] {
  const sinceLastPrompt = options.sinceLastUserPrompt ?? true;
  return withSource(source, (bytes) => {
    const found: SkillActivation[] = [];
    for (const event of scopedBackward(bytes, options)) {
      const folder = skillBaseDir(event);
      if (folder !== null) found.push({ folder, offset: event.offset });
      if (sinceLastPrompt && isPrompt(event)) break;
    }
    return found.reverse();
  });
}

export interface UserPrompt {
  text: string;
  offset: number;
  uuid?: string;
}

/** The last real user prompt of the scope: where the current task began. */
export function lastUserPrompt(source: TranscriptSource, options: QueryOptions = {}): UserPrompt | null {
  return withSource(source, (bytes) => {
    for (const event of scopedBackward(bytes, options)) {
      if (event.kind === "user_text" && event.isPrompt) {
        return event.uuid ? { text: event.text, offset: event.offset, uuid: event.uuid } : { text: event.text, offset: event.offset };
      }
    }
    return null;
  });
}

/** The model of the scope's newest assistant line that names one, within options.maxBytes of the end (default 1 MiB). */
export function newestModel(source: TranscriptSource, options: QueryOptions = {}): string | undefined {
  return withSource(source, (bytes) => {
    for (const event of scopedBackward(bytes, { maxBytes: NEWEST_MODEL_MAX_BYTES, ...options })) {
      if (event.kind === "assistant" && event.model !== undefined) return event.model;
    }
    return undefined;
  });
}

const NEWEST_MODEL_MAX_BYTES = 1024 * 1024;

export interface Compaction {
  source: CompactEvent["source"];
  offset: number;
}

/** The last context compaction of the scope. With none, this reads back to maxBytes or the start. */
export function lastCompaction(source: TranscriptSource, options: QueryOptions = {}): Compaction | null {
  return withSource(source, (bytes) => {
    for (const event of scopedBackward(bytes, options)) {
      if (event.kind === "compact") return { source: event.source, offset: event.offset };
    }
    return null;
  });
}

/** In-scope events newest first, up to options.maxBytes from the end. */
function* scopedBackward(bytes: ByteSource, options: QueryOptions): Generator<LocatedEvent> {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  for (const event of readEventsBackward(bytes, options)) {
    if (bytes.size - event.offset > maxBytes) return;
    if (keepsLine(event, options)) yield event;
  }
}

// ---- The same questions over events already in hand (replay) ----

/** Index of the last compaction event in `events`, or -1. */
export function lastCompactionIndex(events: readonly LocatedEvent[], scope: LineFilterOptions = {}): number {
  return findLastIndex(events, (event) => event.kind === "compact" && keepsLine(event, scope));
}

/** Index of the last real user prompt in `events`, or -1. */
export function lastUserPromptIndex(events: readonly LocatedEvent[], scope: LineFilterOptions = {}): number {
  return findLastIndex(events, (event) => isPrompt(event) && keepsLine(event, scope));
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item !== undefined && test(item)) return i;
  }
  return -1;
}
