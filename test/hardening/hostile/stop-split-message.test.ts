/**
 * The Stop hook misses reports (issue 10, item 5): Claude Code hands the Stop
 * hook only the final message's last text block (docs/claude-code-facts.md).
 * A model that writes its report in one text block and a closing sentence in
 * the next must still be held to it: the hook reads every text block of the
 * message from the transcript (SPEC §4, §6). Real hook processes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOOD, hookInput, line, logRecords, runEntry, sandbox, skillFolder, text, type Sandbox } from "../support.js";

let box: Sandbox;
let gated: string;
let plain: string;
let counter = 0;
beforeAll(() => {
  box = sandbox("utility-stopsplit-");
  gated = skillFolder(box, "gated", "utility_gated: true");
  plain = skillFolder(box, "plain", "");
});
afterAll(() => box.remove());

/** A task whose final message is `blocks`, one transcript line each, sharing one message.id; Stop is handed the last block. */
async function stopAfter(blocks: string[], options: { skill?: string; active?: boolean } = {}) {
  const session = `stopsplit-${++counter}`;
  const transcript = box.transcript(`${session}.jsonl`, [
    line.prompt("why does test_parse fail?"),
    line.skill(options.skill ?? gated),
    ...line.assistant(`msg_final_${counter}`, blocks.map(text)),
  ]);
  const base = { session, transcript, cwd: box.project };
  const ups = await runEntry(
    "user-prompt-submit",
    JSON.stringify(hookInput("user-prompt-submit", base, { prompt: "why does test_parse fail?" })),
    box.env(),
  );
  expect(ups.stderr).toBe("");
  const stop = (active: boolean) =>
    runEntry(
      "stop",
      JSON.stringify(hookInput("stop", base, { last_assistant_message: blocks.at(-1), stop_hook_active: active })),
      box.env(),
    );
  return { session, stop };
}

describe("a final message split over text blocks", () => {
  it("a report in the first block and prose in the second is blocked once", async () => {
    const { session, stop } = await stopAfter([GOOD("verify"), "I will run the test next."]);
    const first = await stop(false);
    expect(first.stderr).toBe("");
    expect(JSON.parse(first.stdout)).toEqual({
      decision: "block",
      reason: expect.stringContaining("your last report selected verify (Utility 0.28) but no call was made"),
    });
    const again = await stop(true);
    expect(again.stdout).toBe("");
    expect(
      logRecords(box.data, session)
        .filter((r) => r.event === "Stop")
        .map((r) => r.decision),
    ).toEqual(["blocked", "observed"]);
  });

  it("the report between two prose blocks is found too", async () => {
    const { stop } = await stopAfter(["Let me think.", GOOD("retrieve"), "Next I read the file."]);
    expect(JSON.parse((await stop(false)).stdout)).toMatchObject({ decision: "block" });
  });

  it("a control: a final report that selects respond is let stop", async () => {
    const { stop } = await stopAfter([GOOD("respond"), "The cause is X."]);
    expect((await stop(false)).stdout).toBe("");
  });

  it("a control: an ungated scope is never blocked", async () => {
    const { stop } = await stopAfter([GOOD("verify"), "I will run the test next."], { skill: plain });
    expect((await stop(false)).stdout).toBe("");
  });
});
