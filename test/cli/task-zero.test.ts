/**
 * Task numbers count typed prompts from 1: what a session records before its
 * first prompt's line (task 0) is never shown to people as "task 0" (issue 20).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../support/cli-io.js";
import { ROOT } from "../support/paths.js";

const dir = mkdtempSync(join(tmpdir(), "utility-task-zero-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = join(dir, "early.jsonl");
// The fixture's first task recorded as task 0, its second as task 1: a session whose hooks ran before its first prompt.
writeFileSync(
  log,
  readFileSync(join(ROOT, "test", "fixtures", "logs", "gated-session.jsonl"), "utf8")
    .replaceAll('"task":1,', '"task":0,')
    .replaceAll('"task":2,', '"task":1,'),
);

describe("no task 0 shown to people", () => {
  it.each([["log"], ["report"]])("utility %s", async (name) => {
    const r = await cli([name, log], { env: { UTILITY_DATA_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/\btask 0\b|\bt0\b/i);
    if (name === "report") expect(r.stdout).toContain("before the first prompt");
  });

  it("utility log leaves the task cell of such a record empty", async () => {
    const r = await cli(["log", log], { env: { UTILITY_DATA_DIR: dir } });
    const rows = r.stdout.split("\n").filter((line) => /^\s*\d+\s/.test(line));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.split(/\s+/).includes("–"))).toBe(true);
  });

  it("utility report --html", async () => {
    const html = join(dir, "r.html");
    const r = await cli(["report", log, "--html", html], { env: { UTILITY_DATA_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(html, "utf8");
    expect(text).not.toMatch(/\btask 0\b|>t0</i);
    expect(text).toContain("before the first prompt");
  });
});
