import { describe, expect, it } from "vitest";
import { PendingLine, readChunk } from "../../src/transcript/line-bytes.js";
import type { ByteSource } from "../../src/transcript/source.js";

/** A source that hands out at most `step` bytes per read, and ends early at `end` (a file that shrank). */
function trickle(text: string, step: number, end = text.length): ByteSource & { reads: number[] } {
  const bytes = new TextEncoder().encode(text);
  const reads: number[] = [];
  return {
    size: bytes.length,
    bytesRead: 0,
    reads,
    read(target, position) {
      reads.push(position);
      const chunk = bytes.subarray(position, Math.min(end, position + target.length, position + step));
      target.set(chunk);
      return chunk.length;
    },
    close() {},
  };
}

describe("readChunk", () => {
  it("keeps reading until the chunk is full, each read from where the last stopped", () => {
    const source = trickle("abcdefghij", 3);
    expect(readChunk(source, 2, 7).toString()).toBe("cdefghi");
    expect(source.reads).toEqual([2, 5, 8]);
  });

  it("stops when the source ends early, leaving zeros", () => {
    const source = trickle("abcdefghij", 4, 6);
    expect([...readChunk(source, 0, 8)]).toEqual([..."abcdef"].map((c) => c.charCodeAt(0)).concat([0, 0]));
    expect(source.reads).toEqual([0, 4, 6]);
  });
});

describe("PendingLine", () => {
  it("joins pieces in order, those added at the start before the others", () => {
    const line = new PendingLine(100);
    line.add(new TextEncoder().encode("cd"), false);
    line.add(new TextEncoder().encode("ab"), true);
    line.add(new Uint8Array(0), false);
    line.add(new TextEncoder().encode("ef"), false);
    const taken = line.take(7, true)!;
    expect({ ...taken, bytes: Buffer.from(taken.bytes!).toString() }).toEqual({ offset: 7, length: 6, bytes: "abcdef", terminated: true });
    expect(line.take(0, false)).toBeNull(); // reset: an empty line
  });

  it("keeps a line of exactly the limit, and drops the bytes of a longer one but not its length", () => {
    const atLimit = new PendingLine(4);
    atLimit.add(new TextEncoder().encode("abcd"), false);
    expect(Buffer.from(atLimit.take(0, true)!.bytes!).toString()).toBe("abcd");
    const over = new PendingLine(4);
    over.add(new TextEncoder().encode("abc"), false);
    over.add(new TextEncoder().encode("de"), false);
    over.add(new TextEncoder().encode("f"), false);
    expect(over.take(3, false)).toEqual({ offset: 3, length: 6, bytes: null, terminated: false });
  });
});
