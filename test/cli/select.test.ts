import { describe, expect, it } from "vitest";
import { cli } from "../support/cli-io.js";

const row = (action: string, gain: number, stepCost = 0, uncertainty = 0, redundancy = 0) => ({
  action,
  gain,
  stepCost,
  uncertainty,
  redundancy,
});

const LONG = [
  "Candidates:",
  "- retrieve: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0",
  "- tool_call: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0",
  "Action: retrieve",
  "Utility: 0.30",
  "Breakdown: Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0",
  'Rationale: "Read first."',
].join("\n");

describe("utility select", () => {
  it("selects from a JSON list and prints every U and the verdict", async () => {
    const r = await cli(["select", "-"], { stdin: JSON.stringify([row("retrieve", 0.4), row("tool_call", 0.6), row("stop", 0)]) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("a* = tool_call (U = 0.60)");
    expect(r.stdout).toMatch(/retrieve\s+U = +0.40/);
    expect(r.stdout).toContain("continue:");
  });

  it("reads settings from the JSON object and flags", async () => {
    const input = { candidates: [row("retrieve", 0.4)], step: 10 };
    const r = await cli(["select", "-", "--json"], { stdin: JSON.stringify(input) });
    expect(JSON.parse(r.stdout).termination).toMatchObject({ terminate: true, rule: "budget" });
    const more = await cli(["select", "-", "--json", "--max-steps", "20"], { stdin: JSON.stringify(input) });
    expect(JSON.parse(more.stdout).termination.terminate).toBe(false);
  });

  it("reports the floor verdict and the high-gain override", async () => {
    const low = await cli(["select", "-", "--json"], { stdin: JSON.stringify([row("retrieve", 0.1, 1, 1)]) });
    expect(JSON.parse(low.stdout).termination.rule).toBe("floor");
    const high = await cli(["select", "-", "--json"], { stdin: JSON.stringify([row("retrieve", 0.8, 1, 1)]) });
    expect(JSON.parse(high.stdout).termination).toMatchObject({ terminate: false, override: { action: "retrieve", gain: 0.8 } });
  });

  it("reads a long report and checks its claim", async () => {
    const good = await cli(["select", "-"], { stdin: LONG });
    expect(good.code).toBe(0);
    expect(good.stdout).toContain("report: consistent with the engine");
    const bad = await cli(["select", "-"], {
      stdin: LONG.replace("Action: retrieve", "Action: tool_call")
        .replace("Utility: 0.30", "Utility: 0.28")
        .replace(
          "Gain=0.6 StepCost=0.1 Uncertainty=0.4 Redundancy=0.0\nRationale",
          "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale",
        ),
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("not the argmax");
  });

  it("refuses a candidate outside the scope", async () => {
    const r = await cli(["select", "-", "--scope", "subagent"], { stdin: JSON.stringify([row("delegate", 0.5)]) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/delegate is not available in subagent scope/);
  });

  it.each([
    [[], "", /^utility select: missing required argument 'file'\. Usage: utility select FILE\|- /],
    [["-"], "{", /not valid JSON/],
    [["-"], JSON.stringify([row("retriev", 0.5)]), /candidates\[0\]\.action: .*found "retriev"/],
    [["-"], JSON.stringify([row("retrieve", 1.5)]), /\[0\]\.gain: Gain must lie in \[0, 1\] \(found 1.5\)/],
    [["-"], "no report here", /- holds no candidate table: give a `Candidates:` line/],
    [["-"], "Candidates:\n- retrieve Gain 0.6", /In Candidates, "retrieve Gain 0.6" is not a candidate row/],
    [["/nonexistent/file.json"], "", /cannot read \/nonexistent\/file.json: no file or folder at this path\.\n$/],
    [["-", "--step=-1"], JSON.stringify([row("retrieve", 0.5)]), /--step is "-1"/],
  ])("%j is a usage error", async (args, stdin, pattern) => {
    const r = await cli(["select", ...(args as string[])], { stdin: stdin as string });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern as RegExp);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
