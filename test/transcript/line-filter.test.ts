import { describe, expect, it } from "vitest";
import type { TranscriptEvent } from "../../src/transcript/line-events.js";
import { keepsLine, isPrompt } from "../../src/transcript/line-filter.js";

const text = (over: Partial<TranscriptEvent> = {}) =>
  ({ kind: "user_text", text: "go", isMeta: false, isPrompt: true, sidechain: false, ...over }) as TranscriptEvent;

describe("keepsLine", () => {
  it("main (the default) takes the main conversation's lines only", () => {
    expect(keepsLine(text(), {})).toBe(true);
    expect(keepsLine(text(), { lines: "main" })).toBe(true);
    expect(keepsLine(text({ sidechain: true }), {})).toBe(false);
    expect(keepsLine(text({ sidechain: true }), { lines: "main" })).toBe(false);
  });

  it("sidechain takes subagent lines only; all takes every line", () => {
    expect(keepsLine(text({ sidechain: true }), { lines: "sidechain" })).toBe(true);
    expect(keepsLine(text(), { lines: "sidechain" })).toBe(false);
    expect(keepsLine(text(), { lines: "all" })).toBe(true);
    expect(keepsLine(text({ sidechain: true }), { lines: "all" })).toBe(true);
  });

  it("with an agent id, leaves out lines of another agent, keeps lines that carry none (1.0.x)", () => {
    const scope = { lines: "sidechain" as const, agentId: "a1" };
    expect(keepsLine(text({ sidechain: true, agentId: "a1" }), scope)).toBe(true);
    expect(keepsLine(text({ sidechain: true, agentId: "a2" }), scope)).toBe(false);
    expect(keepsLine(text({ sidechain: true }), scope)).toBe(true);
    expect(keepsLine(text({ sidechain: true, agentId: "a2" }), { lines: "sidechain" })).toBe(true);
  });
});

describe("isPrompt", () => {
  it("is a user's real prompt only", () => {
    expect(isPrompt(text())).toBe(true);
    expect(isPrompt(text({ isPrompt: false, isMeta: true }))).toBe(false);
    expect(isPrompt({ kind: "compact", source: "boundary", sidechain: false })).toBe(false);
  });
});
