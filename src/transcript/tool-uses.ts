// Every tool call of a transcript with its result: the raw material of offline replay.
import type { LineReadOptions } from "./line-bytes.js";
import { readAll } from "./forward-reader.js";
import type { LocatedEvent } from "./reverse-reader.js";
import type { TranscriptSource } from "./source.js";

export interface ToolCallResult {
  isError: boolean;
  /** UTF-8 size of the result's text, for token estimates. */
  bytes: number;
  lineNo?: number;
  offset: number;
}

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  messageId: string;
  sidechain: boolean;
  agentId?: string;
  lineNo?: number;
  offset: number;
  result?: ToolCallResult;
}

export interface ToolUseCensus {
  /** Each tool call once (deduplicated by id), in the order first written. */
  calls: ToolCall[];
  /** tool_use blocks dropped because their id was already seen. */
  duplicateToolUses: number;
  /** Results whose tool_use_id matches no call. */
  unmatchedResults: string[];
}

export function countToolUses(source: TranscriptSource, options: LineReadOptions = {}): ToolUseCensus {
  return censusOf(readAll(source, options));
}

/** Pure: the census of events already read. The first copy of a call or of a result wins. */
export function censusOf(events: readonly LocatedEvent[]): ToolUseCensus {
  const calls = new Map<string, ToolCall>();
  const results = new Map<string, ToolCallResult>();
  let duplicateToolUses = 0;
  for (const event of events) {
    if (event.kind === "tool_result" && !results.has(event.toolUseId)) {
      results.set(event.toolUseId, resultOf(event));
    }
    if (event.kind !== "assistant") continue;
    for (const block of event.blocks) {
      if (block.type !== "tool_use") continue;
      if (calls.has(block.id)) duplicateToolUses++;
      else calls.set(block.id, callOf(event, block.id, block.name, block.input));
    }
  }
  for (const [id, result] of results) {
    const call = calls.get(id);
    if (call) call.result = result;
  }
  const unmatchedResults = [...results.keys()].filter((id) => !calls.has(id));
  return { calls: [...calls.values()], duplicateToolUses, unmatchedResults };
}

function callOf(event: LocatedEvent & { kind: "assistant" }, id: string, name: string, input: unknown): ToolCall {
  const call: ToolCall = { id, name, input, messageId: event.messageId, sidechain: event.sidechain, offset: event.offset };
  if (event.agentId !== undefined) call.agentId = event.agentId;
  if (event.lineNo !== undefined) call.lineNo = event.lineNo;
  return call;
}

function resultOf(event: LocatedEvent & { kind: "tool_result" }): ToolCallResult {
  const result: ToolCallResult = { isError: event.isError, bytes: event.bytes, offset: event.offset };
  if (event.lineNo !== undefined) result.lineNo = event.lineNo;
  return result;
}
