import { describe, expect, it } from "vitest";
import { actionPermits, actionsPermitting, describePermits, isNeutralTool, isPollingTool, isReadOnlyTool } from "../../src/engine/tools.js";

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

  it.each(["Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", "mcp__github__create_issue", "SomeNewTool"])(
    "tool_call permits %s",
    (tool) => {
      expect(actionPermits("tool_call", tool)).toBe(true);
    },
  );

  it.each(["Agent", "Task", "SendMessage"])("delegate permits %s, and tool_call does not", (tool) => {
    expect(actionPermits("delegate", tool)).toBe(true);
    expect(actionPermits("tool_call", tool)).toBe(false);
  });

  it("respond and stop permit nothing, even with extra names", () => {
    for (const tool of ["Read", "Bash", "Agent", "X"]) {
      expect(actionPermits("respond", tool, { respond: ["X"] })).toBe(false);
      expect(actionPermits("stop", tool)).toBe(false);
      expect(actionPermits("stop", tool, { stop: [tool] })).toBe(false);
    }
  });

  it("utility_tools adds names to an action", () => {
    expect(actionPermits("retrieve", "mcp__docs__search")).toBe(false);
    expect(actionPermits("retrieve", "mcp__docs__search", { retrieve: ["mcp__docs__search"] })).toBe(true);
  });

  it("planning tools are neutral", () => {
    for (const tool of ["Skill", "TodoWrite", "ToolSearch", "TaskCreate", "TaskUpdate", "TaskList", "ExitPlanMode"])
      expect(isNeutralTool(tool)).toBe(true);
    expect(isNeutralTool("Bash")).toBe(false);
  });
});

describe("the rest of the table", () => {
  it("tool_call permits no tool another row names, but any mcp__ tool", () => {
    for (const tool of ["Read", "Agent", "Skill", "TodoWrite", "TaskList", "ExitPlanMode"])
      expect(actionPermits("tool_call", tool), tool).toBe(false);
    expect(actionPermits("tool_call", "mcp__anything")).toBe(true);
  });

  it("delegate and retrieve permit nothing outside their rows; extra names widen only their own action", () => {
    for (const tool of ["Bash", "Write", "Read", "mcp__x__y"]) expect(actionPermits("delegate", tool), tool).toBe(false);
    expect(actionPermits("retrieve", "Write")).toBe(false);
    expect(actionPermits("verify", "Write")).toBe(false);
    expect(actionPermits("verify", "mcp__ci__run", { retrieve: ["mcp__ci__run"] })).toBe(false);
    expect(actionPermits("delegate", "Bash", { delegate: ["Bash"] })).toBe(true);
  });

  it("says what each action permits, with the extra names", () => {
    expect(describePermits("retrieve")).toBe(
      "read-only tools (Read, Grep, Glob, LS, NotebookRead, WebFetch, WebSearch, ListMcpResourcesTool, ReadMcpResourceTool, BashOutput, TaskOutput)",
    );
    expect(describePermits("retrieve", { retrieve: ["mcp__a", "mcp__b"] })).toMatch(/TaskOutput\), and mcp__a, mcp__b$/);
    expect(describePermits("verify")).toBe("read-only tools and Bash");
    expect(describePermits("verify", { verify: [] })).toBe("read-only tools and Bash");
    expect(describePermits("tool_call", { tool_call: ["X"] })).toBe(
      "Bash, Write, Edit, MultiEdit, NotebookEdit, KillShell, TaskStop, mcp__ tools and other tools no other action names, and X",
    );
    expect(describePermits("delegate")).toBe("Agent, Task, Workflow, SendMessage");
    expect(describePermits("respond")).toBe("no tools");
    expect(describePermits("stop", { stop: ["Bash"] })).toBe("no tools");
  });

  it("lists the actions that would permit a tool, among those given", () => {
    expect(actionsPermitting("Read", ["respond", "retrieve", "tool_call", "verify", "delegate", "stop"])).toEqual(["retrieve", "verify"]);
    expect(actionsPermitting("Bash", ["retrieve", "verify", "tool_call"])).toEqual(["verify", "tool_call"]);
    expect(actionsPermitting("Bash", ["retrieve"])).toEqual([]);
    expect(actionsPermitting("mcp__docs__search", ["retrieve"], { retrieve: ["mcp__docs__search"] })).toEqual(["retrieve"]);
  });

  it("knows the read-only and the polling tools", () => {
    expect(isReadOnlyTool("Grep")).toBe(true);
    expect(isReadOnlyTool("Bash")).toBe(false);
    for (const tool of ["BashOutput", "TodoWrite", "TaskList", "TaskGet", "TaskOutput", "TaskUpdate", "TaskCreate"])
      expect(isPollingTool(tool), tool).toBe(true);
    // SPEC §6: tools that act on background jobs are not neutral, and a stop is no poll.
    expect(isPollingTool("TaskStop")).toBe(false);
    expect(isPollingTool("Read")).toBe(false);
    for (const tool of ["TodoRead", "EnterPlanMode", "TaskGet"]) expect(isNeutralTool(tool), tool).toBe(true);
    for (const tool of ["TaskOutput", "TaskStop", "BashOutput", "KillShell"]) expect(isNeutralTool(tool), tool).toBe(false);
  });
});
