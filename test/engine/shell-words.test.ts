// A command's words as bash reads them (src/engine/shell-words.ts).
import { describe, expect, it } from "vitest";
import { braced, expanded, tokens } from "../../src/engine/shell-words.js";

const known = { P: "/p/x/", H: "/h" };

describe("expanded", () => {
  it.each([
    ["${P:?}a", "/p/x/a"],
    ["${P?}a", "/p/x/a"],
    ["${NOPE:-/d}", "/d"],
    ["${NOPE:=/d}", "/d"],
    ["${P:+/alt}", "/alt"],
    ["${NOPE:+/alt}x", "x"],
    ["${P%/}", "/p/x"],
    ["${P%/*}", "/p/x"],
    ["${P%%/*}", ""],
    ["${P#/}", "p/x/"],
    ["${P##*/}", ""],
    ["${H}/a", "/h/a"],
    ["~/a", "/h/a"],
  ])("%s is %s", (word, value) => {
    expect(expanded(word, known, "/h")).toBe(value);
  });

  it("a variable it is not given, or required and not given, cannot be known", () => {
    expect(expanded("$NOPE/a", known, "/h")).toBeUndefined();
    expect(expanded("${NOPE:?}/a", known, "/h")).toBeUndefined();
    expect(expanded("${NOPE%/}/a", known, "/h")).toBeUndefined();
  });
});

describe("tokens", () => {
  it("redirections are their own tokens, with their descriptor apart; words after them are their targets", () => {
    expect(tokens("bash -s < x 2>/dev/null <<< 'y'")).toEqual([
      { word: "bash" },
      { word: "-s" },
      { redirect: "<" },
      { word: "x" },
      { redirect: ">", fd: "2" },
      { word: "/dev/null" },
      { redirect: "<<<" },
      { word: "y" },
    ]);
  });

  it("$'…' is read with its escapes; a newline and a backquote end a command", () => {
    expect(tokens("sh $'a\\tb'\nx`y`")).toEqual([
      { word: "sh" },
      { word: "a\tb" },
      { op: "\n" },
      { word: "x" },
      { op: "`" },
      { word: "y" },
      { op: "`" },
    ]);
  });
});

describe("braced", () => {
  it("one level of brace expansion; a word without a comma list is itself", () => {
    expect(braced("tools/hook{,}")).toEqual(["tools/hook", "tools/hook"]);
    expect(braced("a.{sh,py}")).toEqual(["a.sh", "a.py"]);
    expect(braced("${X}")).toEqual(["${X}"]);
  });
});
