import { appendFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { readAll, readEventsFrom, readForwardFrom, readLinesForward } from "../../src/transcript/forward-reader.js";
import { bufferSource } from "../../src/transcript/source.js";
import { assistant, call, jsonl, prompt, result, snapshot, tempDir, text } from "./helpers.js";

const temp = tempDir();
afterAll(() => temp.remove());

describe("readLinesForward", () => {
  it("agrees with splitting on newlines for any chunk size, numbering lines from 1", () => {
    const lineText = fc.string({ unit: fc.constantFrom("a", "é", "😀", "\r"), maxLength: 10 });
    fc.assert(
      fc.property(fc.array(lineText, { maxLength: 10 }), fc.integer({ min: 1, max: 16 }), (lines, chunkSize) => {
        const content = Buffer.from(lines.join("\n"));
        const read = [...readLinesForward(bufferSource(content), 0, { chunkSize })];
        const expected = lines.map((line, i) => ({ line, lineNo: i + 1 })).filter(({ line }) => line !== "");
        expect(read.map((line) => Buffer.from(line.bytes!).toString("utf8"))).toEqual(expected.map(({ line }) => line));
        expect(read.map((line) => line.lineNo)).toEqual(expected.map(({ lineNo }) => lineNo));
      }),
      { numRuns: 300 },
    );
  });
});

describe("readForwardFrom", () => {
  it("never returns a partial last line and says where it starts", () => {
    const complete = `${prompt("a")}\n${result("t1")}\n`;
    const partial = assistant("m", [text("Action: retrieve")]).slice(0, 30);
    const path = temp.file("partial.jsonl", complete + partial);
    const first = readForwardFrom(path, 0);
    expect(first.lines).toHaveLength(2);
    expect(first.nextOffset).toBe(Buffer.byteLength(complete));
    expect(first.shrunk).toBe(false);
  });

  it("continues where it stopped once the line is finished", () => {
    const line = assistant("m", [text("Action: retrieve"), call("t2")]);
    const path = temp.file("grow.jsonl", `${prompt("a")}\n${line.slice(0, 25)}`);
    const first = readEventsFrom(path, 0);
    appendFileSync(path, `${line.slice(25)}\n${result("t2")}\n`);
    const second = readEventsFrom(path, first.nextOffset);
    expect(first.events.map((event) => event.kind)).toEqual(["user_text"]);
    expect(second.events.map((event) => event.kind)).toEqual(["assistant", "tool_result"]);
    expect(readForwardFrom(path, second.nextOffset)).toEqual({ lines: [], nextOffset: second.nextOffset, shrunk: false });
  });

  it("reads a transcript appended in random pieces exactly once, in order", () => {
    const whole = Buffer.from(jsonl([prompt("a"), assistant("m", [text("é😀"), call("t1")]), result("t1", "ok"), prompt("b")]));
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: whole.length - 1 }), { maxLength: 8 }), (cuts) => {
        const ends = [...cuts.sort((a, b) => a - b), whole.length];
        let offset = 0;
        const kinds: string[] = [];
        for (const end of ends) {
          const read = readEventsFrom(bufferSource(whole.subarray(0, end)), offset);
          kinds.push(...read.events.map((event) => event.kind));
          offset = read.nextOffset;
        }
        expect(kinds).toEqual(["user_text", "assistant", "tool_result", "user_text"]);
        expect(offset).toBe(whole.length);
      }),
      { numRuns: 200 },
    );
  });

  it("reports a file smaller than the offset", () => {
    const path = temp.file("small.jsonl", `${prompt("a")}\n`);
    expect(readForwardFrom(path, 10_000)).toMatchObject({ lines: [], shrunk: true });
  });
});

describe("readAll", () => {
  it("reads every event oldest first with line numbers, skipping what it cannot use", () => {
    const content = [
      prompt("a"),
      "",
      "not json",
      snapshot(),
      JSON.stringify({ type: "brand-new-type", x: 1 }),
      assistant("m", [text("t"), call("t1")]),
      result("t1"),
      '{"type":"user","message":{"content":"torn',
    ].join("\n");
    const events = readAll(temp.file("mixed.jsonl", content));
    expect(events.map((event) => [event.kind, event.lineNo])).toEqual([
      ["user_text", 1],
      ["assistant", 6],
      ["tool_result", 7],
    ]);
  });
});
