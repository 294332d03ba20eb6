// The command line as people know it (issue 11, item 4): help everywhere,
// --version, did-you-mean, negative numbers, one usage line on errors,
// consistent exit codes, a version in every --json output, and the
// /utility backing command kept out of the help.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands.js";
import { JSON_VERSION } from "../../src/cli/io.js";
import { VERSION } from "../../src/cli/program.js";
import { cli } from "../support/cli-io.js";
import { PLUGIN_ROOT, ROOT, TRANSCRIPTS } from "../support/paths.js";

const NAMES = ["score", "select", "check", "status", "log", "report", "replay", "statusline", "prune", "export"];
const CANONICAL = ["--gain", "0.7", "--step-cost", "0.12", "--uncertainty", "0.6", "--redundancy", "0"];
const LOG = join(ROOT, "test", "fixtures", "logs", "gated-session.jsonl");
const TABLE =
  "Candidates:\n- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0\n- tool_call: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\n";

const scratch = mkdtempSync(join(tmpdir(), "utility-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("help", () => {
  it.each([["--help"], ["-h"], ["help"]])("utility %s lists every command but the hidden one, exit 0", async (flag) => {
    const r = await cli([flag]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: utility <command> \[options\]/);
    for (const name of NAMES) expect(r.stdout).toMatch(new RegExp(`^  ${name}\\b`, "m"));
    expect(r.stdout).not.toMatch(/^ {2}command\b/m);
    expect(r.stderr).toBe("");
  });

  it("lists exactly the commands people use", () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(NAMES);
  });

  it.each(
    NAMES.flatMap((name) => [
      [name, "--help"],
      [name, "-h"],
    ]),
  )("utility %s %s prints its usage and options, exit 0", async (name, flag) => {
    const r = await cli([name!, flag!]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: utility ${name} `));
    expect(r.stdout).toContain("-h, --help");
    expect(r.stderr).toBe("");
  });

  it("with no command, prints the help on stderr and exits 2", async () => {
    const r = await cli([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Usage: utility <command>/);
  });
});

describe("--version", () => {
  it.each([["--version"], ["-V"]])("%s prints the package's version, exit 0", async (flag) => {
    const r = await cli([flag]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${VERSION}\n`);
    expect(VERSION).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  });
});

describe("mistakes: one line, a suggestion where one fits, exit 2", () => {
  it.each([
    [["scor", ...CANONICAL], /^utility: unknown command 'scor' \(Did you mean score\?\)\. Usage: utility <command> \[options\]/],
    [["repaly", "x.jsonl"], /\(Did you mean replay\?\)/],
    [
      ["select", "-", "--flor", "1"],
      /^utility select: unknown option '--flor' \(Did you mean --floor\?\)\. Usage: utility select FILE\|- /,
    ],
    [["report", "--htm", "x.html"], /\(Did you mean --html\?\)/],
    [["score", "--gain"], /^utility score: option '--gain <n>' argument missing\. Usage: utility score /],
    [["log", "a", "b"], /^utility log: too many arguments for 'log'/],
  ])("%j", async (argv, pattern) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.endsWith("\n")).toBe(true);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stdout).toBe("");
  });

  it("never shows a stack trace from the bundled binary", () => {
    const run = (args: string[]) => spawnSync(process.execPath, [join(PLUGIN_ROOT, "dist", "cli.js"), ...args], { encoding: "utf8" });
    for (const args of [["scor"], ["select", "--flor"], ["select", "/no/such/file"], ["replay", "/no/such/file.jsonl"]]) {
      const r = run(args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr.trimEnd().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(run(["--help"]).status).toBe(0);
    for (const name of NAMES) expect(run([name, "--help"]).status, name).toBe(0);
  });
});

describe("negative numbers after a space", () => {
  it("--floor -1 is the value -1, not an option", async () => {
    const r = await cli(["select", "-", "--floor", "-1", "--json"], { stdin: TABLE });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).config.floor).toBe(-1);
  });

  it("--floor=-0.9 works too, and a floor that is no number is named", async () => {
    expect(JSON.parse((await cli(["select", "-", "--floor=-0.9", "--json"], { stdin: TABLE })).stdout).config.floor).toBe(-0.9);
    const bad = await cli(["select", "-", "--floor", "low"], { stdin: TABLE });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('utility select: --floor is "low"; expected a number in [-2.3, 1.0] (e.g. --floor -1).\n');
  });
});

describe("utility select on a plain candidate table", () => {
  it("answers which action wins from only the Candidates rows", async () => {
    const r = await cli(["select", "-"], { stdin: TABLE });
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("a* = retrieve (U = 0.30)");
    expect(r.stdout).not.toContain("report:");
  });

  it("reads the table from a file too, fenced or with bold labels", async () => {
    const file = join(scratch, "table.md");
    writeFileSync(
      file,
      "Options for this step:\n\n```\n**Candidates:**\n- tool_call: Gain=0.9 StepCost=0.1 Uncertainty=0.1 Redundancy=0\n- stop: Gain=0 StepCost=0 Uncertainty=0 Redundancy=0\n```\n",
    );
    const r = await cli(["select", file, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ selected: "tool_call", candidates: [{ action: "tool_call" }, { action: "stop" }] });
  });
});

describe("utility replay on a file that holds no transcript", () => {
  it("says so and exits 1", async () => {
    const file = join(scratch, "notes.jsonl");
    writeFileSync(file, "these are notes\nnot a transcript\n");
    const r = await cli(["replay", file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`utility replay: ${file} holds no Claude Code transcript: none of its lines is a transcript line.\n`);
    expect(r.stdout).toBe("");
  });

  it("a real transcript beside it is still replayed, and the exit is still 1", async () => {
    const file = join(scratch, "notes.jsonl");
    writeFileSync(file, "{}\n");
    const r = await cli(["replay", join(TRANSCRIPTS, "spotter__short.jsonl"), file]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toBe("");
    expect(r.stderr).toContain("holds no Claude Code transcript");
  });

  it("a missing file is a usage error, exit 2", async () => {
    expect((await cli(["replay", join(scratch, "missing.jsonl")])).code).toBe(2);
  });
});

describe("every --json output carries a version", () => {
  const dataDir = join(scratch, "data");
  mkdirSync(join(dataDir, "sessions"), { recursive: true });
  copyFileSync(LOG, join(dataDir, "sessions", "fixture-session.jsonl"));
  it.each([
    ["score", [...CANONICAL, "--json"], ""],
    ["select", ["-", "--json"], TABLE],
    ["check", ["examples", "--json"], ""],
    ["status", ["--json"], ""],
    ["log", [LOG, "--json"], ""],
    ["report", [LOG, "--json"], ""],
    ["replay", [join(TRANSCRIPTS, "spotter__short.jsonl"), "--json"], ""],
    ["prune", ["--dry-run", "--json"], ""],
  ])("utility %s --json", async (name, args, stdin) => {
    const r = await cli([name, ...args], { stdin, cwd: ROOT, env: { UTILITY_DATA_DIR: dataDir } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).version).toBe(JSON_VERSION);
  });
});

describe("a session no data folder holds", () => {
  it.each([
    ["status", ["--session", "nope"]],
    ["status", ["nope"]],
    ["log", ["nope"]],
    ["report", ["nope"]],
  ])("utility %s %j: one line, exit 2", async (name, args) => {
    const r = await cli([name, ...args], { env: { UTILITY_DATA_DIR: join(scratch, "empty") } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^utility \w+: no (session|log for session) nope in .+\.\n$/);
  });

  it.each([["log"], ["report"], ["replay"], ["select"]])(
    "utility %s of a missing file says so in words, never a bare ENOENT",
    async (name) => {
      const r = await cli([name, join(scratch, "gone.jsonl")], { env: { UTILITY_DATA_DIR: join(scratch, "empty") } });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`utility ${name}: cannot read ${join(scratch, "gone.jsonl")}: no file or folder at this path.\n`);
    },
  );

  it("status takes SESSION as log and report do; with --session too, they must agree", async () => {
    const dataDir = join(scratch, "data-status");
    mkdirSync(join(dataDir, "sessions"), { recursive: true });
    copyFileSync(LOG, join(dataDir, "sessions", "s-one.jsonl"));
    const env = { UTILITY_DATA_DIR: dataDir };
    const byArg = await cli(["status", "s-one"], { env });
    expect(byArg.code, byArg.stderr).toBe(0);
    expect(byArg.stdout).toBe((await cli(["status", "--session", "s-one"], { env })).stdout);
    expect(byArg.stdout).toBe((await cli(["status"], { env })).stdout);
    const both = await cli(["status", "s-one", "--session", "s-two"], { env });
    expect([both.code, both.stderr]).toEqual([2, "utility status: two sessions given: s-one and --session s-two; give one.\n"]);
  });

  it("with no session at all, status and log say there is none yet: exit 2", async () => {
    for (const name of ["status", "log", "report"]) {
      const r = await cli([name], { env: { UTILITY_DATA_DIR: join(scratch, "empty") } });
      expect(r.code, name).toBe(2);
      expect(r.stderr.split("\n").filter(Boolean), name).toHaveLength(1);
    }
  });
});

describe("the hidden command behind /utility", () => {
  it("still answers, and exits 0 whatever it is given", async () => {
    const r = await cli(["command", "bogus", "--session", "s1", "--frobnicate"], { env: { UTILITY_DATA_DIR: join(scratch, "d2") } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("/utility takes no argument or one of");
  });
});

describe("layering", () => {
  it("nothing under src/cli imports from src/hooks", () => {
    const dir = join(ROOT, "src", "cli");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(
      (f) => f.endsWith(".ts") && statSync(join(dir, f)).isFile(),
    );
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(readFileSync(join(dir, file), "utf8"), file).not.toMatch(/from "(\.\.\/)+hooks\//);
  });
});
