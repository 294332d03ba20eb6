/**
 * Red team 5 (class 2): a gated scope's reported `delegate` Workflow call
 * starts a `workflow-subagent` (its transcript under subagents/workflows/).
 * First asserted as "gated like its launcher"; the control (a plain
 * general-purpose Agent of the same gated main) showed that by design a
 * subagent is gated only by its own definition's opt-in (SPEC §2 scopes), so
 * the workflow agent is consistent: ungated, never blocked. Kept as the
 * ungated-not-blocked check (its report-less call runs, the Workflow call's
 * delegate report is what the gate checks).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse } from "../support/scripted-model.js";
import { activate, afterTyped, gateRun, id, logOf, markerDir, ok, ran, recordOf, touch } from "../gate/support.js";

const SCRIPT =
  "export const meta = { name: 'w', description: 'w' }\nconst r = await agent('WF-AGENT: touch it', { label: 'wf1' })\nreturn { r }\n";

describe("a gated scope's Workflow agent", () => {
  it("skill-gated main: the workflow agent's report-less call is not blocked (ungated by design)", async () => {
    const marks = markerDir();
    const calls = { flow: id("rt5_wf"), bare: id("rt5_wf_bare") };
    const run = await gateRun({
      prompt: "use a workflow",
      timeoutMs: 90_000,
      allowedTools: ["Bash", "Read", "Skill", "Workflow"],
      script: [
        [activate()],
        [text(ok("delegate", "Run a workflow.")), toolUse("Workflow", { script: SCRIPT }, calls.flow)],
        [text("Waiting.")],
        [text("Done.")],
      ],
      subagentScript: [[text("No report."), touch(join(marks, "wf-bare"), calls.bare)], [text("wf agent done")]],
    });
    try {
      const flow = recordOf(run, calls.flow);
      const bare = logOf(run).find((r: any) => r.toolUseId === calls.bare) as any;
      console.log(
        "workflow:",
        flow.decision,
        "| sub requests:",
        run.model.subagentRequests().length,
        "| bare:",
        bare?.decision,
        bare?.rule,
        bare?.gated,
        bare?.agentType,
        "| ran:",
        ran(join(marks, "wf-bare")),
      );
      expect(run.model.subagentRequests().length).toBeGreaterThan(0);
      expect(ran(join(marks, "wf-bare"))).toBe(true);
    } finally {
      run.cleanup();
    }
  });

  it("/utility on main: the workflow agent's report-less call is not blocked (ungated by design)", async () => {
    const marks = markerDir();
    const calls = { flow: id("rt5_wf_on"), bare: id("rt5_wf_on_bare") };
    const run = await afterTyped(
      "/utility:utility on",
      {
        prompt: "use a workflow",
        timeoutMs: 90_000,
        allowedTools: ["Bash", "Read", "Skill", "Workflow"],
        script: [
          [text(ok("delegate", "Run a workflow.")), toolUse("Workflow", { script: SCRIPT }, calls.flow)],
          [text("Waiting.")],
          [text("Done.")],
        ],
        subagentScript: [[text("No report."), touch(join(marks, "wf-bare"), calls.bare)], [text("wf agent done")]],
      },
      (o) => gateRun(o),
    );
    try {
      const flow = recordOf(run, calls.flow);
      const bare = logOf(run).find((r: any) => r.toolUseId === calls.bare) as any;
      console.log(
        "workflow(on):",
        flow.decision,
        "| sub requests:",
        run.model.subagentRequests().length,
        "| bare:",
        bare?.decision,
        bare?.rule,
        bare?.gated,
        bare?.agentType,
        "| ran:",
        ran(join(marks, "wf-bare")),
      );
      expect(run.model.subagentRequests().length).toBeGreaterThan(0);
      expect(ran(join(marks, "wf-bare"))).toBe(true);
    } finally {
      run.cleanup();
    }
  });

  it("control: the same main's plain Agent (general-purpose) subagent, report-less call", async () => {
    const marks = markerDir();
    const calls = { agent: id("rt5_wf_ctl"), bare: id("rt5_wf_ctl_bare") };
    const run = await gateRun({
      prompt: "use a helper",
      timeoutMs: 90_000,
      allowedTools: ["Bash", "Read", "Skill", "Agent"],
      script: [
        [activate()],
        [
          text(ok("delegate", "Ask a helper.")),
          toolUse("Agent", { description: "help", prompt: "touch it", subagent_type: "general-purpose" }, calls.agent),
        ],
        [text("Done.")],
      ],
      subagentScript: [[text("No report."), touch(join(marks, "ag-bare"), calls.bare)], [text("agent done")]],
    });
    try {
      const bare = logOf(run).find((r: any) => r.toolUseId === calls.bare) as any;
      console.log(
        "control agent:",
        recordOf(run, calls.agent).decision,
        "| bare:",
        bare?.decision,
        bare?.rule,
        bare?.gated,
        bare?.agentType,
        "| ran:",
        ran(join(marks, "ag-bare")),
      );
      expect(ran(join(marks, "ag-bare"))).toBe(true);
    } finally {
      run.cleanup();
    }
  });
});
