/**
 * SPEC §2 in the real client: a ScheduleWakeup's prompt reaches
 * UserPromptSubmit as a meta line nobody typed (Claude Code 2.1.328). A
 * ScheduleWakeup of `/utility off` (it fires at the next minute boundary,
 * clamped to at least 60 s) leaves `/utility on` in force. A file of its own:
 * the run waits a minute or two for the wakeup, and vitest.config.ts starts it
 * first so that the other files run meanwhile. Background notifications:
 * background.test.ts.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text, toolUse } from "../support/scripted-model.js";
import { afterTyped, expectRefused, gateRun, id, logOf, markerDir, ok, ran, touch } from "./support.js";

describe("a ScheduleWakeup of /utility off", () => {
  const marks = markerDir();
  const ids = { wake: id("wake"), bare: id("after_wake") };
  let run: Awaited<ReturnType<typeof afterTyped>>;

  beforeAll(async () => {
    run = await afterTyped(
      "/utility on",
      {
        prompt: "switch it off in a minute",
        allowedTools: ["Bash", "ScheduleWakeup"],
        timeoutMs: 150_000,
        script: [
          [
            text(ok("tool_call", "Schedule the wakeup.")),
            toolUse("ScheduleWakeup", { delaySeconds: 60, prompt: "/utility off", reason: "switch the gate off" }, ids.wake),
          ],
          [text("Scheduled.")],
          [text("Woke up."), touch(join(marks, "bare"), ids.bare)],
          [text("Still gated.")],
        ],
      },
      (o) => gateRun(o),
    );
  }, 200_000);
  afterAll(() => run?.cleanup());

  it("fires as a meta line the hooks do not take as typed, no UserPromptExpansion runs for it, and the gate stays on", () => {
    const wake = run.transcript().find((l) => l.type === "user" && l.wakeupSource);
    expect(wake).toMatchObject({ isMeta: true, promptSource: "system", turnOrigin: "scheduled", message: { content: "/utility off" } });
    // One UserPromptExpansion: the typed /utility on. The wakeup's UserPromptSubmit ran, and nothing switched it off.
    expect(logOf(run).filter((r) => r.event === "UserPromptExpansion")).toHaveLength(1);
    expect(logOf(run).filter((r) => r.event === "UserPromptSubmit")).toHaveLength(3);
    expect(logOf(run).filter((r) => r.switched === "off")).toEqual([]);
    expectRefused(run, ids.bare, "Bash", "no_report");
    expect(ran(join(marks, "bare"))).toBe(false);
  });
});
