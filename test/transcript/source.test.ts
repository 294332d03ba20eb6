import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bufferSource, openFileSource, transcriptSize, withSource } from "../../src/transcript/source.js";

const dir = mkdtempSync(join(tmpdir(), "utility-source-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("openFileSource", () => {
  it("reads what is there, at any position, and nothing past the size it had when opened", () => {
    const path = join(dir, "t.jsonl");
    writeFileSync(path, "0123456789");
    const source = openFileSource(path);
    const target = new Uint8Array(4);
    expect(source.size).toBe(10);
    expect(source.read(target, 8)).toBe(2);
    expect(Buffer.from(target.subarray(0, 2)).toString()).toBe("89");
    expect(source.read(target, 10)).toBe(0);
    expect(source.read(target, 12)).toBe(0);
    expect(source.bytesRead).toBe(2);
    expect(source.read(target, 0)).toBe(4);
    expect(source.bytesRead).toBe(6);
    source.close();
    source.close(); // twice is harmless
  });

  it("refuses a folder, naming it, and leaves no descriptor open", () => {
    const folder = join(dir, "folder.jsonl");
    mkdirSync(folder);
    expect(() => openFileSource(folder)).toThrow(expect.objectContaining({ code: "ENOTREG", message: `${folder} is not a regular file` }));
  });

  it("withSource closes a path it opened, and leaves a caller's source open", () => {
    const path = join(dir, "w.jsonl");
    writeFileSync(path, "abc");
    const mine = bufferSource(new TextEncoder().encode("xyz"));
    expect(withSource(mine, (s) => s.size)).toBe(3);
    expect(withSource(path, (s) => s.read(new Uint8Array(3), 0))).toBe(3);
  });
});

describe("transcriptSize", () => {
  it("is the size of a file, and -1 for a folder or nothing", () => {
    const path = join(dir, "s.jsonl");
    writeFileSync(path, "12345");
    expect(transcriptSize(path)).toBe(5);
    expect(transcriptSize(dir)).toBe(-1);
    expect(transcriptSize(join(dir, "missing.jsonl"))).toBe(-1);
  });
});
