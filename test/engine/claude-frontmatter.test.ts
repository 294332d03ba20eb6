/** Frontmatter as Claude Code 2.1.328 reads it (src/engine/claude-frontmatter.ts), each rule seen in the real client (docs/claude-code-facts.md). */
import { describe, expect, it } from "vitest";
import { MAX_NAME_CHARS, parseAsClaudeCode, quoteLossyValues, shownName, splitAsClaudeCode } from "../../src/engine/claude-frontmatter.js";
import { parseYamlBlock } from "../../src/optin/read.js";

describe("splitAsClaudeCode", () => {
  it("takes the block between --- lines and the body after", () => {
    expect(splitAsClaudeCode("---\nname: x\n---\nbody\n")).toEqual({ block: "name: x\n", body: "body\n" });
  });

  it("ends the block at the first ---, even inside a line (the rest of that line starts the body)", () => {
    expect(splitAsClaudeCode("---\ndescription: a---b\ncontext: fork\n---\nbody")).toEqual({
      block: "description: a",
      body: "b\ncontext: fork\n---\nbody",
    });
  });

  it("drops a byte-order mark and allows blanks and CR after the opening ---", () => {
    expect(splitAsClaudeCode("\uFEFF--- \r\nname: x\r\n---\r\nbody")).toEqual({ block: "name: x\r\n", body: "body" });
  });

  it("sees no frontmatter in ---js (nothing is run), in an unclosed block, or in text without one", () => {
    for (const text of ["---js\nname: x\n---\nbody", "---\nname: x\nbody", "# title\n---\nname: x\n---\n", "----\nname: x\n---\n"])
      expect(splitAsClaudeCode(text)).toEqual({ body: text });
  });

  it("needs a --- after the first three characters", () => {
    expect(splitAsClaudeCode("---\n")).toEqual({ body: "---\n" });
    expect(splitAsClaudeCode("---\n---\nb")).toEqual({ block: "", body: "b" });
  });
});

describe("parseAsClaudeCode", () => {
  it("reads YAML: comments, quotes, folded scalars", () => {
    expect(parseAsClaudeCode("name: gated-helper # the gated one\ncontext: 'fork'\nagent: >-\n  Explore\n", parseYamlBlock)).toEqual({
      ok: true,
      data: { name: "gated-helper", context: "fork", agent: "Explore" },
    });
  });

  it("tries again with lossy values quoted: `description: foo: bar` still leaves `context: fork` read", () => {
    expect(parseAsClaudeCode("description: foo: bar\ncontext: fork", parseYamlBlock)).toEqual({
      ok: true,
      data: { description: "foo: bar", context: "fork" },
    });
  });

  it("gives {} for anything but a mapping the parser returns", () => {
    for (const value of [null, undefined, 5, "text", [1]]) expect(parseAsClaudeCode("x", () => value)).toEqual({ ok: true, data: {} });
    expect(parseAsClaudeCode("x", () => ({ a: 1 }))).toEqual({ ok: true, data: { a: 1 } });
  });

  it("gives {} for a list or a scalar, and fails only when both tries fail", () => {
    expect(parseAsClaudeCode("- a\n- b", parseYamlBlock)).toEqual({ ok: true, data: {} });
    expect(parseAsClaudeCode("", parseYamlBlock)).toEqual({ ok: true, data: {} });
    expect(parseAsClaudeCode("key: value\n  bad: indent", parseYamlBlock)).toEqual({ ok: false });
  });
});

describe("quoteLossyValues", () => {
  it("quotes plain values holding YAML punctuation, leaves quoted ones, lists and plain words, and turns leading tabs into spaces", () => {
    const block = 'description: foo: bar\nquoted: "a: b"\nlist: [a, b]\nplain: word\nhash: a # b\n\tindented: x';
    expect(quoteLossyValues(block, parseYamlBlock)).toBe(
      'description: "foo: bar"\nquoted: "a: b"\nlist: [a, b]\nplain: word\nhash: "a # b"\n  indented: x',
    );
  });

  it("quotes a value quoted at one end only, or a list followed by more; leaves a value quoted at both ends", () => {
    expect(quoteLossyValues("k: 'a: b'", parseYamlBlock)).toBe("k: 'a: b'");
    expect(quoteLossyValues('k: "a: b', parseYamlBlock)).toBe('k: "\\"a: b"');
    expect(quoteLossyValues('k: a: b"', parseYamlBlock)).toBe('k: "a: b\\""');
    expect(quoteLossyValues("k: 'a: b", parseYamlBlock)).toBe('k: "\'a: b"');
    expect(quoteLossyValues("k: a: b'", parseYamlBlock)).toBe('k: "a: b\'"');
    expect(quoteLossyValues("k: [a, b] # note", parseYamlBlock)).toBe('k: "[a, b] # note"');
    expect(quoteLossyValues("k: [a, {]", parseYamlBlock)).toBe('k: "[a, {]"');
  });

  it("quotes only key lines as Claude Code matches them: the key at the line's start, one or more blanks after the colon", () => {
    expect(quoteLossyValues(" k: a: b", parseYamlBlock)).toBe(" k: a: b");
    expect(quoteLossyValues("k:  a: b", parseYamlBlock)).toBe('k: "a: b"');
    expect(quoteLossyValues("\t\tdeep: x\nk: a\tb", parseYamlBlock)).toBe("    deep: x\nk: a\tb");
  });

  it("escapes backslashes and quotes inside the value it quotes", () => {
    expect(quoteLossyValues('k: a "b" \\ c: d', parseYamlBlock)).toBe('k: "a \\"b\\" \\\\ c: d"');
  });

  it("leaves a value that looks like a list but is none", () => {
    expect(quoteLossyValues("k: [a: b", parseYamlBlock)).toBe('k: "[a: b"');
  });
});

describe("shownName", () => {
  it("makes any value text, and drops none or one that is too long", () => {
    expect(shownName("x")).toBe("x");
    expect(shownName(12)).toBe("12");
    expect(shownName(null)).toBeUndefined();
    expect(shownName(undefined)).toBeUndefined();
    expect(shownName("n".repeat(MAX_NAME_CHARS))).toHaveLength(MAX_NAME_CHARS);
    expect(shownName("n".repeat(MAX_NAME_CHARS + 1))).toBeUndefined();
  });
});
