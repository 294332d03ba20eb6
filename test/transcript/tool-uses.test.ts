import { afterAll, describe, expect, it } from "vitest";
import { censusOf, countToolUses } from "../../src/transcript/tool-uses.js";
import { readAll } from "../../src/transcript/forward-reader.js";
import { assistant, call, jsonl, prompt, result, tempDir, text } from "./helpers.js";

const temp = tempDir();
afterAll(() => temp.remove());

describe("countToolUses", () => {
  it("lists each call once with its line, scope and result size", () => {
    const subagentCall = JSON.stringify({
      type: "progress",
      isSidechain: false,
      data: { type: "agent_progress", agentId: "a1", message: JSON.parse(assistant("s", [call("sub", "Grep", { pattern: "x" })])) as object },
    });
    const path = temp.file(
      "census.jsonl",
      jsonl([
        prompt("go"),
        assistant("m", [text("report"), call("t1", "Bash", { command: "ls" })]),
        assistant("m", [call("t2", "Read")]),
        result("t1", "éé", { isError: true }),
        subagentCall,
        result("t2", [{ type: "text", text: "abc" }]),
      ]),
    );
    const census = countToolUses(path);
    expect(census.calls).toEqual([
      expect.objectContaining({ id: "t1", name: "Bash", input: { command: "ls" }, lineNo: 2, messageId: "m", sidechain: false, result: expect.objectContaining({ isError: true, bytes: 4, lineNo: 4 }) }),
      expect.objectContaining({ id: "t2", name: "Read", lineNo: 3, result: expect.objectContaining({ isError: false, bytes: 3, lineNo: 6 }) }),
      expect.objectContaining({ id: "sub", sidechain: true, agentId: "a1", lineNo: 5 }),
    ]);
    expect(census.calls[2]?.result).toBeUndefined();
    expect(census).toMatchObject({ duplicateToolUses: 0, unmatchedResults: [] });
  });

  it("counts a call repeated on several lines once, keeping the first copy", () => {
    const first = assistant("m", [call("t1", "Read", { file_path: "/a" })]);
    const repeated = assistant("m", [text("again"), call("t1", "Read", { file_path: "/changed" })]);
    const census = countToolUses(temp.file("dup.jsonl", jsonl([prompt("go"), first, first, repeated, result("t1"), result("t1", "second copy")])));
    expect(census.calls).toHaveLength(1);
    expect(census.calls[0]).toMatchObject({ input: { file_path: "/a" }, lineNo: 2, result: { lineNo: 5, bytes: 2 } });
    expect(census.duplicateToolUses).toBe(2);
  });

  it("reports results that match no call", () => {
    const census = censusOf(readAll(temp.file("orphan.jsonl", jsonl([result("ghost"), assistant("m", [call("t1")])]))));
    expect(census.unmatchedResults).toEqual(["ghost"]);
    expect(census.calls[0]?.result).toBeUndefined();
  });
});
