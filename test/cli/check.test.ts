import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { runCli } from "../../src/cli/run.js";

const ROOT = join(import.meta.dirname, "..", "..");

/** `utility check ARGS` through the whole command line. */
const runCheck = (args: string[], io: CliIo): Promise<number> => runCli(["check", ...args], io);

function memoryIo(cwd = ROOT): CliIo & { out: string; err: string } {
  const io = {
    out: "",
    err: "",
    cwd,
    env: {},
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
    readStdin: () => "",
  };
  return io;
}

describe("utility check on the plugin's own files", () => {
  it("the plugin's skills and agents pass, and none of them is gated (nobody is gated who did not opt in)", async () => {
    const io = memoryIo();
    const code = await runCheck(["plugin/skills", "plugin/agents"], io);
    expect(io.out).toMatch(/^checked \d+ files, no problems\n$/);
    expect(code).toBe(0);
    const n = Number(/checked (\d+)/.exec(io.out)![1]);
    expect(n).toBeGreaterThanOrEqual(2);
  });

  it("the example skill for authors, outside the plugin's skills, passes and is gated", async () => {
    const io = memoryIo();
    expect(await runCheck(["examples"], io)).toBe(0);
    expect(io.out).toBe("checked 1 file, no problems (1 gated)\n");
  });

  it("--json lists each file with its opt-in", async () => {
    const io = memoryIo();
    expect(await runCheck(["--json", "examples/skills/gated-example/SKILL.md", "plugin/agents"], io)).toBe(0);
    const { files } = JSON.parse(io.out) as { files: Array<{ file: string; optIn: { gated: boolean } | null; problems: unknown[] }> };
    expect(files[0]).toMatchObject({ file: "examples/skills/gated-example/SKILL.md", optIn: { gated: true }, problems: [] });
    expect(files.some((f) => f.file === "plugin/agents/utility-scorer.md" && f.optIn?.gated === false)).toBe(true);
  });
});

describe("utility check on broken fixtures", () => {
  const broken = "test/fixtures/optin/broken";

  it("fails with one line per problem, each naming file, key, found and expected", async () => {
    const io = memoryIo();
    expect(await runCheck([broken], io)).toBe(1);
    const lines = io.out.trimEnd().split("\n");
    const expected = [
      `${broken}/agents/typo-and-scope.md: utility_scope: found the string "subagent"; expected self or dispatch (a subagent's scope comes from being spawned, not from frontmatter)`,
      `${broken}/agents/typo-and-scope.md: utility_gate: found an unknown key (did you mean utility_gated?); expected one of utility_gated, utility_floor, utility_max_steps, utility_lambdas, utility_scope, utility_tools, utility_token_budget, utility_cost_budget_usd, utility_max_agents, utility_max_tool_calls, utility_agent_token_budget, utility_agent_cost_budget_usd, utility_agent_max_tool_calls, utility_step_cost, utility_stuck_after, utility_confirm_above_uncertainty`,
      `${broken}/conflict/SKILL.md: utility_floor: found -0.5 at the top level and -1 under metadata; expected one value: set the key in one place, or the same value in both`,
      `${broken}/floor-too-low/SKILL.md: utility_floor: found -3; expected a number from -2.3 to 1.0, the range of U`,
      `${broken}/js-frontmatter/SKILL.md: frontmatter: found a "js" block (---js); expected YAML front matter opened by a plain --- line; other languages are never run or read`,
      `${broken}/string-true/SKILL.md: utility_gated: found the string "true"; expected a boolean (true or false, without quotes); write true`,
      `${broken}/two-lambdas/SKILL.md: utility_lambdas: found a list of 2 values [1,0.5]; expected a list of exactly three numbers, each 0 or more, such as [1.0, 0.5, 0.8]`,
      `${broken}/zero-steps/SKILL.md: utility_max_steps: found 0; expected a whole number of at least 1`,
    ];
    expect(lines.slice(0, -1)).toEqual(expected);
    expect(lines.at(-1)).toBe("checked 7 files, 8 problems in 7 files");
  });

  it("--json carries the sentence for each problem and no opt-in for a broken file", async () => {
    const io = memoryIo();
    expect(await runCheck([`${broken}/string-true/SKILL.md`, "--json"], io)).toBe(1);
    expect(JSON.parse(io.out)).toEqual({
      version: 1,
      files: [
        {
          file: `${broken}/string-true/SKILL.md`,
          optIn: null,
          problems: [
            {
              file: `${broken}/string-true/SKILL.md`,
              key: "utility_gated",
              found: 'the string "true"',
              expected: "a boolean (true or false, without quotes); write true",
              message: `${broken}/string-true/SKILL.md: utility_gated is the string "true"; expected a boolean (true or false, without quotes); write true.`,
            },
          ],
        },
      ],
    });
  });

  it("good fixtures pass: top level, metadata, plain, agents with and without frontmatter", async () => {
    const io = memoryIo();
    expect(await runCheck(["test/fixtures/optin/good"], io)).toBe(0);
    expect(io.out).toBe("checked 5 files, no problems (3 gated)\n");
  });
});

describe("utility check: arguments", () => {
  it("no PATH is a usage error: one line, exit 2", async () => {
    for (const args of [[], ["--json"]]) {
      const io = memoryIo();
      expect(await runCheck(args, io)).toBe(2);
      expect(io.err).toMatch(/^utility check: missing required argument 'paths'\. Usage: utility check PATH\.\.\. \[--json\]\n$/);
    }
  });

  it("an unknown option is a usage error with a suggestion", async () => {
    const io = memoryIo();
    expect(await runCheck(["--jsn", "skills"], io)).toBe(2);
    expect(io.err).toMatch(/^utility check: unknown option '--jsn' \(Did you mean --json\?\)\. Usage: utility check/);
  });

  it("a PATH that does not exist is a missing file: one line, exit 2", async () => {
    const io = memoryIo();
    expect(await runCheck(["no/such/place"], io)).toBe(2);
    expect(io.err).toBe("utility check: cannot read no/such/place: no file or folder at this path.\n");
  });

  it("a file that is no Markdown is no skill: a problem that says so, exit 1", async () => {
    const io = memoryIo();
    expect(await runCheck(["package.json"], io)).toBe(1);
    expect(io.out).toBe(
      "package.json: file: found no Markdown file, so no skill, agent or command (Claude Code reads those only from .md files); expected a SKILL.md, an agent .md or a command .md, or a folder holding them\n" +
        "checked 1 file, 1 problem in 1 file\n",
    );
  });

  it("a folder with nothing to check passes but says so on stderr", async () => {
    const io = memoryIo();
    expect(await runCheck(["src/optin"], io)).toBe(0);
    expect(io.out).toBe("checked 0 files, no problems\n");
    expect(io.err).toContain("no SKILL.md or agents/*.md found");
  });

  it("paths are shown relative to the working directory", async () => {
    const io = memoryIo(join(ROOT, "test", "fixtures", "optin"));
    await runCheck(["broken/zero-steps"], io);
    expect(io.out.split("\n")[0]).toBe("broken/zero-steps/SKILL.md: utility_max_steps: found 0; expected a whole number of at least 1");
  });
});

describe("utility check: names Claude Code reads differently (issue 18 item 8)", () => {
  it("a YAML comment after the name is read alike (no warning); a --- inside a line, which ends Claude Code's frontmatter, is warned about", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "utility-check-names-"));
    try {
      mkdirSync(join(dir, "agents"));
      writeFileSync(
        join(dir, "agents", "commented.md"),
        "---\nname: gated-helper # the gated one\ndescription: d\nutility_gated: true\n---\n",
      );
      writeFileSync(join(dir, "agents", "cut.md"), "---\ndescription: a---b\nname: cut-helper\n---\n");
      const io = memoryIo(dir);
      expect(await runCheck(["agents"], io)).toBe(0);
      expect(io.out).toBe(
        'warning: agents/cut.md: name: Claude Code reads no name where this YAML reader sees "cut-helper" (Claude Code ends the frontmatter at the first "---", even inside a line, and ignores a block it cannot read); the file answers to Claude Code\'s name\n' +
          "checked 2 files, no problems (1 gated)\n",
      );
      const json = memoryIo(dir);
      await runCheck(["agents", "--json"], json);
      const files = (JSON.parse(json.out) as { files: Array<{ file: string; warnings?: string[] }> }).files;
      expect(files.find((f) => f.file === "agents/commented.md")).not.toHaveProperty("warnings");
      expect(files.find((f) => f.file === "agents/cut.md")?.warnings).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
