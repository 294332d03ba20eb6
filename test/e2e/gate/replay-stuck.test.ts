/**
 * First-hour walk 34, surprises 6 and 8, in the real client: `utility replay`
 * names the stuck loop the live gate refused. `/utility on`, then "run the
 * test three times": the model runs a failing `node test.mjs` three times,
 * back to back, each with its report; then "try once more": the fourth run
 * is refused (rule no_progress). The history of the session's folder
 * (`utility replay FOLDER`, text and JSON) names that stuck loop, in task 2,
 * as the transcript replay does; and it no longer says that something ran in
 * between the identical outcomes (nothing did: each was a retry of a failed
 * call), nor does the notice the model is shown live. Before the change the
 * history had no word of stuck loops at all, and both said "although
 * something ran in between".
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReplayReport } from "../../../src/replay/types.js";
import { PLUGIN_ROOT } from "../../support/paths.js";
import type { RunClaudeResult } from "../support/claude.js";
import { systemMessageTexts, text, toolUse } from "../support/scripted-model.js";
import { afterTyped, dataDirOf, expectRefused, gateRun, id, markerDir, ok, recordOf } from "./support.js";

const TEST = { command: "node test.mjs", description: "Run the test" };

function cli(run: RunClaudeResult, args: string[]): string {
  const out = spawnSync(process.execPath, [join(PLUGIN_ROOT, "dist", "cli.js"), ...args], {
    encoding: "utf8",
    env: { ...process.env, HOME: run.home, CLAUDE_PLUGIN_DATA: dataDirOf(run) },
  });
  expect(out.stderr).toBe("");
  return out.stdout;
}

describe("a stuck loop refused live under /utility on, then replayed", () => {
  const runs = [1, 2, 3, 4].map((n) => id(`rstuck${n}`));
  let first: Awaited<ReturnType<typeof afterTyped>>;
  let second: RunClaudeResult;

  beforeAll(async () => {
    const cwd = markerDir();
    writeFileSync(join(cwd, "test.mjs"), 'console.error("AssertionError: expected 2, got 0");\nprocess.exit(1);\n');
    const verify = (callId: string, description = TEST.description) => [
      text(ok("verify", "Run the test.")),
      toolUse("Bash", { ...TEST, description }, callId),
    ];
    first = await afterTyped(
      "/utility on",
      {
        prompt: "run the test three times",
        cwd,
        script: [verify(runs[0]!), verify(runs[1]!), verify(runs[2]!), [text("The test fails three times the same way.")]],
      },
      (o) => gateRun({ ...o, allowedTools: ["Bash"] }),
    );
    second = await gateRun({
      prompt: "try once more",
      home: first.home,
      cwd,
      allowedTools: ["Bash"],
      extraArgs: ["--resume", first.sessionId!],
      script: [verify(runs[3]!, "Run it again"), [text("Still failing; I stop here.")]],
    });
  }, 240_000);
  afterAll(() => {
    second?.cleanup();
    first?.cleanup();
  });

  it("live: three runs let through in task 1, the fourth refused in task 2 as a stuck loop", () => {
    for (const [i, callId] of runs.slice(0, 3).entries())
      expect(recordOf(first, callId)).toMatchObject({ task: 1, step: i + 1, decision: "passed" });
    const refusal = expectRefused(second, runs[3]!, "Bash", "no_progress");
    expect(refusal).toContain("The last 3 runs of this Bash call (steps 1, 2 and 3 of task 1) returned the same result");
  });

  it("live: the model is told each retry returned what the failed run before it did, not that something ran in between", () => {
    const told = first.model
      .mainRequests()
      .flatMap((req) => systemMessageTexts(req, true))
      .filter((c) => c.includes("returned exactly what it returned"));
    expect(told.length).toBeGreaterThan(0);
    for (const notice of told) expect(notice).not.toContain("although something that could change it ran in between");
    expect(told.join("\n")).toContain(
      "utility: your Bash call at step 2 returned exactly what it returned at step 1, byte for byte, when that run failed: retrying it unchanged told you nothing new.",
    );
  });

  it("the transcript replay, gated, refuses the same call for the same reason", () => {
    const replay = JSON.parse(cli(second, ["replay", "--json", "--gated", second.transcriptPath!])) as ReplayReport;
    const main = replay.files.flatMap((file) => file.scopes).find((s) => s.scope === "main")!;
    expect(main.stuckLoops.map((s) => [s.call.toolUseId, s.call.task, s.runs.map((r) => r.toolUseId), s.refused])).toEqual([
      [runs[3], 2, runs.slice(0, 3), true],
    ]);
    // Each identical outcome was a retry of the failed run before it: nothing ran in between.
    expect(main.identicalOutcomes.map((f) => [f.call.toolUseId, f.of.toolUseId, f.retry])).toEqual([
      [runs[1], runs[0], true],
      [runs[2], runs[1], true],
    ]);
  });

  it("the history of the session's folder names the stuck loop, in task 2, and says what the identical outcomes were", () => {
    const folder = dirname(second.transcriptPath!);
    const history = JSON.parse(cli(second, ["replay", "--json", folder])) as {
      totals: { stuckLoops: number; identicalOutcomes: number };
      stuckLoops: Array<{ task: number; tool: string; runs: number }>;
    };
    expect(history.totals).toMatchObject({ stuckLoops: 1, identicalOutcomes: 2 });
    expect(history.stuckLoops).toMatchObject([{ task: 2, tool: "Bash", runs: 3, prompt: "try once more" }]);
    const shown = cli(second, ["replay", folder]);
    expect(shown).toContain("Stuck loops: 1 call came after the last runs of the same call had all returned the same result");
    expect(shown).toMatch(/ {2}Bash after 3 runs with one result, in session \w+, task 2 .*"try once more"/);
    expect(shown).toContain("that run had failed (a retry), or something that could change the result ran in between");
    expect(shown).not.toContain("although something ran in between");
  });
});
