import { describe, expect, it } from "vitest";
import { terminalSafe } from "../../src/summary/text.js";

const isControl = (code: number) => code <= 0x1f || (code >= 0x7f && code <= 0x9f);

describe("terminalSafe", () => {
  it("shows every C0 and C1 control character and DEL as \\uXXXX, newlines and tabs as spaces", () => {
    expect(terminalSafe("a\u001b[31mred\u0007\u009b")).toBe("a\\u001b[31mred\\u0007\\u009b");
    expect(terminalSafe("one\ntwo\tthree\rfour")).toBe("one two three four");
    expect(terminalSafe("\u0000\u001f\u007f\u0080\u009f")).toBe("\\u0000\\u001f\\u007f\\u0080\\u009f");
  });

  it("keeps every other code unit as it is, and escapes every control one (all 65 536)", () => {
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      const expected = c === "\n" || c === "\t" || c === "\r" ? " " : isControl(code) ? `\\u${code.toString(16).padStart(4, "0")}` : c;
      if (terminalSafe(c) !== expected) expect(terminalSafe(c), `U+${code.toString(16)}`).toBe(expected);
    }
    expect(terminalSafe("日本 🧪 é")).toBe("日本 🧪 é");
  });
});
