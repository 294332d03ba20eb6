// The file layer: subagent files beside a session file, given directly, and counted once.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReplayInputError, planFiles, replayFiles, subagentFilesOf, subagentIdOf } from "../../src/replay/files.js";
import { agentProgress, assistant, call, jsonl, prompt, result, tempDir, type TempDir } from "./support.js";

const READ = { file_path: "/repo/a.ts" };
let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

/** A 2.1 session: main delegates with Agent; the subagent's own file lies in <session>/subagents/. */
function session(withCopies: boolean): { main: string; sub: string } {
  const sub = [
    prompt("Read a twice", { sidechain: true, agentId: "a1b2" }),
    assistant("s1", [call("s1c", "Read", READ)], { sidechain: true, agentId: "a1b2" }),
    result("s1c", "body", { sidechain: true, agentId: "a1b2" }),
    assistant("s2", [call("s2c", "Read", READ)], { sidechain: true, agentId: "a1b2" }),
    result("s2c", "body", { sidechain: true, agentId: "a1b2" }),
  ];
  const main = [
    prompt("go"),
    assistant("m1", [call("agent1", "Agent", { description: "reader", prompt: "Read a twice", subagent_type: "general-purpose" })]),
    ...(withCopies ? sub.map((line) => agentProgress("a1b2", line)) : []),
    result("agent1", "done"),
  ];
  mkdirSync(join(dir.path, "sess-1", "subagents"), { recursive: true });
  return { main: dir.file("sess-1.jsonl", jsonl(main)), sub: dir.file("sess-1/subagents/agent-a1b2.jsonl", jsonl(sub)) };
}

describe("which files a replay reads", () => {
  it("knows a subagent file by its path", () => {
    expect(subagentIdOf("/p/sess/subagents/agent-a1b2.jsonl")).toBe("a1b2");
    expect(subagentIdOf("/p/sess.jsonl")).toBeUndefined();
  });

  it("brings the subagent files beside a session file, once each, after it", () => {
    const { main, sub } = session(false);
    dir.file("sess-1/subagents/notes.txt", "not a transcript");
    expect(subagentFilesOf(main)).toEqual([sub]);
    expect(planFiles([main, sub, main], dir.path)).toEqual([
      { path: main, role: "session" },
      { path: sub, role: "subagent", subagentOf: main },
    ]);
    expect(planFiles(["sess-1/subagents/agent-a1b2.jsonl"], dir.path)).toEqual([{ path: sub, role: "subagent" }]);
  });

  it("refuses what it cannot read, in one line", () => {
    expect(() => replayFiles([join(dir.path, "missing.jsonl")])).toThrow(ReplayInputError);
    expect(() => replayFiles([join(dir.path, "missing.jsonl")])).toThrow(/cannot read .*missing\.jsonl: no file or folder at this path\.$/);
    expect(() => replayFiles([dir.path])).toThrow(/is not a file/);
    expect(() => replayFiles([])).toThrow(/at least one/);
  });
});

describe("replaying a session with its subagent files", () => {
  it("replays the subagent's own file as its scope and links it to the Agent call", () => {
    const { main, sub } = session(false);
    const report = replayFiles([main]);
    expect(report.files.map((f) => [f.path, f.role, f.calls])).toEqual([
      [main, "session", 1],
      [sub, "subagent", 2],
    ]);
    const scope = report.files[1]!.scopes[0]!;
    expect(scope).toMatchObject({ id: "agent:a1b2", scope: "agent", source: "subagent_file", agentId: "a1b2", calls: 2 });
    expect(scope.spawnedBy).toEqual({
      toolUseId: "agent1",
      line: 2,
      tool: "Agent",
      description: "reader",
      subagentType: "general-purpose",
    });
    expect(scope.repeats.map((r) => [r.first.line, r.repeat.line])).toEqual([[2, 4]]);
    expect(report.totals).toEqual({
      files: 2,
      scopes: 2,
      calls: 3,
      repeats: 1,
      repeatTokens: 1,
      identicalOutcomes: 0,
      stuckLoops: 0,
      spend: expect.any(Object),
      pricesDate: expect.any(String),
    });
  });

  it("counts a subagent once when its calls are also copied into the session file (agent_progress)", () => {
    const { main } = session(true);
    const report = replayFiles([main]);
    // One session, one machine: the subagent is read from its own file; its copies in the session file are left out.
    expect(report.files[0]!.scopes.map((s) => s.id)).toEqual(["main"]);
    expect(report.files[1]!.scopes.map((s) => s.id)).toEqual(["agent:a1b2"]);
    expect(report.totals).toMatchObject({ scopes: 2, calls: 3, repeats: 1 });
  });

  it("with --gated, totals what the gate would refuse and let through", () => {
    const { main } = session(false);
    const report = replayFiles([main], { gated: true });
    expect(report.totals).toMatchObject({ refused: 3, passed: 0 });
  });
});

describe("a Workflow's subagents (subagents/workflows/<run id>/agent-<id>.jsonl)", () => {
  it("are found beside the session file and named by their agent id", () => {
    const dir = mkdtempSync(join(tmpdir(), "utility-wf-"));
    try {
      const main = join(dir, "s.jsonl");
      writeFileSync(main, "");
      mkdirSync(join(dir, "s", "subagents", "workflows", "wf_abc123"), { recursive: true });
      writeFileSync(join(dir, "s", "subagents", "agent-a1.jsonl"), "");
      writeFileSync(join(dir, "s", "subagents", "workflows", "wf_abc123", "agent-w2.jsonl"), "");
      expect(subagentFilesOf(main).map((f) => subagentIdOf(f))).toEqual(["a1", "w2"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
