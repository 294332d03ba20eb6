/**
 * A session driven through the real hook processes (bundled dist/hooks), the
 * way Claude Code drives them: UserPromptSubmit for every prompt it submits
 * (typed, notification, wakeup), then the lines it writes, then the tool hooks.
 * Lines are the shapes 2.1.328 writes (docs/claude-code-facts.md, "Prompts
 * nobody typed").
 */
import { appendFileSync } from "node:fs";
import { expect } from "vitest";
import { hookInput, jsonl, line, promptIdOf, readState, runEntry, type Block, type Sandbox } from "../support.js";

let n = 0;
const uuid = () => `hostile-${process.pid}-${++n}`;
const base = (extra: Record<string, unknown>) => ({
  parentUuid: null,
  isSidechain: false,
  type: "user",
  uuid: uuid(),
  sessionId: "s",
  version: "2.1.328",
  ...extra,
});

/** The lines Claude Code writes for prompts nobody typed. */
export const written = {
  notification: (promptId: string, toolUseId: string, taskId: string, status = "completed") =>
    JSON.stringify(
      base({
        promptId,
        origin: { kind: "task-notification", producer: "session-task" },
        promptSource: "system",
        turnOrigin: "task_notification",
        message: {
          role: "user",
          content: `<task-notification>\n<task-id>${taskId}</task-id>\n<tool-use-id>${toolUseId}</tool-use-id>\n<status>${status}</status>\n<summary>Background command "bg" ${status} (exit code 0)</summary>\n</task-notification>`,
        },
      }),
    ),
  wakeup: (promptId: string, prompt: string) =>
    JSON.stringify(
      base({
        promptId,
        isMeta: true,
        promptSource: "system",
        wakeupSource: "loop_wakeup",
        turnOrigin: "scheduled",
        message: { role: "user", content: prompt },
      }),
    ),
  typed: (promptId: string, prompt: string) =>
    JSON.stringify(base({ promptId, promptSource: "sdk", turnOrigin: "sdk", message: { role: "user", content: prompt } })),
};

export const NOTIFICATION = (toolUseId: string, taskId: string) =>
  `<task-notification>\n<task-id>${taskId}</task-id>\n<tool-use-id>${toolUseId}</tool-use-id>\n<status>completed</status>\n</task-notification>`;

export class Session {
  private calls = 0;
  constructor(
    readonly box: Sandbox,
    readonly id: string,
    readonly transcript: string,
    readonly env: Record<string, string> = box.env(),
  ) {}

  static start(box: Sandbox, id: string, lines: string[] = []): Session {
    return new Session(box, id, box.transcript(`${id}.jsonl`, lines));
  }

  append(...lines: string[]): void {
    appendFileSync(this.transcript, jsonl(lines));
  }

  /** UserPromptSubmit as Claude Code runs it (for any prompt it submits), then the line it writes for it ("": not written yet). */
  async submit(prompt: string, promptId: string, lineText: string): Promise<void> {
    const run = await runEntry(
      "user-prompt-submit",
      JSON.stringify(hookInput("user-prompt-submit", { session: this.id, transcript: this.transcript }, { prompt, prompt_id: promptId })),
      this.env,
    );
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    if (lineText !== "") this.append(lineText);
  }

  /** The user types `prompt`. */
  typed(prompt: string): Promise<void> {
    return this.submit(prompt, promptIdOf(prompt), written.typed(promptIdOf(prompt), prompt));
  }

  /** The model writes `blocks` (text, then one call), and PreToolUse decides the call; returns the deny reason, or "" when let through. */
  async call(
    tool: string,
    input: Record<string, unknown>,
    reportText?: string,
    id = `toolu_h_${++this.calls}`,
  ): Promise<{ id: string; denied: string; rule?: string }> {
    const blocks: Block[] = [
      ...(reportText ? [{ type: "text" as const, text: reportText }] : []),
      { type: "tool_use", id, name: tool, input },
    ];
    this.append(...line.assistant(`msg_${id}`, blocks));
    const run = await runEntry(
      "pre-tool-use",
      JSON.stringify(
        hookInput(
          "pre-tool-use",
          { session: this.id, transcript: this.transcript, cwd: this.box.project },
          { tool_name: tool, tool_input: input, tool_use_id: id },
        ),
      ),
      this.env,
    );
    expect(run.code).toBe(0);
    const denied = run.stdout ? (JSON.parse(run.stdout).hookSpecificOutput?.permissionDecisionReason ?? "") : "";
    return { id, denied };
  }

  /** The call ran: Claude Code writes its result line (no hook runs after a call: the scope's next hook reads it). */
  ran(call: { id: string }, resultText = "ok"): void {
    this.append(line.result(call.id, resultText));
  }

  state() {
    return readState(this.box.data, this.id)!;
  }
}
