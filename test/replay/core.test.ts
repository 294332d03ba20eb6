// Replay over events in hand: scopes, exact repeats as the hooks would find them, and the gate.
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/replay/scope-run.js";
import type { ScopeReplay } from "../../src/replay/types.js";
import {
  GOOD,
  agentProgress,
  assistant,
  call,
  compactBoundary,
  compactSummary,
  message,
  prompt,
  replayLines,
  report,
  result,
  text,
} from "./support.js";

const READ_A = { file_path: "/repo/a.ts" };
const main = (scopes: ScopeReplay[]) => scopes.find((s) => s.id === "main")!;

describe("exact repeats in a replayed scope", () => {
  it("names where the first call ran and which later call repeats it, with the token estimate", () => {
    const lines = [
      prompt("look at a.ts"), // 1
      assistant("m1", [call("t1", "Read", READ_A)]), // 2
      result("t1", "x".repeat(1001)), // 3
      assistant("m2", [call("t2", "Grep", { pattern: "y", path: "/repo" })]), // 4
      result("t2", "a.ts"), // 5
      assistant("m3", [call("t3", "Read", { ...READ_A })]), // 6
      result("t3", "x".repeat(1001)), // 7
    ];
    const { scopes } = replayLines(lines);
    expect(main(scopes)).toMatchObject({ calls: 3, tasks: 1, repeatTokens: 251 });
    expect(main(scopes).repeats).toEqual([
      {
        tool: "Read",
        input: READ_A,
        digest: expect.stringMatching(/^[0-9a-f]{32}$/),
        first: { toolUseId: "t1", line: 2, index: 1, task: 1, step: 1 },
        repeat: { toolUseId: "t3", line: 6, index: 3, task: 1, step: 3 },
        resultBytes: 1001,
        tokens: 251,
      },
    ]);
    expect(estimateTokens(0)).toBe(0);
    expect(estimateTokens(4)).toBe(1);
    expect(estimateTokens(5)).toBe(2);
  });

  it("a compaction clears the history: the same read after it is not a repeat", () => {
    const before = [prompt("p"), assistant("m1", [call("t1", "Read", READ_A)]), result("t1", "body")];
    const after = [assistant("m2", [call("t2", "Read", READ_A)]), result("t2", "body")];
    expect(main(replayLines([...before, ...after]).scopes).repeats).toHaveLength(1);
    const compacted = main(replayLines([...before, compactBoundary(), compactSummary(), ...after]).scopes);
    expect(compacted.repeats).toEqual([]);
    expect(compacted.compactions).toBe(1); // the boundary line and its summary line are one compaction
    // ... and the history starts again from there.
    const third = [assistant("m3", [call("t3", "Read", READ_A)]), result("t3", "body")];
    expect(
      main(replayLines([...before, compactBoundary(), ...after, ...third]).scopes).repeats.map((r) => [
        r.first.toolUseId,
        r.repeat.toolUseId,
      ]),
    ).toEqual([["t2", "t3"]]);
  });

  it("only calls whose result came back are in the history (parallel twins are not repeats)", () => {
    const parallel = [prompt("p"), ...message("m1", [call("t1", "Read", READ_A), call("t2", "Read", READ_A)]), result("t1"), result("t2")];
    expect(main(replayLines(parallel).scopes).repeats).toEqual([]);
    const unanswered = [
      prompt("p"),
      assistant("m1", [call("t1", "Read", READ_A)]),
      assistant("m2", [call("t2", "Read", READ_A)]),
      result("t2"),
    ];
    const scope = main(replayLines(unanswered).scopes);
    expect(scope.repeats).toEqual([]);
    expect(scope.unanswered).toBe(1);
  });

  it("a sibling call still out when the repeat is decided stands in between if it could change the result", () => {
    const first = [prompt("p"), assistant("m1", [call("t1", "Read", READ_A)]), result("t1", "v1")];
    const withBash = [
      ...first,
      ...message("m2", [call("t2", "Bash", { command: "sed -i s/a/b/ /repo/a.ts" }), call("t3", "Read", READ_A)]),
      result("t2"),
      result("t3"),
    ];
    expect(main(replayLines(withBash).scopes).repeats).toEqual([]);
    const withGrep = [
      ...first,
      ...message("m2", [call("t2", "Grep", { pattern: "a", path: "/repo" }), call("t3", "Read", READ_A)]),
      result("t2"),
      result("t3"),
    ];
    expect(main(replayLines(withGrep).scopes).repeats.map((r) => [r.first.toolUseId, r.repeat.toolUseId])).toEqual([["t1", "t3"]]);
  });

  it("an edit in between clears; an errored call is never the original but still stands in between", () => {
    const lines = [
      prompt("p"),
      assistant("m1", [call("t1", "Read", READ_A)]),
      result("t1", "v1"),
      assistant("m2", [call("t2", "Edit", { file_path: "/repo/a.ts", old_string: "a", new_string: "b" })]),
      result("t2", "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", { isError: true }),
      assistant("m3", [call("t3", "Read", READ_A)]),
      result("t3", "v1"),
      assistant("m4", [call("t4", "Read", { file_path: "/repo/missing" })]),
      result("t4", "File does not exist.", { isError: true }),
      assistant("m5", [call("t5", "Read", { file_path: "/repo/missing" })]),
      result("t5", "File does not exist.", { isError: true }),
    ];
    const scope = main(replayLines(lines).scopes);
    expect(scope.repeats).toEqual([]);
    expect(scope.errors).toBe(3);
  });

  it("polling and neutral tools never repeat and are not steps", () => {
    const lines = [
      prompt("p"),
      assistant("m1", [call("t1", "TodoWrite", { todos: [] })]),
      result("t1"),
      assistant("m2", [call("t2", "TodoWrite", { todos: [] })]),
      result("t2"),
      assistant("m3", [call("t3", "BashOutput", { bash_id: "b" })]),
      result("t3"),
      assistant("m4", [call("t4", "BashOutput", { bash_id: "b" })]),
      result("t4"),
    ];
    const scope = main(replayLines(lines).scopes);
    expect(scope.repeats).toEqual([]);
    expect(scope.calls).toBe(4);
  });

  it("a line written twice counts once", () => {
    const line = assistant("m1", [call("t1", "Read", READ_A)], { uuid: "same" });
    const scope = main(replayLines([prompt("p"), line, line, result("t1"), result("t1")]).scopes);
    expect(scope).toMatchObject({ calls: 1, repeats: [] });
  });
});

describe("scopes of a session file", () => {
  it("1.0 inline sidechains: one scope per contiguous run, split at each subagent prompt, linked to the Task by its prompt", () => {
    const side = { sidechain: true };
    const lines = [
      prompt("do two things"), // 1
      ...message("m1", [
        call("task1", "Task", { description: "first", prompt: "Do A", subagent_type: "general-purpose" }),
        call("task2", "Task", { description: "second", prompt: "Do B" }),
      ]), // 2-3
      prompt("Do A", side), // 4
      assistant("s1", [call("a1", "Read", READ_A)], side), // 5
      result("a1", "body", side), // 6
      prompt("Do B", side), // 7: the next subagent, right after the first one's lines
      assistant("s2", [call("b1", "Read", READ_A)], side), // 8: the same read in another scope is not a repeat
      result("b1", "body", side), // 9
      result("task1", "A done"), // 10
      result("task2", "B done"), // 11
      assistant("m2", [call("t3", "Read", READ_A)]), // 12: nor in main
      result("t3", "body"),
    ];
    const { scopes } = replayLines(lines);
    expect(scopes.map((s) => [s.id, s.scope, s.source, s.calls, s.firstLine, s.lastLine])).toEqual([
      ["main", "main", "main", 3, 1, 13],
      ["sidechain:1", "agent", "inline", 1, 4, 6],
      ["sidechain:2", "agent", "inline", 1, 7, 9],
    ]);
    expect(scopes.flatMap((s) => s.repeats)).toEqual([]);
    expect(scopes[1]!.spawnedBy).toEqual({
      toolUseId: "task1",
      line: 2,
      tool: "Task",
      description: "first",
      subagentType: "general-purpose",
    });
    expect(scopes[2]!.spawnedBy).toMatchObject({ toolUseId: "task2", description: "second" });
  });

  it("2.1 agent_progress copies: one scope per agent id; its results come back inside progress lines", () => {
    const lines = [
      prompt("go"),
      assistant("m1", [call("task1", "Task", { description: "look", prompt: "Look at a" })]),
      agentProgress("ag1", prompt("Look at a")),
      agentProgress("ag1", assistant("s1", [call("a1", "Read", READ_A)])),
      agentProgress("ag1", result("a1", "body")),
      agentProgress("ag1", assistant("s2", [call("a2", "Read", READ_A)])),
      agentProgress("ag1", result("a2", "body")),
      result("task1", "done"),
    ];
    const { scopes } = replayLines(lines);
    expect(scopes.map((s) => [s.id, s.source, s.agentId, s.calls])).toEqual([
      ["main", "main", undefined, 1],
      ["agent:ag1", "inline", "ag1", 2],
    ]);
    expect(scopes[1]!.repeats.map((r) => [r.first.toolUseId, r.repeat.toolUseId, r.first.line, r.repeat.line])).toEqual([
      ["a1", "a2", 4, 6],
    ]);
    expect(scopes[1]!.spawnedBy?.toolUseId).toBe("task1");
  });

  it("a subagent's own file is one scope, whatever its lines say", () => {
    const lines = [
      prompt("Look", { sidechain: true, agentId: "ab12" }),
      assistant("s1", [call("a1", "Glob", { pattern: "*" })], { sidechain: true, agentId: "ab12" }),
      result("a1"),
    ];
    const { scopes } = replayLines(lines, { subagentFile: { agentId: "ab12" } });
    expect(scopes.map((s) => [s.id, s.scope, s.source, s.agentId, s.calls, s.tasks])).toEqual([
      ["agent:ab12", "agent", "subagent_file", "ab12", 1, 1],
    ]);
  });

  it("main-scope tasks start at each real prompt; steps count per task", () => {
    const lines = [
      prompt("one"),
      assistant("m1", [call("t1", "Read", READ_A)]),
      result("t1"),
      prompt("two"),
      assistant("m2", [call("t2", "Read", READ_A)]),
      result("t2"),
    ];
    const scope = main(replayLines(lines).scopes);
    expect(scope.tasks).toBe(2);
    // Repeats are judged since the last compaction, not per task (as the hooks do).
    expect(scope.repeats.map((r) => [r.first.task, r.first.step, r.repeat.task, r.repeat.step])).toEqual([[1, 1, 2, 1]]);
  });
});

describe("--gated: what the gate would have decided", () => {
  const gated = (lines: string[]) => main(replayLines(lines, { gated: true }).scopes).gate!;
  const bashCall = (id: string, command = `echo ${id}`) => call(id, "Bash", { command });

  it("no report → no_report; the report written before the call in the same message governs it", () => {
    const lines = [
      prompt("p"),
      assistant("m1", [bashCall("t1")]),
      result("t1"),
      ...message("m2", [text(report("tool_call", "0.28", GOOD)), bashCall("t2"), bashCall("t3")]),
      result("t2"),
      result("t3"),
      ...message("m3", [bashCall("t4"), text(report("tool_call", "0.28", GOOD))]), // a report after the call does not govern it
      result("t4"),
    ];
    const gate = gated(lines);
    expect(gate).toMatchObject({ passed: 2, refused: 2, neutral: 0, byRule: { no_report: 2 } });
    expect(gate.refusals.map((r) => [r.call.toolUseId, r.rule, r.stepsBefore])).toEqual([
      ["t1", "no_report", 0],
      ["t4", "no_report", 2],
    ]);
    expect(gate.refusals[0]!.reason).toContain("Breakdown: Gain=<0..1>");
  });

  it("the report reaches a call across a sibling's result line, within its own message only", () => {
    const lines = [
      prompt("p"),
      assistant("m1", [text(report("retrieve", "0.28", GOOD))]),
      assistant("m1", [call("t1", "Read", READ_A)]),
      result("t1"),
      assistant("m1", [call("t2", "Grep", { pattern: "x", path: "/repo" })]),
      result("t2"),
      assistant("m2", [call("t3", "Read", { file_path: "/repo/b.ts" })]), // another message: no report
      result("t3"),
    ];
    const gate = gated(lines);
    expect(gate.passed).toBe(2);
    expect(gate.refusals.map((r) => [r.call.toolUseId, r.rule])).toEqual([["t3", "no_report"]]);
  });

  it("refused calls are not steps; the budget runs out at max_steps (10)", () => {
    const lines = [prompt("p")];
    for (let i = 1; i <= 12; i++)
      lines.push(...message(`m${i}`, [text(report("tool_call", "0.28", GOOD)), bashCall(`t${i}`)]), result(`t${i}`));
    const gate = gated(lines);
    expect(gate.passed).toBe(10);
    expect(gate.refusals.map((r) => [r.call.toolUseId, r.rule, r.stepsBefore])).toEqual([
      ["t11", "budget_spent", 10],
      ["t12", "budget_spent", 10],
    ]);
    // A new prompt is a new task: the budget starts over.
    const next = [...lines, prompt("again"), ...message("n1", [text(report("tool_call", "0.28", GOOD)), bashCall("u1")]), result("u1")];
    expect(gated(next).passed).toBe(11);
  });

  it("an exact repeat claimed with Redundancy < 1 is refused with U at Redundancy 1; claimed at 1 it passes", () => {
    const retrieve = (r: string, u: string, gain = "0.7") =>
      text(report("retrieve", u, `Gain=${gain} StepCost=0.12 Uncertainty=0.6 Redundancy=${r}`));
    const lines = [
      prompt("p"),
      ...message("m1", [retrieve("0", "0.28"), call("t1", "Read", READ_A)]),
      result("t1"),
      ...message("m2", [retrieve("0", "0.28"), call("t2", "Read", READ_A)]),
      result("t2"),
      ...message("m3", [retrieve("1", "-0.62", "0.6"), call("t3", "Read", READ_A)]), // honest, but below the floor (−0.5)
      result("t3"),
      ...message("m4", [
        text(report("retrieve", "-0.46", "Gain=0.7 StepCost=0.0 Uncertainty=0.72 Redundancy=1")),
        call("t4", "Read", READ_A),
      ]),
      result("t4"),
    ];
    const gate = gated(lines);
    expect(gate.refusals.map((r) => [r.call.toolUseId, r.rule])).toEqual([
      ["t2", "exact_repeat"],
      ["t3", "below_floor"],
    ]);
    expect(gate.refusals[0]!.reason).toContain("= -0.52");
    expect(gate.passed).toBe(2);
  });

  it("the action must permit the tool; neutral tools are never checked", () => {
    const lines = [
      prompt("p"),
      ...message("m1", [text(report("retrieve", "0.28", GOOD)), bashCall("t1")]),
      result("t1"),
      assistant("m2", [call("t2", "TodoWrite", { todos: [] })]),
      result("t2"),
      assistant("m3", [call("t3", "Skill", { skill: "x" })]),
      result("t3"),
    ];
    const gate = gated(lines);
    expect(gate).toMatchObject({ passed: 0, refused: 1, neutral: 2, byRule: { tool_not_permitted: 1 } });
  });

  it("a subagent scope is checked with the subagent's actions (no delegate)", () => {
    const side = { sidechain: true };
    const lines = [
      prompt("p"),
      ...message("m1", [text(report("delegate", "0.28", GOOD)), call("task", "Task", { prompt: "Sub" })]),
      prompt("Sub", side),
      ...message("s1", [text(report("delegate", "0.28", GOOD)), call("s1c", "Task", { prompt: "Deeper" })], side),
      result("s1c", "no", side),
      result("task", "done"),
    ];
    const { scopes } = replayLines(lines, { gated: true });
    expect(scopes[0]!.gate).toMatchObject({ passed: 1, refused: 0 });
    expect(scopes[1]!.gate?.refusals.map((r) => r.rule)).toEqual(["unknown_action"]);
  });
});
