/**
 * A ScheduleWakeup prompt reaches UserPromptSubmit exactly like a typed one
 * (2.1.328); its line says it was scheduled (isMeta, promptSource "system",
 * wakeupSource). Whatever its text, `/utility off` included, it neither
 * switches the gate nor starts a task (SPEC §2). Real hook processes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOOD, line, sandbox, skillFolder, type Sandbox } from "../support.js";
import { Session, written } from "./state-support.js";

let box: Sandbox;
beforeAll(() => (box = sandbox("utility-hostile-wakeup-")));
afterAll(() => box.remove());

describe("a wakeup the model scheduled", () => {
  it("a wakeup of /utility off leaves /utility on in force", async () => {
    const s = Session.start(box, "wake-off");
    await s.typed("/utility on");
    expect((await s.call("Bash", { command: "echo 1" })).denied).toMatch(/No action report/);
    await s.submit("/utility off", "prompt-wakeup-1", written.wakeup("prompt-wakeup-1", "/utility off"));
    expect((await s.call("Bash", { command: "echo 2" })).denied).toMatch(/No action report/);
    expect(s.state().manualGate).toBe(true);
  });

  it("any other wakeup prompt starts no task: the skill's gate and the steps stay", async () => {
    const s = Session.start(box, "wake-task");
    await s.typed("go");
    s.append(line.skill(skillFolder(box, "wake-gated", "utility_gated: true")));
    expect((await s.call("Bash", { command: "echo 1" }, GOOD("tool_call"))).denied).toBe("");
    await s.submit("carry on with the plan", "prompt-wakeup-2", written.wakeup("prompt-wakeup-2", "carry on with the plan"));
    expect((await s.call("Bash", { command: "echo 2" })).denied).toMatch(/No action report/);
    expect(s.state().main).toMatchObject({ task: 1, step: 1 });
  });

  it("control: the user typing /utility off switches it off", async () => {
    const s = Session.start(box, "typed-off");
    await s.typed("/utility on");
    await s.typed("/utility off");
    expect((await s.call("Bash", { command: "echo 1" })).denied).toBe("");
    expect(s.state().manualGate).toBe(false);
  });
});
