/** A file's name as Claude Code reads it, parsed only when it could be the one looked for (src/claude/names.ts). */
import { describe, expect, it } from "vitest";
import { frontmatterNameOf, mayName, UNREADABLE, unreadableMayGate } from "../../src/claude/names.js";

describe("mayName: when the YAML must be read to know the name", () => {
  it("when the block holds the name, an escape, or a tag starting a value", () => {
    expect(mayName("name: gated-helper # x", "gated-helper")).toBe(true);
    expect(mayName('name: "gated\\x2dhelper"', "gated-helper")).toBe(true);
    expect(mayName("name: !!binary Z2F0ZWQ=", "gated")).toBe(true);
  });

  it("when the name has blanks (folding), or is what a number, true or .inf becomes as text", () => {
    expect(mayName("name: >-\n  two\n  words", "two words")).toBe(true);
    for (const wanted of ["42", "true", "Infinity", "NaN", "null", "1.5e3"]) expect(mayName("name: x", wanted)).toBe(true);
  });

  it("not otherwise: a plain name absent from the block, even after an exclamation in prose", () => {
    expect(mayName("name: reviewer\ndescription: use it when you must!", "general-purpose")).toBe(false);
  });
});

describe("frontmatterNameOf", () => {
  it("reads the name as YAML, or nothing when it cannot be the one looked for (unless it must know)", async () => {
    const text = "---\nname: gated-helper # the gated one\n---\nbody";
    expect(await frontmatterNameOf(text, "gated-helper")).toBe("gated-helper");
    expect(await frontmatterNameOf(text, "other")).toBeUndefined();
    expect(await frontmatterNameOf(text, "other", true)).toBe("gated-helper");
    expect(await frontmatterNameOf("no frontmatter", "x", true)).toBeUndefined();
    expect(await frontmatterNameOf("---\nname: x\n  bad: indent\n---\n", "x")).toBe(UNREADABLE);
  });

  it("a repeated key takes its last value, as Claude Code reads it (issue 31, hole 12)", async () => {
    const text = "---\nname: first-name\ndescription: one\ndescription: two\nname: dup-helper\n---\nbody";
    expect(await frontmatterNameOf(text, "dup-helper")).toBe("dup-helper");
    expect(await frontmatterNameOf(text, "first-name")).toBe("dup-helper");
  });

  it("a block over the reader's bounds is unreadable, whatever name it holds", async () => {
    const text = `---\nname: big-helper\nnote: "${"x".repeat(70_000)}"\n---\nbody`;
    expect(await frontmatterNameOf(text, "big-helper")).toBe(UNREADABLE);
  });
});

describe("unreadableMayGate: a file this reader cannot read that may define the type and ask for the gate", () => {
  const big = (front: string) => `---\n${front}\nnote: "${"x".repeat(70_000)}"\n---\nbody`;

  it("when its block could name the type and it names utility_gated with a value that does not read as no", async () => {
    expect(await unreadableMayGate(big("name: big-helper\nutility_gated: true"), "big-helper")).toBe(true);
  });

  it("not when it does not ask for the gate, names it false, or cannot name the type", async () => {
    expect(await unreadableMayGate(big("name: big-helper"), "big-helper")).toBe(false);
    expect(await unreadableMayGate(big("name: big-helper\nutility_gated: false"), "big-helper")).toBe(false);
    expect(await unreadableMayGate(big("name: big-helper\nutility_gated: true"), "other-helper")).toBe(false);
    expect(await unreadableMayGate("no frontmatter utility_gated: true", "x")).toBe(false);
  });
});
