/**
 * The plugin's records are the user's alone (issue 31, hole 15): after a real
 * session, gated (a refusal and a report with its rationale) or not, every
 * file under the data folder is 0600 (the launcher 0700, so the user can run
 * it) and every folder 0700, the data folder Claude Code made included. Claude
 * Code runs under umask 000 here, so nothing is private by the umask's grace.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { activate, dataDirOf, expectPassed, expectRefused, gateRun, id, markerDir, ok, touch } from "./support.js";

/** Runs claude with umask 000: a file left to the default mode would be 0666, a folder 0777. */
const OPEN_UMASK = ["sh", "-c", 'umask 000; exec "$0" "$@"'];

/** Each file and folder under the data folder, with its mode in octal (`d700`, `f600`). */
function modes(run: RunClaudeResult): Record<string, string> {
  const data = dataDirOf(run);
  const out: Record<string, string> = { ".": `d${(statSync(data).mode & 0o777).toString(8)}` };
  for (const name of readdirSync(data, { recursive: true }) as string[]) {
    const stats = statSync(join(data, name));
    out[name] = `${stats.isDirectory() ? "d" : "f"}${(stats.mode & 0o777).toString(8)}`;
  }
  return out;
}

/** What every entry's mode must be: 0700 folders, 0600 files, the launcher 0700. */
const expected = (found: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(found).map(([name, mode]) => [
      name,
      mode.startsWith("d") || name === "bin/utility" || name === "bin/statusline.sh" ? `${mode[0]}700` : "f600",
    ]),
  );

describe("the data folder after a real session", () => {
  const runs: RunClaudeResult[] = [];
  afterAll(() => runs.forEach((run) => run.cleanup()));

  it("gated, with a refusal and a passed report: every file 0600, every folder 0700", async () => {
    const marks = markerDir();
    const refused = id("private_refused");
    const passed = id("private_passed");
    const run = await gateRun({
      prompt: "why does test_parse fail?",
      wrap: OPEN_UMASK,
      script: [
        [activate()],
        [text("Running."), touch(join(marks, "refused"), refused)],
        [text(ok("verify", "The parser's secret plan.")), touch(join(marks, "passed"), passed)],
        [text("Done.")],
      ],
    });
    runs.push(run);
    expectRefused(run, refused, "Bash", "no_report");
    expectPassed(run, passed);
    const found = modes(run);
    // The records that hold the rationale are among them: the step log, the state, the ledger.
    expect(readFileSync(join(dataDirOf(run), "sessions", `${run.sessionId}.jsonl`), "utf8")).toContain("secret plan");
    expect(Object.keys(found)).toEqual(
      expect.arrayContaining([`sessions/${run.sessionId}.jsonl`, `state/${run.sessionId}.json`, "bin/utility"]),
    );
    expect(Object.keys(found).some((name) => name.startsWith("ledger/") && name.endsWith(`${run.sessionId}.jsonl`))).toBe(true);
    expect(found).toEqual(expected(found));
  });

  it("ungated (the twin): nothing refused, and the same modes", async () => {
    const marks = markerDir();
    const call = id("private_ungated");
    const run = await gateRun({
      prompt: "list the files",
      wrap: OPEN_UMASK,
      script: [[text("No report here."), touch(join(marks, "ran"), call)], [text("Listed.")]],
    });
    runs.push(run);
    expectPassed(run, call, "observed");
    expect(run.result!.permission_denials).toEqual([]);
    const found = modes(run);
    expect(Object.keys(found)).toEqual(expect.arrayContaining([`sessions/${run.sessionId}.jsonl`, `state/${run.sessionId}.json`]));
    expect(found).toEqual(expected(found));
  });
});
