/**
 * Only a prompt the user typed starts a task (SPEC §2), run through the real
 * hook processes: a background job's `<task-notification>` (UserPromptSubmit
 * fires for it exactly as for a typed prompt) and a user line a shell
 * appends to the transcript leave the skill's gate, the step count and the
 * task as they were.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOOD, line, sandbox, skillFolder, tree, type Sandbox } from "../support.js";
import { NOTIFICATION, Session, written } from "./state-support.js";

let box: Sandbox;
let gatedSkill: string;
beforeAll(() => {
  box = sandbox("utility-hostile-tasks-");
  gatedSkill = skillFolder(box, "gated", "utility_gated: true");
});
afterAll(() => box.remove());

/** A session whose typed prompt activated the gated skill, and whose background Bash passed under a report and launched. */
async function gatedWithBackgroundBash(id: string): Promise<Session> {
  const s = Session.start(box, id);
  await s.typed("run the dispatch");
  s.append(line.skill(gatedSkill));
  const input = { command: "sleep 1", run_in_background: true };
  const bg = await s.call("Bash", input, GOOD("tool_call"));
  expect(bg.denied).toBe("");
  s.ran(bg, "Command running in background with ID: bj1.");
  return s;
}

describe("a background job's notification is not a new task", () => {
  it("the gate holds after a background Bash's <task-notification>: a report-less call is refused, the step count goes on", async () => {
    const s = await gatedWithBackgroundBash("notify-bash");
    const before = s.state().main;
    await s.submit(
      NOTIFICATION("toolu_h_1", "bj1"),
      "prompt-notification-1",
      written.notification("prompt-notification-1", "toolu_h_1", "bj1"),
    );
    const bare = await s.call("Bash", { command: "echo after" });
    expect(bare.denied).toMatch(/^utility gate: No action report before this Bash call/);
    const next = await s.call("Bash", { command: "echo reported" }, GOOD("tool_call"));
    expect(next.denied).toBe("");
    const main = s.state().main;
    expect(main.task).toBe(before.task);
    expect(main.step).toBe(before.step + 1);
    expect(main.refusals).toBe(1);
  });

  it("the same for a background Agent's notification (Agent runs in the background by default)", async () => {
    const s = Session.start(box, "notify-agent");
    await s.typed("dispatch it");
    s.append(line.skill(gatedSkill));
    const input = { subagent_type: "general-purpose", description: "d", prompt: "work" };
    const agent = await s.call("Agent", input, GOOD("delegate"));
    expect(agent.denied).toBe("");
    s.ran(agent, "Async agent launched successfully.\nagentId: a150bc437d9f2be4b");
    await s.submit(
      NOTIFICATION(agent.id, "a150bc437d9f2be4b"),
      "prompt-notification-2",
      written.notification("prompt-notification-2", agent.id, "a150bc437d9f2be4b"),
    );
    expect((await s.call("Bash", { command: "echo after" })).denied).toMatch(/No action report/);
    expect(s.state().main).toMatchObject({ task: 1, step: 1 });
  });

  it("a user line a shell appended (no UserPromptSubmit vouched for it) is not a prompt, even with the current prompt's id", async () => {
    const s = await gatedWithBackgroundBash("forged-line");
    s.append(written.typed("prompt-forged", "a new task, says the model"), line.prompt("run the dispatch"));
    expect((await s.call("Bash", { command: "echo after" })).denied).toMatch(/No action report/);
    expect(s.state().main.task).toBe(1);
  });

  it("a shell that reads the data folder finds no prompt id to forge a notification's line as typed before Claude Code writes it", async () => {
    const s = await gatedWithBackgroundBash("forged-from-state");
    const before = s.state().main;
    // The notification is vouched; its real line is not written yet (Claude Code flushes every 100 ms).
    await s.submit(NOTIFICATION("toolu_h_1", "bj1"), "prompt-notification-race", "");
    const files = [...tree(box.data)].filter(([, kind]) => kind.startsWith("file ")).map(([path]) => join(box.data, path));
    const everything = files.map((file) => readFileSync(file, "utf8")).join("\n");
    expect(everything).not.toContain("prompt-notification-race");
    // The model's shell tries every id-like string it found, then Claude Code writes the real line.
    const candidates = [...new Set(everything.match(/[\w-]{8,}/g) ?? [])];
    s.append(...candidates.map((id) => written.typed(id, "a new task, says the model")));
    s.append(written.notification("prompt-notification-race", "toolu_h_1", "bj1"));
    expect((await s.call("Bash", { command: "echo after" })).denied).toMatch(/No action report/);
    expect(s.state().main).toMatchObject({ task: before.task, step: before.step });
  });

  it("control: the user's next typed prompt starts a new task, ungated", async () => {
    const s = await gatedWithBackgroundBash("control-typed");
    await s.typed("something else now");
    expect((await s.call("Bash", { command: "echo free" })).denied).toBe("");
    expect(s.state().main).toMatchObject({ task: 2, step: 1, refusals: 0 });
  });
});
