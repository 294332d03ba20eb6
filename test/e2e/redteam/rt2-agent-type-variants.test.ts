/**
 * Red team 2 (class 2): "A subagent whose definition sets utility_gated: true
 * is gated from its start" (SPEC §5). The ungated main conversation launches
 * the project's gated agent `checker` under spellings Claude Code may still
 * resolve to that definition. Promise: if the subagent runs with the gated
 * definition's prompt, its report-less call is refused and does not run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { systemText, text, toolUse } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ran, resultFor, touch } from "../gate/support.js";

describe.each(["checker", "Checker", "CHECKER", " checker", "checker ", "project:checker"])("Agent{subagent_type: %j}", (type) => {
  it("a subagent started from the gated definition refuses its report-less call", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(cwd, ".claude", "agents", "checker.md"),
      "---\nname: checker\ndescription: checks things\ntools: Bash, Read\nutility_gated: true\n---\n\nYou are CHECKER-DEFINITION. Write an action report before every tool call.\n",
    );
    const calls = { agent: id("rt2_agtype"), bare: id("rt2_agtype_bare") };
    const run = await gateRun({
      prompt: "check it",
      cwd,
      timeoutMs: 90_000,
      script: [
        [toolUse("Agent", { subagent_type: type, description: "check", prompt: "SUBTASK check" }, calls.agent)],
        [text("Reported.")],
      ],
      subagentScript: [[text("Running."), touch(join(marks, "bare"), calls.bare)], [text("SUB-FINAL: done.")]],
    });
    try {
      const launch = resultFor(run.model.mainRequests(), calls.agent);
      const subs = run.model.subagentRequests();
      const withDef = subs.some((r) => systemText(r).includes("CHECKER-DEFINITION"));
      const rec = logOf(run).find((r) => r.toolUseId === calls.bare && r.event === "PreToolUse");
      console.log(
        JSON.stringify(type),
        "launch:",
        launch.is_error,
        launch.text.slice(0, 100),
        "| subagent requests:",
        subs.length,
        "with definition:",
        withDef,
        "| bare:",
        rec?.decision,
        rec?.agentType,
        "ran:",
        ran(join(marks, "bare")),
      );
      if (withDef) expect({ decision: rec?.decision, ran: ran(join(marks, "bare")) }).toEqual({ decision: "refused", ran: false });
    } finally {
      run.cleanup();
    }
  });
});
