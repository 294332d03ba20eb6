/**
 * The smaller holes of issue 10, closed as SPEC §5, §6 and §10 say, each run
 * through the real hook processes.
 */
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSession, type SessionDraft } from "../../../src/engine/session/state.js";
import { FileStateStore } from "../../../src/state/store.js";
import { GOOD, line, sandbox, skillFolder, type Sandbox } from "../support.js";
import { Session } from "./state-support.js";

let box: Sandbox;
beforeAll(() => (box = sandbox("utility-hostile-holes-")));
afterAll(() => box.remove());

async function gatedBy(id: string, frontmatter: string): Promise<Session> {
  const s = Session.start(box, id);
  await s.typed("go");
  s.append(line.skill(skillFolder(box, `skill-${id}`, frontmatter)));
  return s;
}

describe("tools that act on background jobs are not neutral (SPEC §6)", () => {
  it("TaskStop and KillShell need a report; TaskOutput and BashOutput are retrieve", async () => {
    const s = await gatedBy("jobs", "utility_gated: true");
    expect((await s.call("TaskStop", { task_id: "b1" })).denied).toMatch(/No action report before this TaskStop call/);
    expect((await s.call("KillShell", { shell_id: "b1" }, GOOD("retrieve"))).denied).toMatch(/Action retrieve does not permit KillShell/);
    expect((await s.call("TaskOutput", { task_id: "b1" })).denied).toMatch(/No action report/);
    expect((await s.call("TaskOutput", { task_id: "b1" }, GOOD("retrieve"))).denied).toBe("");
    expect((await s.call("BashOutput", { bash_id: "b1" }, GOOD("tool_call"))).denied).toMatch(
      /Action tool_call does not permit BashOutput/,
    );
  });
});

describe("opt-in values (SPEC §5)", () => {
  it("utility_gated false at the top level and true under metadata is an error that gates (either order)", async () => {
    for (const [i, fm] of [
      "utility_gated: false\nmetadata:\n  utility_gated: true",
      "utility_gated: true\nmetadata:\n  utility_gated: false",
    ].entries()) {
      const s = await gatedBy(`conflict-${i}`, fm);
      expect((await s.call("Bash", { command: "echo x" }, GOOD("tool_call"))).denied).toMatch(/invalid opt-in.*utility_gated/);
    }
  });

  it('utility_gated "false", no and 0 gate nothing; "true" and yes gate (with the type error)', async () => {
    for (const [i, value] of ['"false"', "no", "0"].entries()) {
      const s = await gatedBy(`reads-no-${i}`, `utility_gated: ${value}`);
      expect((await s.call("Bash", { command: "echo x" })).denied).toBe("");
    }
    for (const [i, value] of ['"true"', "yes"].entries()) {
      const s = await gatedBy(`reads-yes-${i}`, `utility_gated: ${value}`);
      expect((await s.call("Bash", { command: "echo x" }, GOOD("tool_call"))).denied).toMatch(/invalid opt-in/);
    }
  });
});

describe("what the gate remembers (SPEC §10)", () => {
  it("deleting the state file does not forget /utility on", async () => {
    const s = Session.start(box, "forget");
    await s.typed("/utility on");
    expect((await s.call("Bash", { command: "echo 1" })).denied).toMatch(/No action report/);
    rmSync(join(box.data, "state", "forget.json"));
    expect((await s.call("Bash", { command: "echo 2" })).denied).toMatch(/No action report/);
  });

  it("a stored offset past the transcript's end re-reads from a safe point: a skill activated since still gates", async () => {
    const s = Session.start(box, "offset");
    await s.typed("go");
    expect((await s.call("Bash", { command: "echo 1" })).denied).toBe("");
    const file = join(box.data, "state", "offset.json");
    const state = s.state() as SessionDraft; // parsed from the file: a copy the test may change
    state.main.offset = 10_000_000;
    writeFileSync(file, JSON.stringify(state));
    s.append(line.skill(skillFolder(box, "offset-gated", "utility_gated: true")));
    expect((await s.call("Bash", { command: "echo 2" })).denied).toMatch(/No action report/);
  });

  it("planted links for state/ and the session log are not followed out of the data folder", async () => {
    const outside = join(box.root, "outside");
    const data = join(box.root, "data-links");
    mkdirSync(outside, { recursive: true });
    mkdirSync(join(data, "sessions"), { recursive: true });
    symlinkSync(outside, join(data, "state"));
    symlinkSync(join(outside, "log.jsonl"), join(data, "sessions", "links.jsonl"));
    // No UserPromptSubmit: it could not keep its state either (it says so on stderr, and the prompt goes on).
    const s = new Session(box, "links", box.transcript("links.jsonl", [line.prompt("go")]), box.env({ UTILITY_DATA_DIR: data }));
    s.append(line.skill(skillFolder(box, "links-gated", "utility_gated: true")));
    expect((await s.call("Bash", { command: "echo 1" }, GOOD("tool_call"))).denied).toMatch(
      /the gate's state cannot be read .*symbolic link/,
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it("a link planted in the temporary file's place is removed, not written through", async () => {
    const outside = join(box.root, "outside-tmp");
    const data = join(box.root, "data-tmp");
    mkdirSync(outside, { recursive: true });
    mkdirSync(join(data, "state"), { recursive: true });
    const store = new FileStateStore(data);
    symlinkSync(join(outside, "tmp.json"), `${store.path("tmp")}.${process.pid}.tmp`);
    await store.transact("tmp", (existing) => ({ state: existing ?? newSession("tmp"), result: undefined }));
    expect(readdirSync(outside)).toEqual([]);
    expect(store.read("tmp")?.sessionId).toBe("tmp");
  });
});

describe("the gate's own records are not the model's to edit (SPEC §6)", () => {
  it("a Write of the state file, an Edit of the log or of the transcript is refused in a gated scope", async () => {
    const s = await gatedBy("records", "utility_gated: true");
    expect((await s.call("Bash", { command: "echo 1" }, GOOD("tool_call"))).denied).toBe("");
    const write = await s.call("Write", { file_path: join(box.data, "state", "records.json"), content: "{}" }, GOOD("tool_call"));
    expect(write.denied).toMatch(/inside the plugin's data folder/);
    expect(
      (
        await s.call(
          "Edit",
          { file_path: join(box.data, "sessions", "records.jsonl"), old_string: "a", new_string: "b" },
          GOOD("tool_call"),
        )
      ).denied,
    ).toMatch(/data folder/);
    expect((await s.call("Write", { file_path: s.transcript, content: "" }, GOOD("tool_call"))).denied).toMatch(/is a transcript file/);
    expect((await s.call("Write", { file_path: join(box.project, "notes.md"), content: "x" }, GOOD("tool_call"))).denied).toBe("");
  });
});
