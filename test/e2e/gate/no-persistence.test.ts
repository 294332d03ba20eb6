/**
 * `claude -p --no-session-persistence` (the SDK's `persistSession: false`)
 * writes no transcript (issue 31, hole 11): no report can be read and no
 * token measured. The user is told so once, at the first prompt; an ungated
 * call never waits for a transcript that will never come (it waited 3 s);
 * the subagent budget binds from hook inputs alone; a gated skill's calls are
 * refused with a reason that says why. The ungated twin refuses nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeScratchHome, type ClaudeJsonResult, type RunClaudeResult } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, expectPassed, expectRefused, gateRun, id, logOf, markerDir, ok, ran, touch } from "./support.js";

const NO_TRANSCRIPT = "Claude Code keeps no transcript for this session (--no-session-persistence";

/** A scratch HOME whose settings set the plugin's options (plugin id `utility@inline` under --plugin-dir). */
function homeWithOptions(options: Record<string, unknown>): string {
  const home = makeScratchHome();
  const path = join(home, ".claude", "settings.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), pluginConfigs: { "utility@inline": { options } } }));
  return home;
}

/** A run without persistence, its stream-json lines read: the result line as `result`, and what the user was told. */
async function unpersisted(opts: Parameters<typeof gateRun>[0]): Promise<RunClaudeResult & { told: string[] }> {
  const run = await gateRun({ ...opts, outputFormat: "stream-json", extraArgs: ["--no-session-persistence"] });
  const lines = run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const result = lines.find((line) => line.type === "result") as ClaudeJsonResult | undefined;
  const told = lines.filter((line) => line.type === "system" && line.subtype === "informational").map((line) => String(line.content));
  return { ...run, result, told };
}

describe("a session that keeps no transcript", () => {
  const runs: RunClaudeResult[] = [];
  afterAll(() => runs.forEach((run) => run.cleanup()));

  it("ungated (the twin): nothing refused, no call waits, the user told once why budgets of tokens cannot bind", async () => {
    const marks = markerDir();
    const ids = { a: id("np_a"), b: id("np_b"), read: id("np_read") };
    const run = await unpersisted({
      prompt: "list the files",
      home: homeWithOptions({ token_budget: 1 }),
      script: [
        [touch(join(marks, "a"), ids.a)],
        [touch(join(marks, "b"), ids.b)],
        [toolUse("Read", { file_path: join(marks, "a") }, ids.read)],
        [text("Listed.")],
      ],
    });
    runs.push(run);
    expect(run.transcriptPaths).toEqual([]);
    expect(run.result!.permission_denials).toEqual([]);
    for (const call of Object.values(ids)) expectPassed(run, call, "observed");
    expect(ran(join(marks, "a")) && ran(join(marks, "b"))).toBe(true);
    // The first call waited 3 s for a line that never came; now none waits.
    const latencies = logOf(run)
      .filter((r) => r.event === "PreToolUse" || r.event === "Stop")
      .map((r) => r.latencyMs);
    expect(Math.max(...latencies)).toBeLessThan(500);
    const notices = run.told.filter((t) => t.includes(NO_TRANSCRIPT));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("token and cost budgets cannot bind");
  });

  it("max_agents binds from hook inputs alone: the second launch is refused", async () => {
    const launch = (callId: string, prompt: string) =>
      toolUse("Agent", { subagent_type: "general-purpose", description: "Sub", prompt, run_in_background: false }, callId);
    const ids = { first: id("np_agent1"), second: id("np_agent2") };
    const run = await unpersisted({
      prompt: "split it",
      home: homeWithOptions({ max_agents: 1 }),
      script: [[launch(ids.first, "SUB-1: go")], [launch(ids.second, "SUB-2: go")], [text("Split.")]],
      subagentScript: [[text("SUB done.")]],
    });
    runs.push(run);
    expect(run.result!.permission_denials.map((d) => d.tool_use_id)).toEqual([ids.second]);
    const refused = logOf(run).find((r) => r.toolUseId === ids.second);
    expect(refused).toMatchObject({ decision: "refused", rule: "agents_exhausted", gated: false });
    expect(refused!.reason).toContain("This task may launch 1 subagent");
  });

  it("gated: a skill's call is refused, and the reason says there is no transcript", async () => {
    const marks = markerDir();
    const ids = { before: id("np_before"), gated: id("np_gated") };
    const run = await unpersisted({
      prompt: "why does test_parse fail?",
      script: [
        [touch(join(marks, "before"), ids.before)],
        [activate()],
        [text(ok("verify")), touch(join(marks, "gated"), ids.gated)],
        [text("Stopped.")],
      ],
    });
    runs.push(run);
    expectPassed(run, ids.before, "observed");
    const said = expectRefused(run, ids.gated, "Bash", "transcript_unreadable");
    expect(said).toContain(NO_TRANSCRIPT);
    expect(said).toContain("this scope is gated, and no call of it can be checked");
    expect(ran(join(marks, "gated"))).toBe(false);
  });
});
