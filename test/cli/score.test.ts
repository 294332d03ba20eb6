import { describe, expect, it } from "vitest";
import { cli } from "../support/cli-io.js";

const CANONICAL = ["--gain", "0.7", "--step-cost", "0.12", "--uncertainty", "0.6", "--redundancy", "0"];

describe("utility score", () => {
  it("prints the canonical report", async () => {
    const r = await cli(["score", ...CANONICAL]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Action: tool_call\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\n");
  });

  it("takes λ, the action and a rationale", async () => {
    const r = await cli(["score", ...CANONICAL, "--lambdas", "1,0,0", "--action", "verify", "--rationale", "check it"]);
    expect(r.stdout).toContain("Action: verify\nUtility: 0.58\n");
    expect(r.stdout).toContain('Rationale: "check it"');
  });

  it("prints JSON for machines", async () => {
    const r = await cli(["score", ...CANONICAL, "--json"]);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: "tool_call", utility: 0.28, lambdas: [1, 0.5, 0.8] });
  });

  it.each([
    [["score"], /^utility score: missing --gain, --step-cost, --uncertainty and --redundancy\. Usage: utility score --gain N/],
    [["score", ...CANONICAL.slice(2)], /^utility score: missing --gain\. Usage/],
    [["score", "--gain", "0.5", "--uncertainty", "0.1"], /^utility score: missing --step-cost and --redundancy\. Usage/],
    [["score", ...CANONICAL, "--gain", "2"], /--gain is 2; Gain must lie in \[0, 1\]/],
    [["score", "--gain", "lots", ...CANONICAL.slice(2)], /not a plain decimal/],
    [["score", ...CANONICAL, "--lambdas", "1,0.5"], /three numbers/],
    [["score", ...CANONICAL, "--lambdas", "1,-0.5,0.8"], /--lambdas: λ2 is "-0.5"; expected a number ≥ 0/],
    [["score", ...CANONICAL, "--lambdas", "1,0.5,x"], /--lambdas: λ3 is "x"; expected a number ≥ 0/],
    [["score", ...CANONICAL, "--action", "search"], /--action is "search"; expected one of/],
    [["score", ...CANONICAL, "--frobnicate"], /^utility score: unknown option '--frobnicate'\. Usage: utility score --gain N/],
    [["score", ...CANONICAL, "--rationle", "x"], /unknown option '--rationle' \(Did you mean --rationale\?\)/],
    [["score", ...CANONICAL, "extra"], /too many arguments for 'score'/],
  ])("%j is a usage error: one line, exit 2", async (argv, pattern) => {
    const r = await cli(argv as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toBe("");
  });
});
