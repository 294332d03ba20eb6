import { describe, expect, it } from "vitest";
import { actionPermits, isNeutralTool } from "../../src/engine/tools.js";

describe("which tools each action permits (SPEC §6)", () => {
  const READ = ["Read", "Grep", "Glob", "LS", "NotebookRead", "WebFetch", "WebSearch", "ListMcpResourcesTool", "ReadMcpResourceTool"];
  it.each(READ)("retrieve and verify permit %s", (tool) => {
    expect(actionPermits("retrieve", tool)).toBe(true);
    expect(actionPermits("verify", tool)).toBe(true);
    expect(actionPermits("tool_call", tool)).toBe(false);
  });

  it("verify adds Bash; retrieve does not", () => {
    expect(actionPermits("verify", "Bash")).toBe(true);
    expect(actionPermits("retrieve", "Bash")).toBe(false);
  });

  it.each(["Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", "mcp__github__create_issue", "SomeNewTool"])("tool_call permits %s", (tool) => {
    expect(actionPermits("tool_call", tool)).toBe(true);
  });

  it.each(["Agent", "Task", "SendMessage"])("delegate permits %s, and tool_call does not", (tool) => {
    expect(actionPermits("delegate", tool)).toBe(true);
    expect(actionPermits("tool_call", tool)).toBe(false);
  });

  it("respond and stop permit nothing, even with extra names", () => {
    for (const tool of ["Read", "Bash", "Agent", "X"]) {
      expect(actionPermits("respond", tool, { respond: ["X"] })).toBe(false);
      expect(actionPermits("stop", tool)).toBe(false);
    }
  });

  it("utility_tools adds names to an action", () => {
    expect(actionPermits("retrieve", "mcp__docs__search")).toBe(false);
    expect(actionPermits("retrieve", "mcp__docs__search", { retrieve: ["mcp__docs__search"] })).toBe(true);
  });

  it("planning tools are neutral", () => {
    for (const tool of ["Skill", "TodoWrite", "ToolSearch", "TaskCreate", "TaskUpdate", "TaskList", "ExitPlanMode"]) expect(isNeutralTool(tool)).toBe(true);
    expect(isNeutralTool("Bash")).toBe(false);
  });
});
