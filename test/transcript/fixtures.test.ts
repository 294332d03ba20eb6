// The reader on real Claude Code transcripts (test/fixtures/transcripts, see its README).
//
// What the fixtures hold (checked below):
// - 2.1.x (`spotter__*`): one content block per line; one API response spread over up to 7
//   lines sharing message.id, with `progress` lines and sibling tool results between them.
//   A subagent's turns appear as `progress` lines (data.type "agent_progress", data.agentId);
//   spotter__subagent holds 9 such calls of agent afb92ff next to its 16 main calls.
// - 1.0.x (`viewer__*`): also one block per line; subagent turns inline with isSidechain true
//   and no agentId, each subagent's lines contiguous (parallel Tasks are written one after another).
// - No tool_use id appears twice in any fixture, no line is written twice, every call has
//   its result, and none holds a compaction. The census deduplicates by id anyway.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readAll } from "../../src/transcript/forward-reader.js";
import { TranscriptEventSchema } from "../../src/transcript/line-events.js";
import { findGoverningText, findSkillActivations, lastUserPrompt } from "../../src/transcript/queries.js";
import { bufferSource } from "../../src/transcript/source.js";
import { FIXTURES_DIR } from "./helpers.js";

const expected: Record<string, { calls: number; sidechainCalls: number; messages: number; splitMessages: number; compactions: number }> = {
  "spotter__short.jsonl": { calls: 2, sidechainCalls: 0, messages: 1, splitMessages: 1, compactions: 0 },
  "spotter__subagent.jsonl": { calls: 25, sidechainCalls: 9, messages: 17, splitMessages: 10, compactions: 0 },
  "spotter__tool_heavy.jsonl": { calls: 6, sidechainCalls: 0, messages: 4, splitMessages: 3, compactions: 0 },
  "viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl": { calls: 12, sidechainCalls: 0, messages: 7, splitMessages: 4, compactions: 0 },
  "viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl": { calls: 21, sidechainCalls: 8, messages: 20, splitMessages: 6, compactions: 0 },
  "viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl": {
    calls: 167,
    sidechainCalls: 156,
    messages: 170,
    splitMessages: 88,
    compactions: 0,
  },
};

const fixtures = readdirSync(FIXTURES_DIR)
  .filter((name) => name.endsWith(".jsonl"))
  .sort();

// ---- An independent, naive reading: JSON.parse every line, look at everything ----

interface NaiveMessageLine {
  lineEnd: number; // byte offset just past the line's "\n"
  messageId: string;
  sidechain: boolean;
  agentId?: string;
  model?: string;
  blocks: Array<{ type: string; id?: string; text?: string }>;
}

function naiveLines(bytes: Buffer): Array<{ json: Record<string, unknown>; lineEnd: number }> {
  const out: Array<{ json: Record<string, unknown>; lineEnd: number }> = [];
  let start = 0;
  for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, start)) {
    out.push({ json: JSON.parse(bytes.subarray(start, newline).toString("utf8")) as Record<string, unknown>, lineEnd: newline + 1 });
    start = newline + 1;
  }
  return out;
}

/** Every object anywhere in the value with type "tool_use" and a string id. */
function toolUseIdsDeep(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) toolUseIdsDeep(item, into);
  else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (record.type === "tool_use" && typeof record.id === "string") into.push(record.id);
    for (const child of Object.values(record)) toolUseIdsDeep(child, into);
  }
  return into;
}

function naiveAssistantLines(bytes: Buffer): NaiveMessageLine[] {
  return naiveLines(bytes).flatMap(({ json, lineEnd }) => {
    const data = json.data as { type?: string; agentId?: string; message?: Record<string, unknown> } | undefined;
    const nested = json.type === "progress" && data?.type === "agent_progress" ? data.message : undefined;
    const line = nested ?? json;
    const message = line.message as { id?: string; model?: string; content?: unknown } | undefined;
    if (line.type !== "assistant" || !message?.id || !Array.isArray(message.content)) return [];
    const agentId = nested ? data?.agentId : undefined;
    return [
      {
        lineEnd,
        messageId: message.id,
        sidechain: Boolean(nested) || json.isSidechain === true,
        ...(agentId ? { agentId } : {}),
        ...(message.model ? { model: message.model } : {}),
        blocks: message.content,
      },
    ];
  });
}

/** Each tool call the reader gives, once by id, with whether its result was read too. */
function census(path: string) {
  const events = readAll(path);
  const results = new Set(events.flatMap((event) => (event.kind === "tool_result" ? [event.toolUseId] : [])));
  const calls = new Map<string, { id: string; sidechain: boolean; lineNo?: number; hasResult: boolean }>();
  let duplicateToolUses = 0;
  for (const event of events) {
    if (event.kind !== "assistant") continue;
    for (const block of event.blocks) {
      if (block.type !== "tool_use") continue;
      if (calls.has(block.id)) duplicateToolUses++;
      else calls.set(block.id, { id: block.id, sidechain: event.sidechain, lineNo: event.lineNo, hasResult: results.has(block.id) });
    }
  }
  return { calls: [...calls.values()], duplicateToolUses, unmatchedResults: [...results].filter((id) => !calls.has(id)) };
}

describe.each(fixtures)("fixture %s", (name) => {
  const path = join(FIXTURES_DIR, name);
  const bytes = readFileSync(path);

  it("is read whole, every event in the declared shape", () => {
    const events = readAll(path);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(TranscriptEventSchema.safeParse(event).success).toBe(true);
    const messages = new Map<string, number>();
    for (const event of events) if (event.kind === "assistant") messages.set(event.messageId, (messages.get(event.messageId) ?? 0) + 1);
    expect(messages.size).toBe(expected[name]?.messages);
    expect([...messages.values()].filter((lines) => lines > 1)).toHaveLength(expected[name]!.splitMessages);
    expect(events.filter((event) => event.kind === "compact")).toHaveLength(expected[name]!.compactions);
  });

  it("counts the same tool calls as a naive scan and a grep, each once, each with its result", () => {
    const found = census(path);
    const deep = naiveLines(bytes).flatMap(({ json }) => toolUseIdsDeep(json));
    const grep = bytes.toString("utf8").match(/"type":\s*"tool_use"/g) ?? [];
    expect(found.calls.map((call) => call.id).sort()).toEqual([...new Set(deep)].sort());
    expect(found.calls).toHaveLength(grep.length);
    expect(found.calls).toHaveLength(expected[name]!.calls);
    expect(found.calls.filter((call) => call.sidechain)).toHaveLength(expected[name]!.sidechainCalls);
    expect(found.duplicateToolUses).toBe(0);
    expect(found.unmatchedResults).toEqual([]);
    expect(found.calls.every((call) => call.hasResult && call.lineNo !== undefined)).toBe(true);
  });

  it("finds the governing text of every call as a naive grouping by message.id does, at PreToolUse time", () => {
    const lines = naiveAssistantLines(bytes);
    const calls = lines.flatMap((line) =>
      line.blocks.filter((block) => block.type === "tool_use").map((block) => ({ line, id: block.id! })),
    );
    expect(calls).toHaveLength(expected[name]!.calls);
    for (const { line, id } of calls) {
      // What Claude Code has written when PreToolUse runs: the file up to the call's line.
      const written = bytes.subarray(0, line.lineEnd);
      const message = lines.filter(
        (other) => other.messageId === line.messageId && other.sidechain === line.sidechain && other.lineEnd <= line.lineEnd,
      );
      const blocks = message.flatMap((other) => other.blocks);
      const before = blocks.slice(
        0,
        blocks.findIndex((block) => block.id === id),
      );
      const scope = line.sidechain ? { lines: "sidechain" as const, ...(line.agentId ? { agentId: line.agentId } : {}) } : {};
      const found = findGoverningText(bufferSource(written), id, scope);
      expect(found).toEqual({
        found: true,
        messageId: line.messageId,
        ...(line.model ? { model: line.model } : {}),
        textBlocks: before.filter((block) => block.type === "text").map((block) => block.text),
        text: before
          .filter((block) => block.type === "text")
          .map((block) => block.text)
          .join("\n\n"),
        toolUse: expect.objectContaining({ id }),
        toolUseIds: blocks.filter((block) => block.type === "tool_use").map((block) => block.id),
        offset: expect.any(Number),
      });
      if (line.sidechain) expect(findGoverningText(bufferSource(written), id)).toEqual({ found: false, reason: "other_scope" });
    }
  });

  it("answers the task questions from the end of the file", () => {
    expect(lastUserPrompt(path)).not.toBeNull();
    expect(findSkillActivations(path, { sinceLastUserPrompt: false })).toEqual([]); // no skill activations recorded in these sessions
  });
});

it("has the fixtures this file documents", () => {
  expect(fixtures).toEqual(Object.keys(expected).sort());
});
