import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../support/cli-io.js";
import { ROOT } from "../support/paths.js";

const LOG = join(ROOT, "test", "fixtures", "logs", "gated-session.jsonl");

describe("utility log", () => {
  it("prints the records as a table, refusal reasons beneath", async () => {
    const run = await cli(["log", LOG]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe(LOG);
    expect(lines[1]).toMatch(
      /^ #\s+time\s+scope\s+task\s+step\s+event\s+tool\s+decision\s+rule\s+action\s+U\s+repeat\s+outcome\s+hook ms$/,
    );
    expect(lines.filter((line) => /^\s*\d+\s+\d\d:\d\d:\d\d/.test(line))).toHaveLength(25);
    expect(run.stdout).toContain("↳ utility gate: your last report selected verify");
    expect(run.stdout).toContain("(2 unreadable lines skipped)");
  });

  it("--json gives the records", async () => {
    const run = await cli(["log", LOG, "--json"]);
    const json = JSON.parse(run.stdout);
    expect(json.records).toHaveLength(25);
    expect(json.skippedLines).toBe(2);
    expect(json.records[3]).toMatchObject({
      event: "PreToolUse",
      tool: "Read",
      decision: "refused",
      rule: "exact_repeat",
      repeat: { ofStep: 1 },
    });
  });

  it("bad arguments: one line, exit 2", async () => {
    for (const argv of [
      ["log", "a", "b"],
      ["log", "--html", "x"],
      ["log", "nope.jsonl"],
      ["log", "bad id!"],
    ]) {
      const run = await cli(argv, { env: { UTILITY_DATA_DIR: "/nonexistent-utility-data" } });
      expect(run.code, argv.join(" ")).toBe(2);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(/^utility log: /);
    }
  });
});
