/**
 * Issue 31, hole 14, in the real client: a model re-runs one failing command
 * under a new `description` (and `timeout`) each time, fields that change
 * nothing that runs. The runaway rules match calls by what they do
 * (src/engine/tools.ts COSMETIC_FIELDS), so the fourth run is still a stuck
 * loop: refused under the gate, hinted when the scope is not gated; replay
 * of the recording finds the same loop.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { systemMessageTexts, text, toolUse, type ScriptBlock } from "../support/scripted-model.js";
import { cli } from "../../support/cli-io.js";
import { activate, expectRefused, gateRun, id, logOf, markerDir, ok, recordOf } from "./support.js";

const COMMAND = "echo 'FAIL test_parse: expected 1, got None'; exit 1";
const WORDINGS = [
  { description: "run the failing test" },
  { description: "re-run the test after the fix", timeout: 60000 },
  { description: "check whether the test passes now", timeout: 120000 },
  { description: "one more try" },
];

/** Four runs of the command, each worded anew, with a write between each two that changes nothing it reads. */
function loop(ids: { runs: string[]; writes: string[] }, cwd: string, gated: boolean): ScriptBlock[][] {
  const turns: ScriptBlock[][] = [];
  ids.runs.forEach((run, i) => {
    turns.push([...(gated ? [text(ok("verify", "Run the test."))] : []), toolUse("Bash", { command: COMMAND, ...WORDINGS[i] }, run)]);
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
  return { runs: [1, 2, 3, 4].map((n) => id(`${label}run${n}`)), writes: [1, 2, 3].map((n) => id(`${label}write${n}`)) };
}

/** Every `additionalContext` the model was shown, in order. */
const contexts = (run: RunClaudeResult) => run.model.mainRequests().flatMap((req) => systemMessageTexts(req, true));

async function replayedLoops(run: RunClaudeResult): Promise<unknown[]> {
  const shown = await cli(["replay", run.transcriptPath!, "--json"]);
  return JSON.parse(shown.stdout).files[0].scopes.find((s: { id: string }) => s.id === "main").stuckLoops;
}

async function session(label: string, gated: boolean): Promise<{ run: RunClaudeResult; ids: ReturnType<typeof newIds> }> {
  const ids = newIds(label);
  const cwd = markerDir();
  const run = await gateRun({
    prompt: "why does test_parse fail?",
    cwd,
    allowedTools: ["Bash", "Write", "Read"],
    script: [...(gated ? [[activate()]] : []), ...loop(ids, cwd, gated), [text("The same failure four times.")]],
  });
  return { run, ids };
}

describe("one failing command re-run under four descriptions, under the gate", () => {
  let s: Awaited<ReturnType<typeof session>>;
  beforeAll(async () => {
    s = await session("rg", true);
  }, 180_000);
  afterAll(() => s?.run.cleanup());

  it("runs it three times, tells the model each time it returned the same, and refuses the fourth with no_progress", () => {
    const { run, ids } = s;
    for (const call of ids.runs.slice(0, 3)) expect(recordOf(run, call)).toMatchObject({ decision: "passed" });
    expect(contexts(run).filter((c) => c.includes("returned exactly what it returned"))).toHaveLength(2);
    const said = expectRefused(run, ids.runs[3]!, "Bash", "no_progress");
    expect(said).toContain("The last 3 runs of this Bash call (steps 1, 3 and 5) returned the same result, byte for byte");
    // One digest for the four wordings: the step log says they are one call.
    const digests = new Set(ids.runs.map((call) => recordOf(run, call).inputDigest));
    expect(digests.size).toBe(1);
  });

  it("replay of the recording finds the same stuck loop", async () => {
    expect(await replayedLoops(s.run)).toEqual([
      expect.objectContaining({ tool: "Bash", refused: true, call: expect.objectContaining({ toolUseId: s.ids.runs[3] }) }),
    ]);
  });
});

describe("the same reworded loop in a scope that is not gated", () => {
  let s: Awaited<ReturnType<typeof session>>;
  beforeAll(async () => {
    s = await session("ru", false);
  }, 180_000);
  afterAll(() => s?.run.cleanup());

  it("refuses nothing: all four run, the fourth with the stuck-loop hint", () => {
    const { run, ids } = s;
    expect(assertRunOk(run).permission_denials).toEqual([]);
    for (const call of [...ids.runs, ...ids.writes]) expect(recordOf(run, call).decision).toBe("observed");
    expect(recordOf(run, ids.runs[3]!)).toMatchObject({ stuck: { steps: [1, 3, 5] } });
    expect(contexts(run).join("\n")).toContain("utility: the last 3 runs of this Bash call (steps 1, 3 and 5) returned the same result");
    expect(logOf(run).filter((r) => r.event === "Outcome" && r.toolUseId === ids.runs[3]).length).toBe(1);
  });
});
