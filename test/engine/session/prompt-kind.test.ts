// What a user line is, from the fields Claude Code writes on it, never from text the model controls (SPEC §2).
import { describe, expect, it } from "vitest";
import {
  classifyPrompt,
  isLocalCommand,
  isNotification,
  LINE_KINDS,
  lineKind,
  marksLocalCommand,
  PROMPT_KINDS,
  type PromptFields,
} from "../../../src/engine/session/prompt-kind.js";

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

  it("a task notification written with no origin field (older versions) is a notification, not typed", () => {
    const text = "<task-notification>\n<task-id>bj1</task-id>\n<status>completed</status>\n</task-notification>";
    expect(lineKind(typed({ text }))).toBe("notification");
    expect(lineKind(typed({ text: `  \n${text}` }))).toBe("notification");
    // A line whose fields say a person typed it stays typed: the text alone does not outrank them.
    expect(lineKind(typed({ text, originKind: "human", promptSource: "typed", turnOrigin: "human" }))).toBe("typed");
    expect(lineKind(typed({ text, promptSource: "sdk", turnOrigin: "sdk" }))).toBe("typed");
    expect(lineKind(typed({ text: `see ${text}` }))).toBe("typed");
  });

  it("/compact's own line (no UserPromptSubmit, 2.1.328 -p) is a command, not a prompt", () => {
    const line =
      "<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args></command-args>";
    expect(lineKind(typed({ text: line }))).toBe("command");
    expect(lineKind(typed({ text: line.replace("<command-args></command-args>", "<command-args>keep the plan</command-args>") }))).toBe(
      "command",
    );
    expect(lineKind(typed({ text: "<command-message>compact</command-message>\n<command-name>/compact</command-name>" }))).toBe("command");
    // Commands that reach the model (a skill, the plugin's own) are prompts, vouched by their UserPromptSubmit.
    expect(lineKind(typed({ text: "<command-message>utility</command-message>\n<command-name>/utility</command-name>" }))).toBe("typed");
    expect(lineKind(typed({ text: "<command-name>/compactor</command-name>" }))).toBe("typed");
    expect(lineKind(typed({ text: "please /compact <command-name>/compact</command-name>" }))).toBe("typed");
    expect(lineKind(typed({ text: "/compact" }))).toBe("typed");
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

describe("isNotification, isLocalCommand, marksLocalCommand", () => {
  it("a notification by how its text starts (a prompt's or a line's)", () => {
    expect(isNotification("<task-notification>\n<task-id>x</task-id>")).toBe(true);
    expect(isNotification(" \t\n<task-notification>")).toBe(true);
    expect(isNotification("fix <task-notification>")).toBe(false);
    expect(isNotification("")).toBe(false);
  });

  it("a local command by its command name, only on a line that is a command's", () => {
    expect(isLocalCommand("<command-name>/compact</command-name>")).toBe(true);
    expect(isLocalCommand("<command-name> /compact </command-name>")).toBe(true);
    expect(isLocalCommand("<command-name>/clear-notes</command-name>")).toBe(false);
    expect(isLocalCommand("text <command-name>/compact</command-name>")).toBe(false);
  });

  it("a compaction's summary and a local command's caveat mark their prompt id as a command's", () => {
    expect(marksLocalCommand("compaction", "This session is being continued…")).toBe(true);
    expect(marksLocalCommand("meta", "<local-command-caveat>Caveat: The messages below were generated…")).toBe(true);
    expect(marksLocalCommand("meta", "Base directory for this skill: /x")).toBe(false);
    expect(marksLocalCommand("typed", "<local-command-caveat>typed")).toBe(false);
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
