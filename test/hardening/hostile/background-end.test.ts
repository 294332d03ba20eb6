/**
 * A background job counts as in between for an exact repeat until its end
 * is recorded (SPEC §7): its `<task-notification>`, a poll that shows it
 * finished, or a stop of it. After that a true repeat is caught, in the hooks
 * (real processes) and in replay alike.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayEvents } from "../../../src/replay/core.js";
import { readAll } from "../../../src/transcript/forward-reader.js";
import { GOOD, line, sandbox, skillFolder, type Sandbox } from "../support.js";
import { NOTIFICATION, Session, written } from "./state-support.js";

let box: Sandbox;
let gated: string;
beforeAll(() => {
  box = sandbox("utility-hostile-bg-");
  gated = skillFolder(box, "bg-gated", "utility_gated: true");
});
afterAll(() => box.remove());

const READ = { file_path: "/etc/hostname" };

/** Bash in the background (shell id bj7), then a Read; the job's end (if any) recorded by `end`; then the same Read again. */
async function scenario(
  id: string,
  end: (s: Session, bg: { id: string }) => Promise<void>,
): Promise<{ s: Session; second: { denied: string } }> {
  const s = Session.start(box, id);
  await s.typed("go");
  s.append(line.skill(gated));
  const bgInput = { command: "sleep 1", run_in_background: true };
  const bg = await s.call("Bash", bgInput, GOOD("tool_call"));
  s.ran(bg, "Command running in background with ID: bj7.");
  await end(s, bg);
  const first = await s.call("Read", READ, GOOD("retrieve"));
  expect(first.denied).toBe("");
  s.ran(first);
  const second = await s.call("Read", READ, GOOD("retrieve"));
  return { s, second };
}

describe("a finished background job no longer blocks a repeat", () => {
  it("control: while the job runs, the second Read is not provably a repeat", async () => {
    const { second } = await scenario("bg-running", async () => {});
    expect(second.denied).toBe("");
  });

  it("after its <task-notification> says completed, the second Read is an exact repeat (refused with Redundancy 0)", async () => {
    const { s, second } = await scenario("bg-notified", (s, bg) =>
      s.submit(NOTIFICATION(bg.id, "bj7"), "prompt-n7", written.notification("prompt-n7", bg.id, "bj7")),
    );
    expect(second.denied).toMatch(/exact repeat/);
    // Replay reads the same transcript the same way.
    const replayed = replayEvents(readAll(s.transcript));
    expect(replayed.scopes.find((r) => r.scope === "main")!.repeats.length).toBe(1);
  });

  it("after a TaskStop of it, the same", async () => {
    const { second } = await scenario("bg-stopped", async (s) => {
      const input = { task_id: "bj7" };
      const stop = await s.call("TaskStop", input, GOOD("tool_call"));
      expect(stop.denied).toBe("");
      s.ran(stop, "stopped");
    });
    expect(second.denied).toMatch(/exact repeat/);
  });

  it("after a BashOutput that shows it finished, the same; one that shows it running ends nothing", async () => {
    const poll = (status: string) => async (s: Session) => {
      const input = { bash_id: "bj7" };
      const call = await s.call("BashOutput", input, GOOD("retrieve"));
      expect(call.denied).toBe("");
      s.ran(call, `<status>${status}</status>\n<stdout>x</stdout>`);
    };
    expect((await scenario("bg-polled", poll("completed"))).second.denied).toMatch(/exact repeat/);
    expect((await scenario("bg-polled-running", poll("running"))).second.denied).toBe("");
  });
});
