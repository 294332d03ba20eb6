/**
 * Red team 7 (class 5, over-blocking): a gated task's reported `delegate`
 * Agent call whose prompt names the project's folder ("Summarise the code in
 * <project> for me"), the most ordinary thing to tell a subagent. The
 * gate's path check reads every word of a tool's input unless the tool is a
 * writer, a reader or a planner (src/engine/named-paths.ts); Agent is none,
 * so a word naming the project's folder (which holds `.claude/`) refuses it.
 * docs/limits.md concedes this for "an MCP or unknown tool's string", not for
 * Agent, a tool the plugin knows. Promise (docs/gate.md, README): a harmless
 * gated call whose report fits is let through.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, markerDir, ok, ran, recordOf, touch } from "../gate/support.js";

it("rt7: a gated delegate Agent call whose prompt names the project's folder is let through", async () => {
  const marks = markerDir();
  const cwd = markerDir();
  const call = id("rt7_agent_prompt");
  const run = await gateRun({
    prompt: "summarise the code",
    cwd,
    timeoutMs: 90_000,
    allowedTools: ["Bash", "Read", "Skill", "Agent"],
    script: [
      [activate()],
      [
        text(ok("delegate", "Hand it to a helper.")),
        toolUse(
          "Agent",
          { description: "summarise", prompt: `Summarise the code in ${cwd} for me`, subagent_type: "general-purpose" },
          call,
        ),
      ],
      [text("Done.")],
    ],
    subagentScript: [[touch(join(marks, "sub-ran"))], [text("summary")]],
  });
  try {
    const rec = recordOf(run, call);
    console.log(
      "agent call:",
      rec.decision,
      rec.rule ?? "",
      (rec.reason ?? "").slice(0, 200),
      "| subagent ran:",
      ran(join(marks, "sub-ran")),
    );
    expect(rec.decision).toBe("passed");
  } finally {
    run.cleanup();
  }
});
