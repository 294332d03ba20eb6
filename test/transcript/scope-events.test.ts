import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { lineTime, observedEvents, resultDigest } from "../../src/transcript/scope-events.js";
import type { TranscriptEvent } from "../../src/transcript/line-events.js";

const TIME = "2026-12-01T10:00:00.000Z";
const MS = Date.parse(TIME);
const toolResult = (over: Record<string, unknown> = {}): TranscriptEvent =>
  ({ kind: "tool_result", toolUseId: "t1", isError: false, text: "ok", bytes: 2, sidechain: false, ...over }) as TranscriptEvent;
const userText = (text: string, lineKind: string): TranscriptEvent =>
  ({ kind: "user_text", text, isMeta: false, lineKind, isPrompt: lineKind === "typed", sidechain: false }) as TranscriptEvent;
const notification = (status: string) =>
  `<task-notification>\n<task-id>job7</task-id>\n<tool-use-id>t9</tool-use-id>\n<status>${status}</status>\n</task-notification>`;
const usage = { input: 1, output: 2, cacheCreation: 3, cacheRead: 4 };

describe("lineTime", () => {
  it("is the epoch ms of a valid timestamp, and undefined without one or with an invalid one", () => {
    expect(lineTime(toolResult({ timestamp: TIME }))).toBe(MS);
    expect(lineTime(toolResult())).toBeUndefined();
    expect(lineTime(toolResult({ timestamp: "not a time" }))).toBeUndefined();
  });
});

/** What the reducer keeps of a result's text: SHA-256, first 32 hex digits (SPEC §13). */
const digestOf = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 32);

describe("observedEvents", () => {
  it("makes a result of a tool result, with its outcome, size and digest, and only the optional fields it has", () => {
    expect(observedEvents(toolResult())).toEqual([{ kind: "result", toolUseId: "t1", failed: false, bytes: 2, digest: digestOf("ok") }]);
    expect(observedEvents(toolResult({ isError: true, bytes: 9, timestamp: TIME }))).toEqual([
      { kind: "result", toolUseId: "t1", failed: true, bytes: 9, endedAt: MS, digest: digestOf("ok") },
    ]);
  });

  it("gives a result that held more than text (an image) no digest: its text is not all it returned", () => {
    const [result] = observedEvents(toolResult({ text: "", notOnlyText: true }));
    expect(result).toEqual({ kind: "result", toolUseId: "t1", failed: false, bytes: 2 });
    expect(resultDigest({ text: "same", notOnlyText: true })).toBeUndefined();
    expect(resultDigest({ text: "same" })).toBe(digestOf("same"));
    expect(resultDigest({ text: "same" })).not.toBe(resultDigest({ text: "same " }));
  });

  it("carries the background job a result launched and a poll that shows it finished", () => {
    const [launched] = observedEvents(toolResult({ text: "Command running in background with ID: bash_3" }));
    expect(launched).toMatchObject({ kind: "result", toolUseId: "t1", failed: false, bytes: 2, jobId: "bash_3" });
    const [polled] = observedEvents(toolResult({ text: "<status>completed</status>" }));
    expect(polled).toMatchObject({ kind: "result", toolUseId: "t1", failed: false, bytes: 2, finished: true });
    const [running] = observedEvents(toolResult({ text: "<status>running</status>" }));
    expect(running).not.toHaveProperty("finished");
  });

  it("makes a denial of a refused call, not a result", () => {
    expect(observedEvents(toolResult({ isError: true, denied: true, timestamp: TIME }))).toEqual([{ kind: "denied", toolUseId: "t1" }]);
  });

  it("makes a compaction of a compact line", () => {
    expect(observedEvents({ kind: "compact", source: "boundary", sidechain: false })).toEqual([{ kind: "compact" }]);
  });

  it("ends a background job at a notification line whose status is final, and at nothing else", () => {
    expect(observedEvents(userText(notification("completed"), "notification"))).toEqual([
      { kind: "background_ended", toolUseId: "t9", jobId: "job7" },
    ]);
    expect(observedEvents(userText(notification("running"), "notification"))).toEqual([]);
    // A typed prompt that quotes a notification ends nothing.
    expect(observedEvents(userText(notification("completed"), "typed"))).toEqual([]);
    expect(observedEvents(userText("hello", "notification"))).toEqual([]);
  });

  it("reports an assistant line's usage with the calls it made, its model or 'unknown', and nothing without usage", () => {
    const blocks = [
      { type: "text", text: "Action: retrieve" },
      { type: "tool_use", id: "t1", name: "Read", input: {} },
      { type: "tool_use", id: "t2", name: "Grep", input: {} },
    ];
    const line = { kind: "assistant", messageId: "m1", blocks, sidechain: false } as TranscriptEvent;
    expect(observedEvents(line)).toEqual([]);
    expect(observedEvents({ ...line, usage } as TranscriptEvent)).toEqual([
      { kind: "usage", messageId: "m1", model: "unknown", tokens: usage, toolUseIds: ["t1", "t2"] },
    ]);
    expect(observedEvents({ ...line, usage, model: "claude-x", blocks: [blocks[0]] } as TranscriptEvent)).toEqual([
      { kind: "usage", messageId: "m1", model: "claude-x", tokens: usage, toolUseIds: [] },
    ]);
  });
});
