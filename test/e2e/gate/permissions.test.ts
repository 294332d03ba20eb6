/**
 * The gate never says "allow" (SPEC §6): a valid report for a tool the user's
 * permissions do not allow (Write, not in --allowedTools) passes the gate,
 * and Claude Code's own permission flow still refuses it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, logOf, markerDir, ok, recordOf, resultFor, stateOf } from "./support.js";

describe("a valid report for a tool the user did not allow", () => {
  const call = id("write");
  let target: string;
  let run: RunClaudeResult;

  beforeAll(async () => {
    const cwd = markerDir();
    target = join(cwd, "fix.py");
    run = await gateRun({
      prompt: "fix it",
      cwd,
      allowedTools: ["Bash", "Read"],
      script: [
        [activate()],
        [text(ok("tool_call", "Write the fix.")), toolUse("Write", { file_path: target, content: "fixed\n" }, call)],
        [text("I could not write the file.")],
      ],
    });
  });
  afterAll(() => run?.cleanup());

  it("passes the gate but is refused by Claude Code: the file is not written", () => {
    expect(recordOf(run, call)).toMatchObject({ decision: "passed", gated: true, report: { action: "tool_call" } });
    expect(assertRunOk(run).permission_denials.map((d) => d.tool_use_id)).toEqual([call]);
    const seen = resultFor(run.model.mainRequests(), call);
    expect(seen.is_error).toBe(true);
    expect(seen.text).not.toContain("utility gate");
    expect(seen.text).toMatch(/requested permissions to write/);
    expect(existsSync(target)).toBe(false);
  });

  it("the hooks learn from the transcript that it never ran: its outcome is denied, and it is no step", () => {
    const outcome = logOf(run).find((r) => r.event === "Outcome" && r.toolUseId === call);
    expect(outcome?.outcome).toMatchObject({ result: "denied", resultBytes: 0 });
    expect(stateOf(run).main).toMatchObject({ step: 0, pending: {} });
  });
});
