// Whether a subagent is a compaction: the hooks' SubagentStop and replay's subagent files share these rules.
import { describe, expect, it } from "vitest";
import { COMPACTION_PROMPT, isCompactionAgentId, isCompactionPrompt, isCompactionStop } from "../../../src/engine/session/compaction.js";

/** 2.1.328's compaction request starts with a preamble, then the compaction words. */
const PREAMBLE =
  "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\n- Do NOT use Read, Bash, Grep, Glob, Edit, Write, or ANY other tool.\n- Tool calls will be REJECTED.\n\n";

describe("isCompactionPrompt", () => {
  it("the compaction request, as older versions wrote it and after 2.1.328's preamble", () => {
    expect(isCompactionPrompt(`${COMPACTION_PROMPT}, paying close attention to the user's explicit requests…`)).toBe(true);
    expect(isCompactionPrompt(`${PREAMBLE}${COMPACTION_PROMPT}, paying close attention…`)).toBe(true);
  });

  it("a subagent's prompt that only quotes the words far down, or lacks them, is no compaction", () => {
    expect(isCompactionPrompt("SUBTASK: check the files")).toBe(false);
    expect(isCompactionPrompt(`${"x".repeat(5000)} ${COMPACTION_PROMPT}`)).toBe(false);
    expect(isCompactionPrompt("your task is to create a detailed summary of the conversation so far")).toBe(false);
  });
});

describe("isCompactionAgentId", () => {
  it("a fork labelled compact (`acompact-<hex>`), no other id", () => {
    expect(isCompactionAgentId("acompact-7d2e4b1f9a0c3e55")).toBe(true);
    expect(isCompactionAgentId("a6d1adb1709d20937")).toBe(false);
    expect(isCompactionAgentId("aprompt_suggestion-1234")).toBe(false);
    expect(isCompactionAgentId("xacompact-1")).toBe(false);
  });
});

describe("isCompactionStop", () => {
  it("2.1.328's /compact: SubagentStop with an empty type for an agent that never started", () => {
    expect(isCompactionStop({ agentId: "a6d1adb1709d20937", agentType: undefined, started: false })).toBe(true);
    expect(isCompactionStop({ agentId: "a6d1adb1709d20937", agentType: "", started: false })).toBe(true);
    expect(isCompactionStop({ agentId: "acompact-1", agentType: "x", started: false })).toBe(true);
  });

  it("a subagent that started (SubagentStart), or one with a type, is a subagent", () => {
    expect(isCompactionStop({ agentId: "a1", agentType: undefined, started: true })).toBe(false);
    expect(isCompactionStop({ agentId: "acompact-1", agentType: "", started: true })).toBe(false);
    expect(isCompactionStop({ agentId: "a1", agentType: "general-purpose", started: false })).toBe(false);
    expect(isCompactionStop({ agentId: "a1", agentType: "fork", started: false })).toBe(false);
  });
});
