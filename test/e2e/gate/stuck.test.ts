/**
 * SPEC §13 in the real client: a model re-runs a failing command after edits
 * that change nothing it reads. From the second run on, the next hook tells
 * it that the call returned exactly what it returned before; the fourth run
 * is refused under the gate (rule `no_progress`, the three steps named) and
 * hinted when the scope is not gated. Replay of the recorded session finds
 * the same identical outcomes and stuck loop, and so does an independent
 * script over the transcript.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { systemMessageTexts, text, toolUse, type ScriptBlock } from "../support/scripted-model.js";
import { findIdenticalOutcomes } from "../../support/identical-outcomes.js";
import { cli } from "../../support/cli-io.js";
import { activate, dataDirOf, expectPassed, expectRefused, gateRun, id, logOf, markerDir, ok, recordOf } from "./support.js";

const FAILING = { command: "echo 'FAIL test_parse: expected 1, got None'; exit 1", description: "run the failing test" };

/** Four runs of the failing command, a write between each two that changes nothing the command reads. */
function loop(ids: { runs: string[]; writes: string[] }, cwd: string, gated: boolean): ScriptBlock[][] {
  const turns: ScriptBlock[][] = [];
  ids.runs.forEach((run, i) => {
    turns.push([...(gated ? [text(ok("verify", "Run the test."))] : []), toolUse("Bash", FAILING, run)]);
    const write = ids.writes[i];
    if (write)
      turns.push([
        ...(gated ? [text(ok("tool_call", "Try a change."))] : []),
        toolUse("Write", { file_path: join(cwd, `note-${i}.md`), content: `attempt ${i}\n` }, write),
      ]);
  });
  return turns;
}

function newIds(label: string) {
  return {
    runs: [1, 2, 3, 4].map((n) => id(`${label}run${n}`)),
    writes: [1, 2, 3].map((n) => id(`${label}write${n}`)),
  };
}

/** The call ran (the command fails, so its result is an error): not refused, logged as `decision`, its outcome `failed`. */
function expectRan(run: RunClaudeResult, call: string, decision: "passed" | "observed"): void {
  expect(assertRunOk(run).permission_denials.map((d) => d.tool_use_id)).not.toContain(call);
  expect(recordOf(run, call)).toMatchObject({ decision });
  const outcome = logOf(run).find((r) => r.event === "Outcome" && r.toolUseId === call);
  expect(outcome?.outcome).toMatchObject({ result: "failed" });
}

/** Every `additionalContext` the model was shown, in order. */
const contexts = (run: RunClaudeResult) => run.model.mainRequests().flatMap((req) => systemMessageTexts(req, true));

describe("a failing command re-run after edits that change nothing, under the gate", () => {
  const ids = newIds("g");
  let run: RunClaudeResult;

  beforeAll(async () => {
    const cwd = markerDir();
    run = await gateRun({
      prompt: "why does test_parse fail?",
      cwd,
      allowedTools: ["Bash", "Write", "Read"],
      script: [[activate()], ...loop(ids, cwd, true), [text("Stuck: the same failure four times; here is what I know.")]],
    });
  }, 180_000);
  afterAll(() => run?.cleanup());

  it("runs it three times, and tells the model after each run that returned what the last one did", () => {
    for (const call of ids.runs.slice(0, 3)) expectRan(run, call, "passed");
    for (const call of ids.writes) expectPassed(run, call);
    const told = contexts(run).filter((c) => c.includes("returned exactly what it returned"));
    expect(told).toEqual([
      expect.stringContaining("utility: your Bash call at step 3 returned exactly what it returned at step 1, byte for byte"),
      expect.stringContaining("utility: your Bash call at step 5 returned exactly what it returned at step 3, byte for byte"),
    ]);
  });

  it("refuses the fourth with no_progress, naming the three steps", () => {
    const said = expectRefused(run, ids.runs[3]!, "Bash", "no_progress");
    expect(said).toContain("The last 3 runs of this Bash call (steps 1, 3 and 5) returned the same result, byte for byte");
    expect(said).toContain("Redundancy is at least 0.9, not 0.");
    expect(recordOf(run, ids.runs[3]!)).toMatchObject({ stuck: { steps: [1, 3, 5] } });
    const outcomes = logOf(run).filter((r) => r.event === "Outcome" && (r.outcome as { identical?: unknown }).identical);
    expect(outcomes.map((r) => [r.toolUseId, (r.outcome as { identical: unknown }).identical])).toEqual([
      // Each earlier run failed: a retry (SPEC §13), whatever ran in between.
      [ids.runs[1], { ofStep: 1, toolUseId: ids.runs[0], retry: true }],
      [ids.runs[2], { ofStep: 3, toolUseId: ids.runs[1], retry: true }],
    ]);
  });

  it("replay of the recording finds the same identical outcomes and the stuck loop, as does an independent script", async () => {
    const transcript = run.transcriptPath!;
    const shown = await cli(["replay", transcript, "--json"]);
    const main = JSON.parse(shown.stdout).files[0].scopes.find((s: { id: string }) => s.id === "main");
    const found = main.identicalOutcomes.map(
      (f: { call: { toolUseId: string }; of: { toolUseId: string } }) => `${f.call.toolUseId}<${f.of.toolUseId}`,
    );
    expect(found).toEqual([`${ids.runs[1]}<${ids.runs[0]}`, `${ids.runs[2]}<${ids.runs[1]}`]);
    expect(findIdenticalOutcomes([transcript]).map((f) => `${f.call}<${f.of}`)).toEqual(found);
    expect(main.stuckLoops).toEqual([
      expect.objectContaining({ tool: "Bash", refused: true, call: expect.objectContaining({ toolUseId: ids.runs[3] }) }),
    ]);
    // The HTML report counts them from the step log.
    const page = join(markerDir(), "r.html");
    const html = await cli(["report", run.sessionId!, "--html", page], { env: { UTILITY_DATA_DIR: dataDirOf(run) } });
    expect(html.code).toBe(0);
    expect(readFileSync(page, "utf8")).toContain("2 identical, 1 stuck (1 refused)");
  });
});

describe("the same loop in a scope that is not gated", () => {
  const ids = newIds("u");
  let run: RunClaudeResult;

  beforeAll(async () => {
    const cwd = markerDir();
    run = await gateRun({
      prompt: "why does test_parse fail?",
      cwd,
      allowedTools: ["Bash", "Write", "Read"],
      script: [...loop(ids, cwd, false), [text("Same failure four times.")]],
    });
  }, 180_000);
  afterAll(() => run?.cleanup());

  it("runs all four, and hints at the fourth that the last three returned the same result", () => {
    for (const call of ids.runs) expectRan(run, call, "observed");
    expect(recordOf(run, ids.runs[3]!)).toMatchObject({ decision: "observed", stuck: { steps: [1, 3, 5] } });
    expect(contexts(run).join("\n")).toContain(
      "utility: the last 3 runs of this Bash call (steps 1, 3 and 5) returned the same result, byte for byte; running it again will most likely return it again.",
    );
  });

  it("tells the model of the identical outcomes its hooks learned", () => {
    const told = contexts(run).join("\n");
    expect(told).toContain("utility: your Bash call at step 3 returned exactly what it returned at step 1, byte for byte");
    expect(told).toContain("utility: your Bash call at step 5 returned exactly what it returned at step 3, byte for byte");
  });
});
