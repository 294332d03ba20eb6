/** A file's name as Claude Code reads it, parsed only when it could be the one looked for (src/claude/names.ts). */
import { describe, expect, it } from "vitest";
import { frontmatterNameOf, mayName } from "../../src/claude/names.js";

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
    expect(await frontmatterNameOf("---\nname: x\n  bad: indent\n---\n", "x")).toBeUndefined();
  });
});
