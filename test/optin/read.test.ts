import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import matter from "gray-matter";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseFrontmatter, readFrontmatter, readOptIn, seemsToAskForGating } from "../../src/optin/read.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "optin");
const JS_FIXTURE = join(FIXTURES, "broken", "js-frontmatter", "SKILL.md");
/** The path the ---js fixture writes to if its code ever runs. */
const MARKER = join(tmpdir(), "utility-optin-js-frontmatter-ran");

describe("parseFrontmatter", () => {
  it("reads YAML frontmatter and the body", () => {
    const r = parseFrontmatter("---\nname: x\nutility_gated: true\n---\nBody\n", "f.md");
    expect(r).toEqual({ ok: true, hasFrontmatter: true, data: { name: "x", utility_gated: true }, content: "Body\n" });
  });

  it("accepts ---yaml and ---yml, CRLF and a BOM", () => {
    for (const text of ["---yaml\na: 1\n---\n", "---YML\na: 1\n---\n", "\uFEFF---\r\na: 1\r\n---\r\nx", "--- \na: 1\n---\n"]) {
      const r = parseFrontmatter(text, "f.md");
      expect(r.ok && r.data).toEqual({ a: 1 });
    }
  });

  it("no frontmatter is not an error", () => {
    expect(parseFrontmatter("# Title\n\ntext", "f.md")).toMatchObject({ ok: true, hasFrontmatter: false, data: {} });
    expect(parseFrontmatter("", "f.md")).toMatchObject({ ok: true, hasFrontmatter: false });
    expect(parseFrontmatter("----\nnot: frontmatter\n", "f.md")).toMatchObject({ ok: true, hasFrontmatter: false });
  });

  it("empty frontmatter is an empty mapping", () => {
    expect(parseFrontmatter("---\n---\nBody", "f.md")).toMatchObject({ ok: true, hasFrontmatter: true, data: {} });
  });

  it("invalid YAML is a problem carrying the first line of the YAML error", () => {
    const r = parseFrontmatter("---\nname: [unclosed\nutility_gated: true\n---\n", "f.md");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0]!.key).toBe("frontmatter");
    expect(r.problems[0]!.found).toMatch(/^invalid YAML \(.+\)$/);
    expect(r.problems[0]!.found).not.toContain("\n");
  });

  it("an opening --- without a closing one is a problem", () => {
    const r = parseFrontmatter("---\nname: x\nBody without end\n", "f.md");
    expect(r.ok).toBe(false);
  });

  it("YAML that is not a mapping is a problem", () => {
    expect(parseFrontmatter("---\n- a\n- b\n---\n", "f.md").ok).toBe(false);
  });

  it.each(["js", "javascript", "JS", "coffee", "coffeescript", "cson", "json", "toml", "ruby"])(
    "---%s front matter is refused, never parsed",
    (lang) => {
      const r = parseFrontmatter(`---${lang}\n{"utility_gated": true}\n---\n`, "f.md");
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.problems[0]).toMatchObject({ file: "f.md", key: "frontmatter" });
      expect(r.problems[0]!.found).toContain(`---${lang}`);
    },
  );
});

describe("---js front matter never runs", () => {
  beforeEach(() => rmSync(MARKER, { force: true }));
  afterEach(() => rmSync(MARKER, { force: true }));

  it("control: gray-matter with its default engines would run the fixture's code", () => {
    expect(() => matter(readFileSync(JS_FIXTURE, "utf8"), { excerpt: false })).toThrow();
    expect(existsSync(MARKER)).toBe(true);
  });

  it("readOptIn refuses the fixture without running it", () => {
    const r = readOptIn(JS_FIXTURE, "broken/js-frontmatter/SKILL.md");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toHaveLength(1);
    expect(r.seemsGated).toBe(true);
    expect(r.problems[0]!.message).toMatch(
      /^broken\/js-frontmatter\/SKILL\.md: frontmatter is a "js" block \(---js\); expected YAML front matter/,
    );
    expect(existsSync(MARKER)).toBe(false);
  });

  it("a ---javascript block that would succeed is never evaluated either", () => {
    const code = `---javascript\n(function(){ require("fs").writeFileSync(${JSON.stringify(MARKER)}, "ran"); return {}; })()\n---\n`;
    expect(parseFrontmatter(code, "f.md").ok).toBe(false);
    expect(existsSync(MARKER)).toBe(false);
  });
});

describe("seemsToAskForGating", () => {
  it("reads utility_gated with any but a false-looking value in a block that could not be parsed", () => {
    expect(seemsToAskForGating("---js\n{ utility_gated: true }\n---\n")).toBe(true);
    expect(seemsToAskForGating('---json\n{"utility_gated": "yes"}\n---\n')).toBe(true);
    expect(seemsToAskForGating("---\nutility_gated: [broken\n---\n")).toBe(true);
    expect(seemsToAskForGating("---js\n{ utility_gated: false, }\n---\n")).toBe(false);
    expect(seemsToAskForGating("---\nutility_gated:\n---\n")).toBe(false);
    expect(seemsToAskForGating("---\nutility_gated: false\n---\n")).toBe(false);
    expect(seemsToAskForGating("no frontmatter\nutility_gated: true\n")).toBe(false);
    expect(seemsToAskForGating("---\nname: x\n---\nutility_gated: true in the body\n")).toBe(false);
  });

  it("readOptIn sets it only when the frontmatter could not be parsed", () => {
    expect(readOptIn(join(FIXTURES, "broken", "string-true", "SKILL.md"))).not.toHaveProperty("seemsGated");
  });
});

describe("readFrontmatter and readOptIn on files", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "utility-optin-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a missing file is a problem, not a throw", () => {
    const r = readFrontmatter(join(dir, "nope.md"), "nope.md");
    expect(r).toMatchObject({ ok: false, problems: [{ file: "nope.md", key: "frontmatter", found: "no such file" }] });
  });

  it("a folder given as a file is a problem", () => {
    expect(readFrontmatter(dir, "dir").ok).toBe(false);
  });

  it("a file without frontmatter is not opted in", () => {
    const path = join(dir, "SKILL.md");
    writeFileSync(path, "# Just text\n");
    expect(readOptIn(path)).toMatchObject({ ok: true, hasFrontmatter: false, optIn: { gated: false, keys: [] } });
  });

  it("resolves the opt-in and keeps the data (for matching an agent's name)", () => {
    const path = join(dir, "agent.md");
    writeFileSync(path, "---\nname: my-agent\nutility_gated: true\nmetadata:\n  utility_max_steps: 3\n---\nPrompt\n");
    const r = readOptIn(path);
    expect(r).toMatchObject({ ok: true, optIn: { gated: true, maxSteps: 3 }, data: { name: "my-agent" } });
  });

  it("problems name the file as the caller shows it", () => {
    const path = join(dir, "SKILL.md");
    writeFileSync(path, '---\nutility_gated: "true"\n---\n');
    const r = readOptIn(path, "skills/demo/SKILL.md");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0]!.message).toBe(
      'skills/demo/SKILL.md: utility_gated is the string "true"; expected a boolean (true or false, without quotes); write true.',
    );
  });
});

describe("a skill file that is not a regular file", () => {
  it("is a problem, read without blocking (a FIFO)", () => {
    const dir = mkdtempSync(join(tmpdir(), "utility-fifo-"));
    try {
      const fifo = join(dir, "SKILL.md");
      execFileSync("mkfifo", [fifo]);
      const read = readOptIn(fifo);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.problems[0]!.message).toContain("not a regular file");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
