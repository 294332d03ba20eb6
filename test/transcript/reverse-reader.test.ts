import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { readEventsBackward, readLinesBackward } from "../../src/transcript/reverse-reader.js";
import { bufferSource, openFileSource } from "../../src/transcript/source.js";
import type { LineBytes } from "../../src/transcript/line-bytes.js";
import { assistant, call, jsonl, prompt, result, tempDir, text } from "./helpers.js";

const temp = tempDir();
afterAll(() => temp.remove());

const decode = (line: LineBytes) => (line.bytes ? Buffer.from(line.bytes).toString("utf8") : null);

/** What a correct reader must yield: the non-empty lines with their offsets, in file order. */
function expectedLines(content: Buffer): Array<{ offset: number; text: string; terminated: boolean }> {
  const lines: Array<{ offset: number; text: string; terminated: boolean }> = [];
  let start = 0;
  for (let i = 0; i <= content.length; i++) {
    if (i < content.length && content[i] !== 0x0a) continue;
    if (i > start) lines.push({ offset: start, text: content.subarray(start, i).toString("utf8"), terminated: i < content.length });
    start = i + 1;
  }
  return lines;
}

const lineText = fc.string({ unit: fc.constantFrom("a", "é", "€", "😀", "\r", " ", "{", '"'), maxLength: 12 });

describe("readLinesBackward", () => {
  it("yields every line newest first, whole, for any chunk size (multi-byte characters split across chunks)", () => {
    fc.assert(
      fc.property(
        fc.array(lineText, { maxLength: 12 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 24 }),
        (lines, trailingNewline, chunkSize) => {
          const content = Buffer.from(lines.join("\n") + (trailingNewline ? "\n" : ""));
          const read = [...readLinesBackward(bufferSource(content), { chunkSize })].map((line) => ({
            offset: line.offset,
            text: decode(line)!,
            terminated: line.terminated,
          }));
          expect(read).toEqual(expectedLines(content).reverse());
        },
      ),
      { numRuns: 400 },
    );
  });

  it("hands out a character split exactly at a chunk boundary whole", () => {
    const content = Buffer.from(`${prompt("aé😀b")}\n${prompt("ok")}\n`);
    const emoji = content.indexOf(Buffer.from("😀"));
    for (const cut of [emoji + 1, emoji + 2, emoji + 3]) {
      const chunkSize = content.length - cut; // first chunk read from the end starts inside the emoji
      const events = [...readEventsBackward(bufferSource(content), { chunkSize })];
      expect(events.map((event) => event.kind === "user_text" && event.text)).toEqual(["ok", "aé😀b"]);
    }
  });

  it("yields a last line without newline as unterminated; a torn one parses to nothing", () => {
    const whole = prompt("first");
    const torn = assistant("m", [text("Action: tool_call")]).slice(0, 40);
    const path = temp.file("torn.jsonl", `${whole}\n${torn}`);
    const lines = [...readLinesBackward(path)];
    expect(lines.map((line) => line.terminated)).toEqual([false, true]);
    expect(decode(lines[0]!)).toBe(torn);
    expect([...readEventsBackward(path)].map((event) => event.kind)).toEqual(["user_text"]);
  });

  it("yields a complete last line without newline", () => {
    const path = temp.file("no-newline.jsonl", `${prompt("a")}\n${prompt("b")}`);
    expect([...readEventsBackward(path)].map((event) => event.kind === "user_text" && event.text)).toEqual(["b", "a"]);
  });

  it("reads CRLF files", () => {
    const path = temp.file("crlf.jsonl", `${prompt("a")}\r\n${result("t1", "r")}\r\n`);
    expect([...readEventsBackward(path)].map((event) => event.kind)).toEqual(["tool_result", "user_text"]);
  });

  it("skips an invalid UTF-8 line and reads the others", () => {
    const bad = Buffer.concat([Buffer.from('{"type":"user","message":{"content":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}\n')]);
    const path = temp.file("bad-utf8.jsonl", Buffer.concat([Buffer.from(`${prompt("a")}\n`), bad, Buffer.from(`${prompt("b")}\n`)]));
    expect([...readEventsBackward(path)].map((event) => event.kind === "user_text" && event.text)).toEqual(["b", "a"]);
  });

  it("reads a 5 MB line across many chunks", () => {
    const big = "é".repeat(2.5 * 1024 * 1024); // 5 MiB of two-byte characters
    const path = temp.file("big.jsonl", jsonl([prompt("before"), result("t1", big), prompt("after")]));
    const events = [...readEventsBackward(path)];
    expect(events.map((event) => event.kind)).toEqual(["user_text", "tool_result", "user_text"]);
    expect(events[1]).toMatchObject({ kind: "tool_result", bytes: 5 * 1024 * 1024 });
  });

  it("skips a line over maxLineBytes without keeping it, and goes on", () => {
    const path = temp.file("over.jsonl", jsonl([prompt("before"), result("t1", "x".repeat(10_000)), prompt("after")]));
    const lines = [...readLinesBackward(path, { maxLineBytes: 1000, chunkSize: 256 })];
    expect(lines.map((line) => line.bytes === null)).toEqual([false, true, false]);
    expect(lines[1]!.length).toBeGreaterThan(10_000);
    expect([...readEventsBackward(path, { maxLineBytes: 1000 })].map((event) => event.kind)).toEqual(["user_text", "user_text"]);
  });

  it("reads nothing from an empty file or one of blank lines", () => {
    expect([...readLinesBackward(temp.file("empty.jsonl", ""))]).toEqual([]);
    expect([...readLinesBackward(temp.file("blank.jsonl", "\n\n\r\n"))].map(decode)).toEqual(["\r"]);
  });

  it("stops reading when the caller stops iterating, and closes the file", () => {
    const path = temp.file("many.jsonl", jsonl(Array.from({ length: 20_000 }, (_, i) => prompt(`prompt ${i}`))));
    const source = openFileSource(path);
    for (const line of readLinesBackward(source, { chunkSize: 4096 })) {
      expect(decode(line)).toContain("prompt 19999");
      break;
    }
    expect(source.bytesRead).toBe(4096);
    expect(source.size).toBeGreaterThan(1_000_000);
    source.close();
  });

  it("yields the events of one line in reverse order too", () => {
    const line = JSON.stringify({
      type: "user",
      message: {
        content: [
          { type: "tool_result", tool_use_id: "a", content: "1" },
          { type: "tool_result", tool_use_id: "b", content: "2" },
        ],
      },
    });
    const events = [...readEventsBackward(bufferSource(Buffer.from(`${line}\n`)))];
    expect(events.map((event) => event.kind === "tool_result" && event.toolUseId)).toEqual(["b", "a"]);
    expect(events.every((event) => event.offset === 0)).toBe(true);
  });

  it("gives each event the offset of its line", () => {
    const first = assistant("m", [call("t1")]);
    const content = Buffer.from(jsonl([first, result("t1")]));
    const events = [...readEventsBackward(bufferSource(content), { chunkSize: 7 })];
    expect(events.map((event) => event.offset)).toEqual([Buffer.byteLength(first) + 1, 0]);
  });
});
