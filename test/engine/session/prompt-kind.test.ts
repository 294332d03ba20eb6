// What a user line is, from the fields Claude Code writes on it, never from text the model controls (SPEC §2).
import { describe, expect, it } from "vitest";
import { classifyPrompt, LINE_KINDS, lineKind, PROMPT_KINDS, type PromptFields } from "../../../src/engine/session/prompt-kind.js";

const typed = (over: Partial<PromptFields> = {}): PromptFields => ({ text: "fix the bug", ...over });

describe("lineKind", () => {
  it("a line with none of Claude Code's fields is typed (versions that write none)", () => {
    expect(lineKind(typed())).toBe("typed");
  });

  it("typed in -p and in the TUI, as 2.1.328 writes them", () => {
    expect(lineKind(typed({ promptSource: "sdk", turnOrigin: "sdk" }))).toBe("typed");
    expect(lineKind(typed({ originKind: "human", promptSource: "typed", turnOrigin: "human" }))).toBe("typed");
  });

  it("a compaction summary, whatever else it says", () => {
    expect(lineKind(typed({ isCompactSummary: true, originKind: "human", isMeta: true }))).toBe("compaction");
    expect(lineKind(typed({ isCompactSummary: false }))).toBe("typed");
  });

  it("a background job's notification, by its origin or its turn origin", () => {
    expect(lineKind(typed({ originKind: "task-notification" }))).toBe("notification");
    expect(lineKind(typed({ turnOrigin: "task_notification" }))).toBe("notification");
    expect(lineKind(typed({ originKind: "task-notification", isMeta: true, wakeupSource: "loop_wakeup" }))).toBe("notification");
  });

  it("a wakeup, by its source or its scheduled turn, even when it says /utility off", () => {
    expect(lineKind(typed({ wakeupSource: "loop_wakeup", text: "/utility off" }))).toBe("wakeup");
    expect(lineKind(typed({ turnOrigin: "scheduled" }))).toBe("wakeup");
    expect(lineKind(typed({ isMeta: true, promptSource: "system", wakeupSource: "loop_wakeup", turnOrigin: "scheduled" }))).toBe("wakeup");
    expect(lineKind(typed({ wakeupSource: "" }))).toBe("typed");
  });

  it("a meta line: Stop-hook feedback by its text, anything else meta", () => {
    expect(lineKind(typed({ isMeta: true, text: "Stop hook feedback:\nTake the action." }))).toBe("stop-feedback");
    expect(lineKind(typed({ isMeta: true, text: "   Stop hook feedback: x" }))).toBe("stop-feedback");
    expect(lineKind(typed({ isMeta: true, text: "Base directory for this skill: /x" }))).toBe("meta");
    expect(lineKind(typed({ isMeta: true, text: "stop hook feedback: lower case" }))).toBe("meta");
    expect(lineKind(typed({ isMeta: false, text: "Stop hook feedback: typed by a user" }))).toBe("typed");
  });

  it("something the system wrote, or an origin that is not a human, is meta", () => {
    expect(lineKind(typed({ promptSource: "system" }))).toBe("meta");
    expect(lineKind(typed({ originKind: "agent" }))).toBe("meta");
    expect(lineKind(typed({ originKind: "" }))).toBe("typed");
  });

  it("markers Claude Code writes as user text are meta, at the start only", () => {
    for (const marker of [
      "[Request interrupted by user",
      "<local-command-stdout>",
      "<local-command-stderr>",
      "<local-command-caveat>",
      "<bash-stdout>",
      "<bash-stderr>",
    ]) {
      expect(lineKind(typed({ text: `${marker} more` }))).toBe("meta");
      expect(lineKind(typed({ text: `  \n${marker}` }))).toBe("meta");
      expect(lineKind(typed({ text: `see ${marker}` }))).toBe("typed");
    }
  });

  it("null fields are absent fields", () => {
    expect(
      lineKind({
        text: "x",
        isMeta: null,
        isCompactSummary: null,
        originKind: null,
        promptSource: null,
        turnOrigin: null,
        wakeupSource: null,
      }),
    ).toBe("typed");
  });
});

describe("classifyPrompt", () => {
  const vouched =
    (...keys: string[]) =>
    (key: string) =>
      keys.includes(key);

  it("a typed line is typed only when a UserPromptSubmit vouched for its key", () => {
    expect(classifyPrompt("typed", "k1", vouched("k1"))).toBe("typed");
    expect(classifyPrompt("typed", "k1", vouched("k2"))).toBe("unvouched");
    expect(classifyPrompt("typed", undefined, vouched("k1"))).toBe("unvouched");
    expect(classifyPrompt("typed", undefined, () => true)).toBe("unvouched"); // no prompt id: nothing can vouch for it
  });

  it("the empty key (a version without prompt ids) can be vouched for", () => {
    expect(classifyPrompt("typed", "", vouched(""))).toBe("typed");
  });

  it("any other kind stays what its fields say, vouched or not", () => {
    for (const kind of LINE_KINDS.filter((k) => k !== "typed")) {
      expect(classifyPrompt(kind, "k1", vouched("k1"))).toBe(kind);
      expect(classifyPrompt(kind, "k1", vouched())).toBe(kind);
    }
  });

  it("the kinds are the line kinds and unvouched", () => {
    expect(PROMPT_KINDS).toEqual([...LINE_KINDS, "unvouched"]);
  });
});
