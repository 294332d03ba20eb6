import { describe, expect, it } from "vitest";
import { fail, ok, problem, problemsFromIssues, showFound } from "../../src/engine/problem.js";

describe("problem", () => {
  it("names the field, what was found and what is expected, in one sentence unless given one", () => {
    expect(problem("Gain", "1.7", "a number in [0, 1]")).toEqual({
      field: "Gain",
      found: "1.7",
      expected: "a number in [0, 1]",
      message: "Gain: found 1.7; expected a number in [0, 1].",
    });
    expect(problem("Gain", "1.7", "a number in [0, 1]", "Gain is 1.7.").message).toBe("Gain is 1.7.");
  });

  it("ok and fail build the two results", () => {
    expect(ok(3)).toEqual({ ok: true, value: 3 });
    const p = problem("a", "b", "c");
    expect(fail(p, p)).toEqual({ ok: false, problems: [p, p] });
    expect(fail()).toEqual({ ok: false, problems: [] });
  });
});

describe("showFound", () => {
  it("quotes printable ASCII as JSON does", () => {
    expect(showFound("Action: verify")).toBe('"Action: verify"');
    expect(showFound('say "hi" \\ there')).toBe('"say \\"hi\\" \\\\ there"');
    expect(showFound(" ~")).toBe('" ~"');
  });

  it("shows every other character as its code point, so look-alikes and invisible ones are visible", () => {
    expect(showFound("ｔool_call")).toBe('"\\u{ff54}ool_call"');
    expect(showFound("a\u200bb")).toBe('"a\\u{200b}b"');
    expect(showFound("\n\t\u001f\u007f")).toBe('"\\u{a}\\u{9}\\u{1f}\\u{7f}"');
    expect(showFound("🧪")).toBe('"\\u{1f9ea}"'); // one code point, not two halves
  });
});

describe("problemsFromIssues", () => {
  it("writes the path as code would (a.b[0].c), or the root when there is none", () => {
    const [a, b, c] = problemsFromIssues([
      { path: ["tool_input", 0, "file_path"], message: "expected a string", input: 7 },
      { path: [], message: "expected an object", input: null },
      { path: [2, "x"], message: "m", input: true },
    ]);
    expect(a).toEqual({
      field: "tool_input[0].file_path",
      found: "7",
      expected: "expected a string",
      message: "tool_input[0].file_path: expected a string (found 7).",
    });
    expect(b!.field).toBe("input");
    expect(b!.found).toBe("null");
    expect(c!.field).toBe("[2].x");
    expect(problemsFromIssues([{ path: [], message: "m" }], "hook input")[0]!.field).toBe("hook input");
  });

  it("describes the input found: nothing, a string shown as by showFound, JSON cut at 60 characters, or its text", () => {
    const found = (input: unknown) => problemsFromIssues([{ path: ["k"], message: "m", input }])[0]!.found;
    expect(problemsFromIssues([{ path: ["k"], message: "m" }])[0]!.found).toBe("nothing");
    expect(found("ｔ")).toBe('"\\u{ff54}"');
    expect(found({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(found(["x".repeat(56)])).toBe(`["${"x".repeat(56)}"]`); // 60 characters of JSON: kept whole
    expect(found({ s: "y".repeat(60) })).toBe(`${JSON.stringify({ s: "y".repeat(60) }).slice(0, 57)}…`);
    expect(found(["x".repeat(57)])).toBe(`${JSON.stringify(["x".repeat(57)]).slice(0, 57)}…`); // 61 characters
    expect(found(10n)).toBe("10"); // JSON.stringify throws on a BigInt
  });
});
