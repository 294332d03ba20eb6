/**
 * SPEC §10: a gated scope whose state cannot be read fails closed, with the
 * reason; the state file is broken between two turns of a live session.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeScratchHome, type RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { activate, expectPassed, gateRun, id, markerDir, ok, ran, resultFor, touch } from "./support.js";

describe("a gated scope whose state is unreadable", () => {
  const marks = markerDir();
  const ids = { before: id("before"), after: id("after") };
  let run: RunClaudeResult;
  let stateFile = "";
  const home = makeScratchHome();

  beforeAll(async () => {
    run = await gateRun({
      prompt: "why does test_parse fail?",
      home,
      script: [
        [activate()],
        [text(ok("verify")), touch(join(marks, "before"), ids.before)],
        (req) => {
          const session = String(req.headers["x-claude-code-session-id"]);
          stateFile = join(home, ".claude", "plugins", "data", "utility-inline", "state", `${session}.json`);
          writeFileSync(stateFile, "{ not json");
          return [text(ok("verify")), touch(join(marks, "after"), ids.after)];
        },
        [text("The gate could not check the call.")],
      ],
    });
  });
  afterAll(() => {
    run?.cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  it("refuses the next call with the reason, and it does not run", () => {
    expectPassed(run, ids.before);
    expect(run.result!.permission_denials.map((d) => d.tool_use_id)).toEqual([ids.after]);
    expect(resultFor(run.model.mainRequests(), ids.after).text).toBe(
      `PreToolUse:Bash hook error: utility gate: the gate's state cannot be read (the state file ${stateFile} is not valid JSON), so no call can be checked; the user can fix or delete that file, or end the task.`,
    );
    expect(ran(join(marks, "before"))).toBe(true);
    expect(ran(join(marks, "after"))).toBe(false);
  });
});
