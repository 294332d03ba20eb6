// What the transcript shows after a pending `/utility off` (src/ingest/switch-evidence.ts, issue 31 hole 4):
// only Claude Code's line of a blocked typed command with the plugin's answer shows it; a prompt, a tool
// result or the model's turn first shows that no typed command made the call.
import { describe, expect, it } from "vitest";
import { BLOCKED_EXPANSION, offEvidenceOf } from "../../src/ingest/switch-evidence.js";

const ANSWER = "utility: the /utility on gate is off.";
const blocked = (reason: string) => ({ type: "system", subtype: "informational", content: `${BLOCKED_EXPANSION}${reason}` });

describe("offEvidenceOf", () => {
  const typedOff = "\n\nOriginal prompt: /utility:utility off";

  it("Claude Code's line of the blocked command with the plugin's answer, ending with the typed /utility off, shows the off", () => {
    expect(offEvidenceOf(blocked(`${ANSWER}\nutility status, …${typedOff}`), ANSWER)).toBe("shown");
    expect(offEvidenceOf(blocked(`${ANSWER}\n\nOriginal prompt: /utility OFF `), ANSWER)).toBe("shown");
  });

  it("the plugin's answer under another typed command (a hook riding it) shows it was not /utility off", () => {
    expect(offEvidenceOf(blocked(`${ANSWER}\n\nOriginal prompt: /review`), ANSWER)).toBe("unshown");
    expect(offEvidenceOf(blocked(`${ANSWER}${typedOff}\n\nOriginal prompt: /review`), ANSWER)).toBe("unshown");
    expect(offEvidenceOf(blocked(ANSWER), ANSWER)).toBe("unshown");
  });

  it("a blocked command with another answer (the status, another plugin's) shows it was not this one", () => {
    expect(offEvidenceOf(blocked("utility status, session s"), ANSWER)).toBe("unshown");
  });

  it("a user or assistant line first: no typed command was blocked there", () => {
    expect(offEvidenceOf({ type: "user", message: { content: "go" } }, ANSWER)).toBe("unshown");
    expect(offEvidenceOf({ type: "assistant", message: { content: [] } }, ANSWER)).toBe("unshown");
    expect(offEvidenceOf(null, ANSWER)).toBe("unshown");
    expect(offEvidenceOf([], ANSWER)).toBe("unshown");
  });

  it("a user or assistant line made before the answer and flushed late is read past", () => {
    const since = "2026-12-03T10:00:00.000Z";
    expect(offEvidenceOf({ type: "assistant", timestamp: "2026-12-03T09:59:59.950Z" }, ANSWER, since)).toBeUndefined();
    expect(offEvidenceOf({ type: "assistant", timestamp: "2026-12-03T10:00:00.010Z" }, ANSWER, since)).toBe("unshown");
    expect(offEvidenceOf({ type: "user", timestamp: "not a time" }, ANSWER, since)).toBe("unshown");
  });

  it("bookkeeping and other system lines are read past", () => {
    for (const line of [
      { type: "queue-operation", operation: "enqueue", content: "/utility off" },
      { type: "last-prompt" },
      { type: "attachment", attachment: { type: "hook_success" } },
      { type: "system", subtype: "stop_hook_summary" },
      { type: "system", subtype: "informational", content: "something else" },
    ])
      expect(offEvidenceOf(line, ANSWER)).toBeUndefined();
  });
});
