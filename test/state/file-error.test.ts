import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fileErrorText } from "../../src/state/file-error.js";

describe("fileErrorText: why a file could not be read, in words", () => {
  const caught = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error;
    }
    throw new Error("no error");
  };

  it.each([
    ["/nonexistent/file", "no file or folder at this path"],
    ["/etc/hostname/below", "a part of the path is not a folder"],
    ["/tmp", "it is a folder, not a file"],
  ])("%s: %s, never the bare code", (path, words) => {
    expect(fileErrorText(caught(() => readFileSync(path)))).toBe(words);
  });

  it("an unknown code is shown as it is; an error with no code by its first line", () => {
    expect(fileErrorText(Object.assign(new Error("x"), { code: "EWEIRD" }))).toBe("EWEIRD");
    expect(fileErrorText(new Error("first\nsecond"))).toBe("first");
    expect(fileErrorText("plain")).toBe("plain");
  });
});
