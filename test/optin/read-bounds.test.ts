/**
 * The frontmatter reader within bounds, and repeated keys read as Claude Code
 * reads them (src/optin/read.ts; issue 31, holes 10 and 12;
 * docs/claude-code-facts.md, "Repeated keys, aliases and size").
 *
 * - A 1 KB alias bomb in a `utility_*` key is refused as that key, what was
 *   found and what is expected, before anything walks it: the bounded error
 *   comes back, not a description of the value (which, expanded, holds 9^9
 *   texts). Counted in test/engine/bounded-value.test.ts, not timed here.
 * - A block longer than Claude Code's own cap for untrusted frontmatter
 *   (64 KiB) is refused unparsed; a file over 1 MiB is not read whole.
 * - A repeated key takes its last value, top level, nested and in a flow
 *   mapping: Claude Code 2.1.328 showed the last `description` and answered
 *   to the last `name`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gateSourceFrom } from "../../src/engine/gate-policy.js";
import { loadBoundedYaml, parseFrontmatter, parseYamlBlock, readOptIn } from "../../src/optin/read.js";
import { parseAsClaudeCode } from "../../src/engine/claude-frontmatter.js";

/** A billion laughs in 1 KB: nine lists of nine aliases of the list before, the last one under `key`. */
function aliasBomb(key: string): string {
  let yaml = `a0: &a0 [${Array(9).fill('"lol"').join(", ")}]\n`;
  for (let i = 1; i <= 8; i++)
    yaml += `a${i}: &a${i} [${Array(9)
      .fill(`*a${i - 1}`)
      .join(", ")}]\n`;
  return `${yaml}${key}: *a8\n`;
}

const dir = mkdtempSync(join(tmpdir(), "utility-bounds-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("an alias bomb", () => {
  const bomb = aliasBomb("utility_floor");

  it("is about 1 KB", () => {
    expect(bomb.length).toBeLessThan(1_100);
  });

  it("is refused as the key it sits in, with what was found and what is expected", () => {
    const r = parseFrontmatter(`---\nname: bomb\n${bomb}---\nbody\n`, "skills/bomb/SKILL.md");
    expect(r).toEqual({
      ok: false,
      problems: [
        {
          file: "skills/bomb/SKILL.md",
          key: "utility_floor",
          found: "YAML whose aliases expand past 262,144 values and characters",
          expected: "at most 262,144 values and characters once aliases are expanded (a plain value, not an alias bomb)",
          message:
            "skills/bomb/SKILL.md: utility_floor is YAML whose aliases expand past 262,144 values and characters; expected at most 262,144 values and characters once aliases are expanded (a plain value, not an alias bomb).",
        },
      ],
    });
  });

  it("under metadata, names metadata.utility_floor", () => {
    const nested = bomb.replace("utility_floor: *a8", "metadata:\n  utility_floor: *a8");
    const r = parseFrontmatter(`---\n${nested}---\n`, "f.md");
    expect(!r.ok && r.problems.map((p) => p.key)).toEqual(["metadata.utility_floor"]);
  });

  it("in a gated file gates with the problem; in an ungated one gates nothing", () => {
    const gated = readOptIn(write("gated.md", `---\nutility_gated: true\n${bomb}---\n`));
    expect(gated).toMatchObject({ ok: false, seemsGated: true });
    expect(gateSourceFrom("gated.md", gated)).toMatchObject({ gated: true, problem: expect.stringContaining("utility_floor is YAML") });
    const ungated = readOptIn(write("ungated.md", `---\n${bomb}---\n`));
    expect(ungated).toMatchObject({ ok: false, seemsGated: false });
    expect(gateSourceFrom("ungated.md", ungated)).toBeUndefined();
  });

  it("read as Claude Code reads it, is not read and not tried again quoted", () => {
    let calls = 0;
    const counting = (source: string) => {
      calls += 1;
      return parseYamlBlock(source);
    };
    const r = parseAsClaudeCode(`name: bomb\n${bomb}`, counting);
    expect(r).toMatchObject({ ok: false, bounds: { key: "utility_floor" } });
    expect(calls).toBe(1);
  });

  it("a few aliases within the bound still read (Claude Code reads them)", () => {
    expect(loadBoundedYaml("x: &x fork\ncontext: *x\nl: [*x, *x]\n")).toEqual({ x: "fork", context: "fork", l: ["fork", "fork"] });
  });
});

describe("size", () => {
  it("a block over 64 KiB is refused unparsed, as frontmatter", () => {
    const r = parseFrontmatter(`---\nname: big\nnote: "${"x".repeat(70_000)}"\n---\n`, "f.md");
    expect(!r.ok && r.problems[0]).toMatchObject({ key: "frontmatter", found: "a block of 70,019 characters" });
    expect(() => parseYamlBlock(`note: "${"x".repeat(70_000)}"`)).toThrow(/expected at most 65,536 characters/);
  });

  it("a file over 1 MiB is a problem; its head still tells whether it asks for the gate", () => {
    const tail = `\n${"x".repeat(1_100_000)}\n`;
    const gated = readOptIn(write("big-gated.md", `---\nutility_gated: true\n---\n${tail}`));
    expect(gated).toMatchObject({ ok: false, seemsGated: true, problems: [{ key: "file", found: "a file of 1100030 bytes" }] });
    expect(readOptIn(write("big.md", `---\nname: x\n---\n${tail}`))).toMatchObject({ ok: false, seemsGated: false });
  });
});

describe("a repeated key takes its last value, as Claude Code reads it", () => {
  it("at the top level, nested, and in a flow mapping", () => {
    const r = parseFrontmatter("---\ndescription: one\ndescription: two\nmetadata:\n  k: 1\n  k: 2\n---\n", "f.md");
    expect(r).toMatchObject({ ok: true, data: { description: "two", metadata: { k: 2 } } });
    expect(parseYamlBlock("{name: a, name: b}")).toEqual({ name: "b" });
  });

  it("an agent that repeats a key and opts in is gated", () => {
    const path = write("dup-agent.md", "---\nname: dup\ndescription: one\ndescription: two\nutility_gated: true\n---\nPrompt\n");
    expect(readOptIn(path)).toMatchObject({ ok: true, optIn: { gated: true }, data: { name: "dup", description: "two" } });
  });

  it("utility_gated written twice: the last one counts", () => {
    const on = readOptIn(write("on.md", "---\nutility_gated: false\nutility_gated: true\n---\n"));
    expect(on).toMatchObject({ ok: true, optIn: { gated: true } });
    const off = readOptIn(write("off.md", "---\nutility_gated: true\nutility_gated: false\n---\n"));
    expect(off).toMatchObject({ ok: true, optIn: { gated: false } });
  });
});
