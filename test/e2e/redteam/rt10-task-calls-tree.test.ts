/**
 * Red team 10 (class 4): `max_tool_calls: 4` counts the task's tree. The main
 * conversation launches two background subagents in one message (calls 1, 2);
 * each makes two calls in parallel in its first message (3 to 6, decided
 * side by side in two scopes), then hands back; the main conversation then
 * makes two more calls. Promise (README: tool calls a task may make, its
 * subagents' included): at most 4 calls run; none after the subagents.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { runClaude } from "../support/claude.js";
import { routeByPrompt, text, toolUse } from "../support/scripted-model.js";
import { id, markerDir, ran, touch } from "../gate/support.js";
import { homeWithOptions, show } from "./rt10-support.js";

describe("max_tool_calls over a task's tree, two subagents calling in parallel", () => {
  it("no more than 4 calls run", async () => {
    const marks = markerDir();
    const run = await runClaude({
      prompt: "fan out",
      pluginDir: ROOT,
      home: homeWithOptions({ max_tool_calls: 4 }),
      allowedTools: ["Bash", "Agent"],
      timeoutMs: 150_000,
      whenExhausted: "end_turn",
      script: [
        [
          toolUse(
            "Agent",
            { description: "a", prompt: "JOB-A: go", subagent_type: "general-purpose", run_in_background: true },
            id("rt10_tc_a"),
          ),
          toolUse(
            "Agent",
            { description: "b", prompt: "JOB-B: go", subagent_type: "general-purpose", run_in_background: true },
            id("rt10_tc_b"),
          ),
        ],
        [toolUse("Bash", { command: "sleep 6", description: "wait" }, id("rt10_tc_sleep"))],
        [touch(join(marks, "m1"), id("rt10_tc_m1"))],
        [touch(join(marks, "m2"), id("rt10_tc_m2"))],
        [text("Done.")],
        [text("Done.")],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([
        ["JOB-A", [[touch(join(marks, "a1")), touch(join(marks, "a2"))], [text("a done")]]],
        ["JOB-B", [[touch(join(marks, "b1")), touch(join(marks, "b2"))], [text("b done")]]],
      ]),
    });
    try {
      show(run);
      const done = ["a1", "a2", "b1", "b2", "m1", "m2"].filter((m) => ran(join(marks, m)));
      console.log("ran:", done);
      // Two launches count: at most two other calls may run.
      expect(done.length, `ran: ${done.join(", ")}`).toBeLessThanOrEqual(2);
    } finally {
      run.cleanup();
    }
  });
});
