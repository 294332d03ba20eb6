import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ReplayReport } from "../../src/replay/types.js";
import { cli } from "../support/cli-io.js";
import { TRANSCRIPTS } from "../support/paths.js";
import { GOOD, assistant, call, jsonl, message, prompt, report, result, tempDir, text } from "../replay/support.js";

const BIG = join(TRANSCRIPTS, "viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl");
const dir = tempDir();
afterAll(() => dir.remove());

const READ = { file_path: "/repo/a.ts" };
dir.file(
  "repeat.jsonl",
  jsonl([
    prompt("read a"),
    assistant("m1", [call("t1", "Read", READ)]),
    result("t1", "x".repeat(400)),
    assistant("m2", [call("t2", "Read", READ)]),
    result("t2", "x".repeat(400)),
    ...message("m3", [text(report("tool_call", "0.28", GOOD)), call("t3", "Bash", { command: "make" })]),
    result("t3", "ok"),
  ]),
);

describe("utility replay", () => {
  it("prints a short table per file, then the totals and how tokens are estimated", async () => {
    const run = await cli(["replay", BIG]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("session, 438 lines, 167 tool calls, 6 scopes");
    expect(run.stdout).toMatch(/scope\s+lines\s+calls\s+repeats\s+~tokens/);
    expect(run.stdout).toMatch(/subagent #2 \(Setup Next\.js project\)\s+38-123\s+33\s+0\s+0/);
    expect(run.stdout).toContain("total: 1 file, 6 scopes, 167 tool calls, 0 exact repeats ≈ 0 tokens");
    expect(run.stdout).toContain("estimate: tokens ≈ ceil(UTF-8 bytes");
  });

  it("names each repeat with where it first ran", async () => {
    const run = await cli(["replay", "repeat.jsonl"], { cwd: dir.path });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('repeat in main: line 4 (call 2, task 1 step 2) Read {"file_path":"/repo/a.ts"}');
    expect(run.stdout).toContain("first ran at line 2 (call 1, task 1 step 1); result 400 bytes ≈ 100 tokens");
  });

  it("--gated says what the gate would refuse and why", async () => {
    const run = await cli(["replay", "--gated", "repeat.jsonl"], { cwd: dir.path });
    expect(run.stdout).toMatch(/main\s+1-8\s+3\s+1\s+100\s+0\s+0\s+2\s+no_report 2/);
    expect(run.stdout).toContain("would refuse in main: 2 calls with no action report before them (first at line 2)");
    expect(run.stdout).toContain("gated (default config): would refuse 2, let 1 through");
  });

  it("--json is the whole report", async () => {
    const run = await cli(["replay", "--json", "--gated", "repeat.jsonl"], { cwd: dir.path });
    const parsed = JSON.parse(run.stdout) as ReplayReport;
    expect(parsed).toMatchObject({
      version: 1,
      gated: true,
      totals: { files: 1, scopes: 1, calls: 3, repeats: 1, repeatTokens: 100, refused: 2, passed: 1 },
    });
    expect(parsed.files[0]!.path).toBe(join(dir.path, "repeat.jsonl"));
  });

  it("bad arguments and unreadable files: one line, exit 2", async () => {
    for (const argv of [
      ["replay"],
      ["replay", "--nope", BIG],
      ["replay", "missing.jsonl"],
      ["replay", "repeat.jsonl", "--all"],
      ["replay", ".", "--since", "last week"],
      ["replay", ".", "--json", "--html", "x.html"],
      ["replay", ".", "--gated"],
    ]) {
      // A HOME with no sessions: `replay` alone finds none for this folder.
      const run = await cli(argv, { cwd: dir.path, env: { HOME: dir.path } });
      expect(run.code, argv.join(" ")).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trimEnd().split("\n"), argv.join(" ")).toHaveLength(1);
      expect(run.stderr).toMatch(/^utility replay: /);
    }
  });

  it("never fails on a torn or odd file: what it cannot parse it skips", async () => {
    const odd = dir.file(
      "odd.jsonl",
      `not json\n${assistant("m1", [call("t1", "Read", READ)])}\n{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"Read","inp`,
    );
    const run = await cli(["replay", "--json", odd]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as ReplayReport).totals.calls).toBe(1);
  });
});
