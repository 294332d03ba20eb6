import { closeSync, openSync, writeSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAll } from "../../src/transcript/forward-reader.js";
import {
  findGoverningText,
  findSkillActivations,
  lastCompaction,
  lastCompactionIndex,
  lastUserPrompt,
  lastUserPromptIndex,
} from "../../src/transcript/queries.js";
import { bufferSource, openFileSource } from "../../src/transcript/source.js";
import {
  assistant,
  call,
  compactBoundary,
  compactSummary,
  jsonl,
  meta,
  progress,
  prompt,
  result,
  snapshot,
  tempDir,
  text,
} from "./helpers.js";

const temp = tempDir();
afterAll(() => temp.remove());

const REPORT_A = "Action: retrieve\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0";
const REPORT_B = "Action: verify\nUtility: 0.1\nBreakdown: Gain=0.5 StepCost=0.1 Uncertainty=0.5 Redundancy=0.0";

const source = (lines: string[]) => bufferSource(Buffer.from(jsonl(lines)));

describe("findGoverningText", () => {
  it("joins the message's lines across a sibling call's result and progress lines", () => {
    const lines = [
      prompt("go"),
      assistant("msg_old", [text("Action: stop — an older message")]),
      assistant("msg_1", [{ type: "thinking", thinking: "…" }]),
      assistant("msg_1", [text(REPORT_A)]),
      assistant("msg_1", [call("t1", "Grep")]),
      progress("t1"),
      result("t1", "Action: tool_call (inside a tool result: never evidence)"),
      snapshot(),
      assistant("msg_1", [call("t2", "Read")]),
    ];
    const found = findGoverningText(source(lines), "t2");
    expect(found).toMatchObject({
      found: true,
      messageId: "msg_1",
      text: REPORT_A,
      textBlocks: [REPORT_A],
      toolUse: { id: "t2", name: "Read" },
      toolUseIds: ["t1", "t2"],
      model: "claude-opus-4-6",
    });
    expect(findGoverningText(source(lines), "t1")).toMatchObject({ found: true, text: REPORT_A, toolUseIds: ["t1", "t2"] });
  });

  it("lists the calls written after the call too, but not a later message's", () => {
    const lines = [
      prompt("go"),
      assistant("m", [text(REPORT_A)]),
      assistant("m", [call("t1")]),
      result("t1"),
      assistant("m", [call("t2")]),
      result("t2"),
      assistant("n", [text(REPORT_B)]),
      assistant("n", [call("t3")]),
    ];
    expect(findGoverningText(source(lines), "t1")).toMatchObject({ messageId: "m", textBlocks: [REPORT_A], toolUseIds: ["t1", "t2"] });
    expect(findGoverningText(source(lines), "t3")).toMatchObject({ messageId: "n", textBlocks: [REPORT_B], toolUseIds: ["t3"] });
  });

  it("keeps only the text before the call, in order", () => {
    const lines = [
      prompt("go"),
      assistant("m", [text(REPORT_A)]),
      assistant("m", [call("t1")]),
      assistant("m", [text(REPORT_B)]),
      assistant("m", [call("t2")]),
    ];
    expect(findGoverningText(source(lines), "t1")).toMatchObject({ textBlocks: [REPORT_A] });
    expect(findGoverningText(source(lines), "t2")).toMatchObject({ textBlocks: [REPORT_A, REPORT_B], text: `${REPORT_A}\n\n${REPORT_B}` });
  });

  it("reads the 1.0 shape too: several blocks in one line", () => {
    const lines = [prompt("go"), assistant("m", [text("a"), call("t1"), text("b"), call("t2")])];
    expect(findGoverningText(source(lines), "t2")).toMatchObject({ textBlocks: ["a", "b"], toolUseIds: ["t1", "t2"] });
  });

  it("never takes text from a previous message, a user line or a tool result", () => {
    const lines = [
      prompt(REPORT_A),
      assistant("m0", [text(REPORT_B), call("t0")]),
      result("t0", REPORT_A),
      meta(REPORT_A),
      assistant("m1", [call("t1")]),
    ];
    expect(findGoverningText(source(lines), "t1")).toMatchObject({ found: true, text: "", textBlocks: [], toolUseIds: ["t1"] });
  });

  it("does not repeat a line written twice", () => {
    const report = assistant("m", [text(REPORT_A)], { uuid: "same" });
    const lines = [prompt("go"), report, report, assistant("m", [call("t1")])];
    expect(findGoverningText(source(lines), "t1")).toMatchObject({ textBlocks: [REPORT_A] });
  });

  it("reads main lines only unless told otherwise; sidechain lines between do not end the message", () => {
    const lines = [
      prompt("go"),
      assistant("m", [text(REPORT_A)]),
      assistant("m", [call("task", "Task")]),
      prompt("subagent prompt", { sidechain: true }),
      assistant("s1", [text(REPORT_B)], { sidechain: true }),
      assistant("s1", [call("sub1", "Bash")], { sidechain: true }),
      assistant("m", [call("t2", "Read")]),
    ];
    expect(findGoverningText(source(lines), "t2")).toMatchObject({ found: true, textBlocks: [REPORT_A], toolUseIds: ["task", "t2"] });
    expect(findGoverningText(source(lines), "sub1")).toEqual({ found: false, reason: "other_scope" });
    expect(findGoverningText(source(lines), "sub1", { lines: "sidechain" })).toMatchObject({ found: true, textBlocks: [REPORT_B] });
    expect(findGoverningText(source(lines), "t2", { lines: "sidechain" })).toEqual({ found: false, reason: "other_scope" });
  });

  it("filters by agent id where lines carry one", () => {
    const lines = [
      prompt("task a", { sidechain: true, agentId: "a" }),
      assistant("ma", [text("from a")], { sidechain: true, agentId: "a" }),
      assistant("mb", [text("from b")], { sidechain: true, agentId: "b" }),
      assistant("ma", [call("ta")], { sidechain: true, agentId: "a" }),
    ];
    expect(findGoverningText(source(lines), "ta", { lines: "sidechain", agentId: "a" })).toMatchObject({ textBlocks: ["from a"] });
  });

  it("says not found, searching no further back than the last prompt", () => {
    const early = [prompt("first"), assistant("m0", [text(REPORT_A), call("t0")]), result("t0")];
    const filler = Array.from({ length: 2000 }, (_, i) => result(`x${i}`, "y".repeat(100)));
    const bytes = Buffer.from(jsonl([...early, ...filler, prompt("second"), assistant("m1", [call("t1")])]));
    const counted = bufferSource(bytes);
    expect(findGoverningText(counted, "t0", { chunkSize: 4096 })).toEqual({ found: false, reason: "absent" });
    expect(counted.bytesRead).toBe(4096);
    expect(findGoverningText(source([prompt("x")]), "nope")).toEqual({ found: false, reason: "absent" });
  });

  it("gives up at maxBytes", () => {
    const lines = [prompt("go"), assistant("m", [call("t1")]), ...Array.from({ length: 100 }, () => result("t1", "z".repeat(1000)))];
    expect(findGoverningText(source(lines), "t1", { maxBytes: 10_000 })).toEqual({ found: false, reason: "limit" });
    expect(findGoverningText(source(lines), "t1")).toMatchObject({ found: true });
  });

  it("stops collecting at a compaction", () => {
    const lines = [prompt("go"), assistant("m", [text("before")]), compactBoundary(), assistant("m", [call("t1")])];
    expect(findGoverningText(source(lines), "t1")).toMatchObject({ textBlocks: [] });
  });
});

describe("findSkillActivations", () => {
  const lines = [
    prompt("first task"),
    meta("Base directory for this skill: /skills/old"),
    prompt("<command-message>gated</command-message>\n<command-name>/gated</command-name>"),
    meta("Base directory for this skill: /skills/gated\n\n# Gated\nbody"),
    assistant("m", [call("s1", "Skill", { skill: "other" })]),
    result("s1", "Base directory for this skill: /skills/from-a-tool-result"),
    meta("Base directory for this skill: /skills/other"),
    prompt("[Request interrupted by user]"),
    prompt("Base directory for this skill: /typed/by/user"),
  ];

  it("lists the current task's skills in order (a slash command is the task's prompt)", () => {
    const current = lines.slice(0, -1);
    expect(findSkillActivations(source(current)).map((skill) => skill.folder)).toEqual(["/skills/gated", "/skills/other"]);
  });

  it("lists nothing once a new prompt starts a task", () => {
    expect(findSkillActivations(source(lines))).toEqual([]);
  });

  it("lists every activation when asked", () => {
    expect(findSkillActivations(source(lines), { sinceLastUserPrompt: false }).map((skill) => skill.folder)).toEqual([
      "/skills/old",
      "/skills/gated",
      "/skills/other",
    ]);
  });

  it("keeps activations across a compaction within the task", () => {
    const withCompaction = [
      prompt("go"),
      meta("Base directory for this skill: /s"),
      compactBoundary(),
      compactSummary(),
      assistant("m", [call("t")]),
    ];
    expect(findSkillActivations(source(withCompaction)).map((skill) => skill.folder)).toEqual(["/s"]);
  });
});

describe("lastUserPrompt and lastCompaction", () => {
  const lines = [
    prompt("one"),
    compactBoundary(),
    compactSummary(),
    prompt("two"),
    meta("Caveat"),
    assistant("m", [call("t1")]),
    result("t1"),
    prompt("[Request interrupted by user for tool use]"),
  ];

  it("finds the last real prompt", () => {
    expect(lastUserPrompt(source(lines))).toMatchObject({ text: "two" });
    expect(lastUserPrompt(source([assistant("m", [text("x")])]))).toBeNull();
  });

  it("finds the last compaction (the summary line after the boundary)", () => {
    const found = lastCompaction(source(lines));
    expect(found?.source).toBe("summary");
    expect(lastCompaction(source([prompt("x")]))).toBeNull();
  });

  it("answers the same over events in hand", () => {
    const path = temp.file("events.jsonl", jsonl(lines));
    const events = readAll(path);
    expect(events[lastCompactionIndex(events)]).toMatchObject({ kind: "compact", source: "summary" });
    expect(events[lastUserPromptIndex(events)]).toMatchObject({ text: "two" });
    expect(lastCompactionIndex([])).toBe(-1);
  });
});

describe("on a 50 MB transcript", () => {
  const path = `${temp.path}/large.jsonl`;
  const turn = Buffer.from(
    jsonl([
      prompt("next task"),
      meta("Base directory for this skill: /skills/old"),
      assistant("msg_turn", [text(REPORT_B)]),
      assistant("msg_turn", [call("toolu_turn", "Read")]),
      result("toolu_turn", "file contents ".repeat(400)),
    ]),
  );
  const tail = Buffer.from(
    jsonl([
      prompt("the last task"),
      meta("Base directory for this skill: /skills/gated"),
      assistant("msg_last", [text(REPORT_A)]),
      assistant("msg_last", [call("toolu_first", "Grep")]),
      result("toolu_first", "match"),
      assistant("msg_last", [call("toolu_last", "Read")]),
    ]),
  );

  function writeLarge(): void {
    const fd = openSync(path, "w");
    const block = Buffer.concat(Array.from({ length: Math.ceil((1024 * 1024) / turn.length) }, () => turn));
    for (let written = 0; written < 50 * 1024 * 1024; written += block.length) writeSync(fd, block);
    writeSync(fd, tail);
    closeSync(fd);
  }
  // Each test reads the file on its own: none depends on another having run first.
  beforeAll(writeLarge);

  it("finds the governing text of the last call reading less than 1 MB", () => {
    const file = openFileSource(path);
    const started = performance.now();
    const found = findGoverningText(file, "toolu_last");
    const elapsed = performance.now() - started;
    file.close();
    expect(file.size).toBeGreaterThan(50 * 1024 * 1024);
    expect(found).toMatchObject({ found: true, text: REPORT_A, toolUseIds: ["toolu_first", "toolu_last"] });
    expect(file.bytesRead).toBeLessThan(1024 * 1024);
    console.info(`findGoverningText on ${(file.size / 1e6).toFixed(1)} MB: ${file.bytesRead} bytes read, ${elapsed.toFixed(2)} ms`);
  });

  it("finds the current task's skills and prompt reading less than 1 MB", () => {
    const file = openFileSource(path);
    expect(findSkillActivations(file).map((skill) => skill.folder)).toEqual(["/skills/gated"]);
    expect(lastUserPrompt(file)).toMatchObject({ text: "the last task" });
    expect(file.bytesRead).toBeLessThan(1024 * 1024);
    file.close();
  });
});
